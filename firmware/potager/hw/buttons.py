"""The keys: keypad.Keys scans and debounces in the background.

A board with more keys than the firmware's seven (the MacroPad: 12 and an encoder's switch)
maps each to one of them (its pin table's "keymap"): several keys of one function act as one
key, pressed while any is down. An encoder's detents come as presses of UP and DOWN.

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
    def __init__(self, pins, early=None, keymap=None, encoder=None):
        from adafruit_ticks import ticks_diff, ticks_ms

        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.event = keypad.Event()  # reused: polling allocates nothing
        self.keymap = keymap  # the firmware's key of each pin; None: the pins are in its order
        self.down = bytearray(8)  # with a keymap: how many keys of each function are down
        self.encoder = encoder
        self.position = encoder.position if encoder is not None else 0
        self.read_at = ticks_ms()  # when the encoder's position was last read
        self.turns = []  # [steps, ms]: detents not given yet, made after `ms`
        self.turning = None  # the release of the detent just given
        self.ahead = None  # (key, pressed, ms): a key event read to compare with a detent
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
        """The next key event (the same object every time once the early ones are given, on a
        board without a keymap), or None. An encoder's detents come among the keys' events in
        the order they were made (see sample)."""
        while True:
            if self.turning is not None:
                event, self.turning = self.turning, None
                return event
            self.sample()
            if self.ahead is not None:
                key, pressed, timestamp = self.ahead
                self.ahead = None
            elif self.queued:
                key, pressed, timestamp = self.queued.pop(0)
            elif self.keys.events.get_into(self.event):
                if self.keymap is None:
                    return self.event
                event = self.event
                key, pressed, timestamp = event.key_number, event.pressed, event.timestamp
            else:
                key = None
            # A detent waits while a key is down (its press inside that key's press and
            # release would make the two one press, or tie it to the wrong screen), and goes
            # before a key event made after the detent's window opened.
            if (
                self.turns
                and max(self.down) == 0
                and (key is None or self.ticks_diff(timestamp, self.turns[0][1]) > 0)
            ):
                if key is not None:
                    self.ahead = (key, pressed, timestamp)
                return self.turned()
            if key is None:
                return None
            if self.keymap is not None:
                key = self.keymap[key]
                held = self.down[key]
                if pressed:
                    self.down[key] = held + 1
                    if held:
                        continue  # another key of this function is down: one press
                elif held:
                    self.down[key] = held - 1
                    if held > 1:
                        continue  # another key of this function is still down
            return keypad.Event(key, pressed, timestamp)

    def sample(self):
        """Read the encoder. rotaryio gives a position, not when it moved: a detent is dated
        by the reads around it, made after the last read that did not see it. The app reads
        between keys and after each frame, so a detent and a key in one busy step (a screen
        change takes 0.3 s on the board) keep the order they were made in.
        (Idle: an int read, nothing allocated.)"""
        if self.encoder is None:
            return
        position = self.encoder.position
        if position != self.position:
            self.turns.append([position - self.position, self.read_at])
            self.position = position
        self.read_at = self.ticks_ms()

    def turned(self):
        """The first detent waiting, as a press of DOWN (clockwise) or UP; its release is
        given at the next poll."""
        from potager.core import keys

        turn = self.turns[0]
        step = 1 if turn[0] > 0 else -1
        turn[0] -= step
        if turn[0] == 0:
            self.turns.pop(0)
        key = keys.DOWN if step > 0 else keys.UP
        now = self.ticks_ms()
        self.turning = keypad.Event(key, False, now)
        return keypad.Event(key, True, now)


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


def for_board(early=None, encoder=True):
    """The board's keys (and its encoder, if it has one and `encoder`)."""
    import board

    from potager.hw import pins

    table = pins.table_for(getattr(board, "board_id", ""))
    keymap = table.get("keymap")
    if keymap is not None:
        from potager.core import keys

        keymap = bytes([keys.NAMES.index(name) for name in keymap])
    dial = None
    if encoder and "encoder" in table:
        import rotaryio

        dial = rotaryio.IncrementalEncoder(*[getattr(board, name) for name in table["encoder"]])
    return Buttons([getattr(board, name) for name in table["keys"]], early, keymap, dial)


def scan_now():
    """Start scanning the keys at once: importing the app takes seconds on the board, and a
    key pressed meanwhile (BACK for the safe menu) waits in keypad's queue with its time."""
    global early
    try:
        early = for_board(encoder=False)  # opened once, by BoardIO's keys
    except Exception:  # BoardIO tries again and reports it
        early = None
