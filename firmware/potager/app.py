"""The app: rule core, screens and hardware wired together, advanced one step at a time.

``App`` imports nothing from the hardware world: the simulator, the tests and MicroPython
drive it with any objects that have the adapters' methods (``buttons.poll()``,
``display.show(rows)``, ``pixels.show(leds)``, a bytearray-like ``nvm``). Only ``main()``
opens the real hardware, and it is the only loop.
"""

from potager import lang
from potager.core import keys, persist, registry
from potager.core.crc import crc16
from potager.core.engine import Engine
from potager.core.gestures import Gestures, ticks_diff
from potager.ui import view
from potager.ui.screens import ErrorScreen, HomeScreen, LanguageScreen

from potager.core.compat import const


# Saving: after input has been quiet for QUIET_MS, or at the latest MAX_UNSAVED_MS after
# the first unsaved change, and never twice within MIN_GAP_MS (flash wear). So a power cut
# loses at most the last ~2 s of input, and a burst of presses costs one write.
QUIET_MS = const(1000)
MIN_GAP_MS = const(2000)
MAX_UNSAVED_MS = const(2000)
MESSAGE_MS = const(2500)
FLASH_MS = const(250)
BLINK_MS = const(1000)  # the active seat's rhythm: on for BLINK_ON_MS of every BLINK_MS
BLINK_ON_MS = const(700)
PIXELS = const(12)

current = None  # the running App, for the simulator and the REPL


class App:
    def __init__(self, display, pixels, buttons, nvm, now=0):
        self.display = display
        self.pixels = pixels
        self.buttons = buttons
        self.store = persist.Store(nvm)
        self.gestures = Gestures(keys.COUNT)
        self.leds = [0] * PIXELS
        self.screen_rows = [""] * view.ROWS
        self.stack = []
        self.engine = None
        self.mode = None
        self.language = "en"
        self.texts = {}
        self.now = now
        self.message = None
        self.message_until = 0
        self.flash_until = 0
        self.flashing = False
        self.blink_on = True
        self.dirty = True
        self.unsaved = False
        self.unsaved_since = now
        self.last_input = now
        self.last_write = now
        self.boot(now)

    # ----------------------------------------------------------------- start-up
    def boot(self, now):
        status, meta, log = self.store.load()
        problem = None
        if status == persist.OK:
            try:
                self.set_language(meta.get("lang", "en"), save=False)
                if meta.get("mode"):
                    self.restore_game(meta["mode"], meta["base"], log)
            except Exception:  # a save that passes its CRC but not the rules: never trust it
                self.engine = self.mode = None
                problem = "save_corrupt"
        else:
            self.set_language("en", save=False)
            problem = {persist.CORRUPT: "save_corrupt", persist.OLD_FORMAT: "save_old"}.get(status)
        if self.store.nvm is None:
            problem = "no_nvm"
        if self.engine is not None:
            self.show_game()
        else:
            self.reset_to(HomeScreen())
            if status == persist.BLANK and self.store.nvm is not None:
                self.push(LanguageScreen())  # first boot: ask before anything else
        if problem is not None:
            self.say(problem, error=True)

    def restore_game(self, mode, base, log):
        rules = registry.rules(mode)
        engine = Engine(rules, base, log)
        rules.check(engine.state)
        self.engine = engine
        self.mode = mode

    # ------------------------------------------------------------------ the loop
    def step(self, now):
        """One pass of the main loop: input, timers, drawing, saving. Idle: allocates nothing."""
        self.now = now
        event = self.buttons.poll()
        while event is not None:
            kind = self.gestures.feed(event.key_number, event.pressed, event.timestamp)
            self.last_input = now
            if kind:
                self.screen().on_key(self, event.key_number, kind)
            event = self.buttons.poll()
        due = self.gestures.poll(now)
        if due is not None:
            self.last_input = now
            self.screen().on_key(self, due[0], due[1])
        self.screen().tick(self, now)
        self.update_timers(now)
        if self.dirty:
            self.draw()
        self.autosave(now)

    def update_timers(self, now):
        blink = now % BLINK_MS < BLINK_ON_MS
        if blink != self.blink_on:
            self.blink_on = blink
            self.draw_leds()
        if self.message is not None and ticks_diff(now, self.message_until) >= 0:
            self.message = None
            self.dirty = True
        if self.flashing and ticks_diff(now, self.flash_until) >= 0:
            self.flashing = False
            self.draw_leds()

    def draw(self):
        rows = list(self.screen().rows(self))
        if self.message is not None:
            rows[view.ROWS - 1] = view.fit(self.message, view.COLS)
        self.screen_rows = rows
        self.display.show(rows)
        self.draw_leds()
        self.dirty = False

    def draw_leds(self):
        if self.flashing:
            for i in range(PIXELS):
                self.leds[i] = view.dim(view.RED, 60)
        else:
            self.screen().leds(self, self.leds)
        self.pixels.show(self.leds)

    # ---------------------------------------------------------------- screens
    def screen(self):
        return self.stack[-1]

    def push(self, screen):
        self.stack.append(screen)
        self.dirty = True

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop()
        self.dirty = True

    def replace(self, screen):
        self.stack[-1] = screen
        self.dirty = True

    def reset_to(self, screen):
        self.stack = [screen]
        self.dirty = True

    def changed(self):
        self.dirty = True

    def show_game(self):
        self.reset_to(registry.screens(self.mode).GameScreen(self))

    # --------------------------------------------------------------- messages
    def tr(self, key):
        return self.texts.get(key, key)

    def say(self, key, error=False):
        """A message on the bottom row for a moment; an error also flashes the ring red."""
        self.message = self.tr(key)
        self.message_until = self.now + MESSAGE_MS
        if error:
            self.flashing = True
            self.flash_until = self.now + FLASH_MS
        self.dirty = True

    def refuse(self, reason):
        self.say("r." + reason, error=True)

    def set_language(self, code, save=True):
        if code not in lang.CODES:
            code = "en"
        self.texts = lang.load(code, self.language)
        self.language = code
        self.dirty = True
        if save:
            self.mark_unsaved()

    # ------------------------------------------------------------ game state
    def start_game(self, mode, state):
        self.engine = Engine(registry.rules(mode), state)
        self.mode = mode
        self.mark_unsaved()
        self.show_game()

    def act(self, action):
        """Apply an action through the reducer; a refusal is shown, never silent."""
        reason = self.engine.apply(action) if self.engine is not None else "bad_action"
        if reason is not None:
            self.refuse(reason)
            return False
        self.mark_unsaved()
        self.dirty = True
        return True

    def undo(self):
        if self.engine is not None and self.engine.undo():
            self.say("undone")
            self.mark_unsaved()
        else:
            self.refuse("nothing_to_undo")

    def redo(self):
        if self.engine is not None and self.engine.redo():
            self.say("redone")
            self.mark_unsaved()
        else:
            self.refuse("nothing_to_redo")

    # ----------------------------------------------------------------- saving
    def mark_unsaved(self):
        if not self.unsaved:
            self.unsaved = True
            self.unsaved_since = self.now

    def autosave(self, now):
        if not self.unsaved or self.store.nvm is None:
            return
        if self.store.writes and ticks_diff(now, self.last_write) < MIN_GAP_MS:
            return
        quiet = ticks_diff(now, self.last_input) >= QUIET_MS
        if quiet or ticks_diff(now, self.unsaved_since) >= MAX_UNSAVED_MS:
            self.save(now)

    def save(self, now):
        meta = {"lang": self.language, "mode": self.mode, "base": None}
        log = []
        if self.engine is not None:
            meta["base"] = self.engine.base
            log = self.engine.log
        payload = persist.encode_payload(meta, log)
        if self.engine is not None and not self.store.fits(payload):
            # keep the game, drop the undo history from the save
            meta["base"] = self.engine.state
            payload = persist.encode_payload(meta, [])
        if not self.store.save(payload):
            self.say("r.save_failed", error=True)
        self.unsaved = False
        self.last_write = now

    # ---------------------------------------------------------------- recovery
    def recover(self, error, now):
        """After an exception in step(): keep the game, show a short code, carry on."""
        code = "%04X" % crc16(repr(error).encode())
        self.gestures.release_all()
        self.message = None
        self.flashing = False
        if self.engine is not None:
            try:
                self.engine.recover()
                self.show_game()
            except Exception:
                self.engine = self.mode = None
                self.reset_to(HomeScreen())
        else:
            self.reset_to(HomeScreen())
        self.push(ErrorScreen(code, now))
        return code

    def snapshot(self):
        """The rule-core state as JSON-able data (simulator --state, tests)."""
        engine = self.engine
        return {
            "mode": self.mode,
            "language": self.language,
            "state": engine.state if engine else None,
            "undo": len(engine.log) if engine else 0,
            "redo": len(engine.redo_log) if engine else 0,
            "nvm_writes": self.store.writes,
            "screen": type(self.screen()).__name__,
        }


def main():
    """The device's loop (the simulator runs it too, through code.py)."""
    global current
    from potager.hw import board_io

    io = board_io.BoardIO()
    try:
        current = App(io.display, io.pixels, io.buttons, io.nvm, io.now())
    except Exception as error:  # never a dead device: run without the save that broke boot
        io.report(error)
        current = App(io.display, io.pixels, io.buttons, None, io.now())
        current.say("save_corrupt", error=True)
    while True:
        try:
            current.step(io.now())
        except Exception as error:
            io.report(error)
            current.recover(error, io.now())
        io.idle()
