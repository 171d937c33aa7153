"""The seven keys: keypad.Keys scans and debounces in the background."""

import keypad

early = None  # the keys opened by code.py before the app is imported (scan_now)


class Buttons:
    def __init__(self, pins):
        from adafruit_ticks import ticks_ms

        # buttons close to ground; internal pull-ups (also right for the RP2350's erratum)
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.since = ticks_ms()  # the first scan: a key held at power-on is stamped about now
        self.event = keypad.Event()  # reused: polling allocates nothing

    def poll(self):
        """The next key event (the same object every time), or None."""
        if self.keys.events.get_into(self.event):
            return self.event
        return None


def for_board():
    import board

    from potager.hw import pins

    table = pins.table_for(getattr(board, "board_id", ""))
    return Buttons([getattr(board, name) for name in table["keys"]])


def scan_now():
    """Start scanning the keys at once: importing the app takes seconds on the board, and a
    key pressed meanwhile (BACK for the safe menu) waits in keypad's queue with its time."""
    global early
    try:
        early = for_board()
    except Exception:  # BoardIO tries again and reports it
        early = None
