"""Device settings (ring brightness, night mode, beep, dim and sleep delays) and the power
states they drive: awake, dimmed after `dim` minutes without a key, asleep after `sleep`."""

from potager.core.compat import const
from potager.core.gestures import ticks_diff

AWAKE = const(0)
DIMMED = const(1)
ASLEEP = const(2)

RANGES = {"bri": (1, 4), "night": (0, 1), "beep": (0, 1), "dim": (0, 30), "sleep": (0, 120)}
DEFAULTS = {"bri": 4, "night": 0, "beep": 1, "dim": 3, "sleep": 15}  # dim, sleep: minutes
NIGHT_LEVEL = const(24)  # out of 255: the ring at night
DIM_LEVEL = const(64)  # the ring after `dim` minutes without a key


class Power:
    def __init__(self):
        self.settings = dict(DEFAULTS)
        self.state = AWAKE

    def load(self, saved):
        """Settings from a save; anything missing or out of range falls back to its default."""
        for key in DEFAULTS:
            lo, hi = RANGES[key]
            value = saved.get(key) if isinstance(saved, dict) else None
            if type(value) is not int or not lo <= value <= hi:
                value = DEFAULTS[key]
            self.settings[key] = value

    def change(self, key, delta):
        """False when the setting is already at its limit."""
        lo, hi = RANGES[key]
        value = self.settings[key] + delta
        if not lo <= value <= hi:
            return False
        self.settings[key] = value
        return True

    def ring_level(self):
        """The ring's brightness out of 255 (the NeoPixel cap applies on top)."""
        if self.settings["night"]:
            level = NIGHT_LEVEL
        else:
            level = self.settings["bri"] * 255 // 4
        if self.state == DIMMED:
            level = min(level, DIM_LEVEL)
        return level

    def update(self, now, last_input):
        """The state idleness calls for; returns it."""
        idle = ticks_diff(now, last_input) // 60000
        dim, sleep = self.settings["dim"], self.settings["sleep"]
        if self.state == AWAKE and dim and idle >= dim:
            self.state = DIMMED
        if self.state != ASLEEP and sleep and idle >= sleep:
            self.state = ASLEEP
        return self.state
