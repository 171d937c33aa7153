"""The app: rule core, screens and hardware wired together, advanced one step at a time.

``App`` imports nothing from the hardware world: the simulator, the tests and MicroPython
drive it with any objects that have the adapters' methods (``buttons.poll()``,
``display.show(rows)``, ``pixels.show(leds)``, a bytearray-like ``nvm``). Only ``main()``
opens the real hardware, and it is the only loop.
"""

from potager import lang
from potager.core import keys, persist, registry
from potager.core.clock import Clock
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
FAST_BLINK_MS = const(250)  # overtime
PIXELS = const(12)

# device settings (not part of a game, saved with it): value ranges
SETTINGS = {"bri": (1, 4), "night": (0, 1), "beep": (0, 1), "dim": (0, 30), "sleep": (0, 120)}
DEFAULTS = {"bri": 4, "night": 0, "beep": 1, "dim": 3, "sleep": 15}  # dim, sleep: minutes
NIGHT_LEVEL = const(24)  # out of 255: the ring at night
DIM_LEVEL = const(64)  # the ring after `dim` minutes without a key

current = None  # the running App, for the simulator and the REPL

AWAKE = const(0)
DIMMED = const(1)
ASLEEP = const(2)


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
        self.fast_blink_on = True
        self.second = -1
        self.round_second = -1
        self.seen_revision = -1
        self.clock = Clock(now)
        self.settings = dict(DEFAULTS)
        self.power = AWAKE
        self.swallow = -1  # the key that woke the device: its gesture is not acted on
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
                self.load_settings(meta.get("set"))
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
        self.load_texts(mode)

    # ------------------------------------------------------------------ the loop
    def step(self, now):
        """One pass of the main loop: input, timers, drawing, saving. Idle: allocates nothing."""
        self.now = now
        event = self.buttons.poll()
        while event is not None:
            self.last_input = now
            key = event.key_number
            if event.pressed and self.power != AWAKE:
                if self.power == ASLEEP:
                    self.swallow = key  # the key that wakes a dark device does nothing else
                self.wake()
            kind = self.gestures.feed(key, event.pressed, event.timestamp)
            if kind and key != self.swallow:
                self.screen().on_key(self, key, kind)
            if not event.pressed and key == self.swallow:
                self.swallow = -1
            event = self.buttons.poll()
        due = self.gestures.poll(now)
        if due is not None and due[0] != self.swallow:
            self.last_input = now
            self.screen().on_key(self, due[0], due[1])
        if self.engine is not None and self.engine.revision != self.seen_revision:
            self.seen_revision = self.engine.revision
            self.clock.follow(self.engine.state, now)
        self.screen().tick(self, now)
        self.update_timers(now)
        self.update_power(now)
        if self.dirty and self.power != ASLEEP:
            self.draw()
        self.autosave(now)

    def update_timers(self, now):
        blink = now % BLINK_MS < BLINK_ON_MS
        fast = now % (2 * FAST_BLINK_MS) < FAST_BLINK_MS
        if blink != self.blink_on or fast != self.fast_blink_on:
            self.blink_on = blink
            self.fast_blink_on = fast
            if self.power != ASLEEP:
                self.draw_leds()
        if self.engine is not None and self.timers_shown():
            # the clocks on screen count from the start of the turn and of the round
            turn, round_ = self.clock.turn_ms(now) // 1000, self.clock.round_ms(now) // 1000
            if turn != self.second or round_ != self.round_second:
                self.second = turn
                self.round_second = round_
                self.dirty = True
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
        level = self.ring_level()
        if level < 255:
            for i in range(PIXELS):
                self.leds[i] = view.dim(self.leds[i], level)
        self.pixels.show(self.leds)

    def ring_level(self):
        """The ring's brightness out of 255: setting, night mode, dimmed when idle."""
        if self.settings["night"]:
            level = NIGHT_LEVEL
        else:
            level = self.settings["bri"] * 255 // 4
        if self.power == DIMMED:
            level = min(level, DIM_LEVEL)
        return level

    def timers_shown(self):
        state = self.engine.state
        return state["tt"] or state["tb"] or state["rt"]

    # ----------------------------------------------------------------- power
    def update_power(self, now):
        """Dim after `dim` minutes without a key, sleep after `sleep` (0: never)."""
        idle = ticks_diff(now, self.last_input) // 60000
        dim, sleep = self.settings["dim"], self.settings["sleep"]
        if self.power == AWAKE and dim and idle >= dim:
            self.power = DIMMED
            self.draw_leds()
        if self.power != ASLEEP and sleep and idle >= sleep:
            self.power = ASLEEP
            self.display.sleep()
            for i in range(PIXELS):
                self.leds[i] = 0
            self.pixels.show(self.leds)

    def wake(self):
        if self.power == ASLEEP:
            self.display.wake()
        self.power = AWAKE
        self.dirty = True

    def load_settings(self, saved):
        for key in DEFAULTS:
            lo, hi = SETTINGS[key]
            value = saved.get(key) if isinstance(saved, dict) else None
            ok = isinstance(value, int) and lo <= value <= hi
            self.settings[key] = value if ok else DEFAULTS[key]

    def change_setting(self, key, delta):
        lo, hi = SETTINGS[key]
        value = self.settings[key] + delta
        if not lo <= value <= hi:
            self.refuse("setting_limit")
            return
        self.settings[key] = value
        self.mark_unsaved()
        self.dirty = True

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
        self.load_texts(self.mode)
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

    def load_texts(self, mode):
        """The shared texts plus those of `mode` (its setup and game screens)."""
        self.texts = lang.load(self.language, mode)
        self.dirty = True

    def set_language(self, code, save=True):
        if code not in lang.CODES:
            code = "en"
        self.texts = lang.load(code, self.mode, self.language)
        self.language = code
        self.dirty = True
        if save:
            self.mark_unsaved()

    # ------------------------------------------------------------ game state
    def start_game(self, mode, state):
        self.engine = Engine(registry.rules(mode), state)
        self.mode = mode
        self.load_texts(mode)
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
        meta = {"lang": self.language, "set": self.settings, "mode": self.mode, "base": None}
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
