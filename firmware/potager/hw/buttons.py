"""The seven keys: keypad.Keys scans and debounces in the background."""

import keypad


class Buttons:
    def __init__(self, pins):
        # buttons close to ground; internal pull-ups (also right for the RP2350's erratum)
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.event = keypad.Event()  # reused: polling allocates nothing

    def poll(self):
        """The next key event (the same object every time), or None."""
        if self.keys.events.get_into(self.event):
            return self.event
        return None
