"""A board made of pure fakes, for driving the real App on CPython and on MicroPython.

Same script language as the simulator (press, hold, wait, power-cut, boot, reload), without the
display stack: what the App would draw is kept as text rows and LED ints.

This folder (host_tools/mpy, not a package) holds what runs under MicroPython and CircuitPython's
VM as well: plain Python, imported there as ``pureboard`` (this folder on the VM's path) and on
CPython as ``host_tools.mpy.pureboard`` (the tests, make bench, make fuzz).
"""

KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN")
STEP_MS = 10
PRESS_MS = 80
WRAP = 1 << 29  # CircuitPython's ticks_ms wraps here


class Event:
    def __init__(self, key, pressed, timestamp):
        self.key_number = key
        self.pressed = pressed
        self.released = not pressed
        self.timestamp = timestamp


class Buttons:
    def __init__(self):
        self.queue = []

    def poll(self):
        if self.queue:
            return self.queue.pop(0)
        return None

    def sample(self):
        pass  # no encoder


class Display:
    def __init__(self):
        self.rows = []
        self.draws = 0

        self.awake = True

    def show(self, rows):
        self.rows = list(rows)
        self.draws += 1

    def sleep(self):
        self.awake = False

    def wake(self):
        self.awake = True


class Pixels:
    def __init__(self):
        self.leds = [0] * 12

    def show(self, leds):
        for i in range(len(leds)):  # in place: the idle-loop measure counts only the App
            self.leds[i] = leds[i]


class PureBoard:
    def __init__(self, nvm=None, now=0):
        self.nvm = nvm if nvm is not None else bytearray(b"\xff" * 4096)
        self.now = now
        self.app = None
        self.writes = []  # times of NVM writes
        self.boot()

    def boot(self):
        from potager.app import App

        self.buttons = Buttons()
        self.display = Display()
        self.pixels = Pixels()
        self.app = App(self.display, self.pixels, self.buttons, self.nvm, self.now)
        self.app.step(self.now)

    def power_cut(self):
        import gc
        import sys

        self.app = None
        if sys.implementation.name == "micropython":
            # RAM is lost, as on the board: the next boot imports the firmware afresh (under
            # CPython the tests keep the modules, and what they patched in them)
            for name in list(sys.modules):
                if name.startswith("potager"):
                    del sys.modules[name]
            gc.collect()

    def run(self, ms):
        for _ in range(ms // STEP_MS):
            self.now = (self.now + STEP_MS) % WRAP
            if self.app is not None:
                before = self.app.store.writes
                self.app.step(self.now)
                if self.app.store.writes != before:
                    self.writes.append(self.now)

    def key(self, name, ms):
        if self.app is None:
            self.run(ms)
            return
        key = KEYS.index(name)
        self.buttons.queue.append(Event(key, True, self.now))
        self.run(ms)
        if self.app is not None:
            self.buttons.queue.append(Event(key, False, self.now))
            self.run(STEP_MS)

    def script(self, text):
        """Run a script: its text, or any iterable of lines (a file: read as it runs)."""
        for line in text.split("\n") if type(text) is str else text:
            words = line.split("#")[0].split()
            if not words:
                continue
            cmd = words[0]
            if cmd == "press":
                self.key(words[1], PRESS_MS)
            elif cmd == "hold":
                self.key(words[1], int(words[2]))
            elif cmd == "wait":
                self.run(int(words[1]))
            elif cmd == "power-cut":
                self.power_cut()
            elif cmd == "boot":
                self.boot()
            elif cmd == "reload":  # a soft reload: the App starts again from the save
                self.app = None
                self.boot()
            else:
                raise ValueError("unknown command: " + line)

    def rows(self):
        return self.display.rows
