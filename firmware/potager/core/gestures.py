"""Key gestures from raw key events: short press, long press and auto-repeat.

Pure: fed with (key, pressed, ms) and polled with the time; times are ticks in ms that wrap
at 2**29 like CircuitPython's, so only differences are used. A short press is reported on
release (a hold must be told apart from it); LONG comes once at LONG_MS while the key is
still down, then REPEAT every REPEAT_MS until release. One key at a time: a second key
pressed while one is held cancels nothing and is handled on its own release.

Everything is decided from the events' own timestamps (keypad stamps them when it scans), not
from when the loop gets to them: poll with a release's timestamp before feeding it, and a hold
made while the loop was busy still gives its LONG and its REPEATs.
"""

from potager.core.compat import const

SHORT = const(1)
LONG = const(2)
REPEAT = const(3)

LONG_MS = const(500)
REPEAT_MS = const(400)
_WRAP = const(1 << 29)
_HALF = const(1 << 28)


def ticks_diff(a, b):
    """a - b for ticks that wrap at 2**29 (as adafruit_ticks.ticks_diff)."""
    return ((a - b + _HALF) % _WRAP) - _HALF


def since(a, b):
    """A stored "last time" `b` as kept at time `a`: itself, or a - 2**27 ms (37 h) if it is
    older. Refreshed every step, it stays within the 2**28 ms that ticks_diff can measure.
    (Named after an existing name: a new one costs RAM on MicroPython, see adding-a-mode.)"""
    if ticks_diff(a, b) > _HALF >> 1:
        return (a - (_HALF >> 1)) % _WRAP
    return b


class Gestures:
    def __init__(self, keys):
        self.down_at = [0] * keys
        self.is_down = [False] * keys
        self.next_at = [0] * keys  # when the next LONG/REPEAT is due
        self.held = [False] * keys  # LONG already sent: the release is not a SHORT

    def feed(self, key, pressed, ms):
        """A raw key event; returns SHORT on a quick release, else None (poll with the
        release's time first: a hold's LONG is due by then)."""
        if pressed:
            self.is_down[key] = True
            self.held[key] = False
            self.down_at[key] = ms
            self.next_at[key] = (ms + LONG_MS) % _WRAP
            return None
        was_down = self.is_down[key]
        self.is_down[key] = False
        if was_down and not self.held[key]:
            return SHORT
        return None

    def poll(self, now):
        """(key, LONG or REPEAT) for the first held key that is due at `now`, else None; poll
        until None: after a busy spell several may be due."""
        for key in range(len(self.is_down)):
            if self.is_down[key] and ticks_diff(now, self.next_at[key]) >= 0:
                kind = REPEAT if self.held[key] else LONG
                self.held[key] = True
                self.next_at[key] = (self.next_at[key] + REPEAT_MS) % _WRAP
                return key, kind
        return None

    def release_all(self):
        for key in range(len(self.is_down)):
            self.is_down[key] = False
