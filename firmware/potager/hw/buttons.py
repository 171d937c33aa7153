"""The seven keys: keypad.Keys scans and debounces in the background.

Two facts of CircuitPython's keypad shape this module (shared-module/keypad): a key already
held when the Keys are made gives no press event (its first scan only learns the state; its
release is reported), and on the board the runtime reconfigures GP15 (BACK) for 1 ms some
11 ms after code.py starts and then puts back the pad it saw before, so keys made inside that
millisecond read BACK as held for good (seen on the emulated Pico, CircuitPython 9 and 10).
"""

import keypad

early = None  # the keys opened by code.py before the app is imported (scan_now)
SCAN_S = 0.01  # keypad's scan interval
PAD_MS = 50  # BACK's pad is put back by the runtime within this of code.py's start


class Buttons:
    def __init__(self, pins, early=None):
        from adafruit_ticks import ticks_ms

        self.event = keypad.Event()  # reused: polling allocates nothing
        self.queued = []  # (key, pressed, ms) to give before the keys' own events
        if early is None:
            self.since = ticks_ms()  # the first scan: the safe menu's window opens here
        else:
            # The early scan's events are kept, and the keys opened again: which keys are
            # down now is read from the pins, so a press the early scan missed (held from
            # power-on) or made up (BACK's pad put back) is set right before anyone acts.
            self.since = early.since
            event = early.event
            seen = []
            while early.keys.events.get_into(event):
                seen.append((event.key_number, event.pressed, event.timestamp))
            early.keys.deinit()
            self.queued = settle(seen, read_down(pins), early.since, ticks_ms())
        # buttons close to ground; internal pull-ups (also right for the RP2350's erratum).
        # A scan every 10 ms (keypad's default is 20), as adafruit_debouncer's default: a key
        # is seen 5 ms sooner on average, and a tactile switch bounces for less than 10 ms.
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True, interval=SCAN_S)

    def poll(self):
        """The next key event (the same object every time once the early ones are given),
        or None."""
        if self.queued:
            key, pressed, timestamp = self.queued.pop(0)
            return keypad.Event(key, pressed, timestamp)
        if self.keys.events.get_into(self.event):
            return self.event
        return None


def read_down(pins):
    """The keys down now, read from the pins with their pull-ups."""
    import digitalio

    down = []
    for number in range(len(pins)):
        pin = digitalio.DigitalInOut(pins[number])
        pin.pull = digitalio.Pull.UP
        if not pin.value:
            down.append(number)
        pin.deinit()
    return down


def settle(seen, down, since, now):
    """The early scan's events made to agree with the keys down now. A key held from power-on
    gets a press at `since` (before its release if it was let go, or alone if it is still
    down); a key down now whose events end with its release gets a press now; a key up now
    whose events end with a press was let go after the early keys' last scan (keypad reports
    a change at its next scan; the release is dated now), unless that press came in the first
    PAD_MS: BACK's pad put back, never made.
    The new Keys then report the release of a key that is down now (and nothing else of that
    hold)."""
    last = {}  # key -> index of its last event
    for index in range(len(seen)):
        last[seen[index][0]] = index
    kept = []
    started = []  # keys with an event given
    for index in range(len(seen)):
        key, pressed, at = seen[index]
        if pressed and last[key] == index and key not in down:
            if (at - since) % 0x20000000 < PAD_MS:  # (ticks wrap at 2**29)
                continue  # a press with no release, of a key that is up: never made
            kept.append(seen[index])
            kept.append((key, False, now))
            continue
        if not pressed and key not in started:
            kept.append((key, True, since))  # held when the early keys were made
        started.append(key)
        kept.append(seen[index])
    for key in down:
        if key not in last:
            kept.append((key, True, since))
        elif not seen[last[key]][1]:
            kept.append((key, True, now))
    return kept


def for_board(early=None):
    import board

    from potager.hw import pins

    table = pins.table_for(getattr(board, "board_id", ""))
    return Buttons([getattr(board, name) for name in table["keys"]], early)


def scan_now():
    """Start scanning the keys at once: importing the app takes seconds on the board, and a
    key pressed meanwhile (BACK for the safe menu) waits in keypad's queue with its time."""
    global early
    try:
        early = for_board()
    except Exception:  # BoardIO tries again and reports it
        early = None
