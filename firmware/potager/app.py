"""The app: rule core, screens and hardware wired together, advanced one step at a time.

``App`` imports nothing from the hardware world: the simulator, the tests and MicroPython
drive it with any objects that have the adapters' methods (``buttons.poll()`` and ``sample()``,
``display.show(rows)``, ``pixels.show(leds)``, a bytearray-like ``nvm``). Only ``main()``
opens the real hardware, and it is the only loop.
"""

import gc
import sys

from potager import lang
from potager.core import keys, persist, registry
from potager.core.clock import CHECKPOINT_MS, OVERTIME, Clock, warning_stage
from potager.core.compat import const
from potager.core.crc import crc16
from potager.core.engine import Engine
from potager.core.gestures import Gestures, since, ticks_diff
from potager.power import ASLEEP, AWAKE, Power
from potager.saving import Saving
from potager.ui import view
from potager.ui.screens import ErrorScreen, HomeScreen, LanguageScreen

MESSAGE_MS = const(2500)
FLASH_MS = const(250)
BLINK_MS = const(1000)  # the active seat's rhythm: on for BLINK_ON_MS of every BLINK_MS
BLINK_ON_MS = const(700)
FAST_BLINK_MS = const(250)  # overtime
PIXELS = const(12)
BOOT_KEY_MS = const(600)  # BACK pressed this soon after the keys are scanned: the safe menu
# Less heap free than this after a frame: collected then (prefetch). The emulated Pico
# collects by itself while ~40 KB are still reported free; a key's step allocates up to ~14 KB.
TIDY_BYTES = const(56 * 1024)
# The device's clock, App.hx: one list, the shape the export (core.history_lines) and the
# save's clock (Saving.clock) read; its places (private: folded by the compiler, free)
_HX_SESSION = const(1)  # power session, counted in the save
_HX_UPTIME = const(2)  # whole seconds since boot
_HX_START_PLAYER = const(3)  # of the game in progress
_HX_GAME_START = const(4)  # the uptime at its start (a paused table's seconds added)
_HX_TICKS = const(5)  # the ticks of the last whole second

current = None  # the running App, for the simulator and the REPL


class App:
    def __init__(self, display, pixels, buttons, nvm, now=0, system=None, sound=None):
        self.system = system  # board_id(), version(), mem_free(); None off the board
        self.sound = sound  # start(hz), stop(); None: no piezo
        self.beep_until = None
        self.stage = 0  # the turn countdown's warning stage (core.clock)
        self.display = display
        self.pixels = pixels
        self.buttons = buttons
        self.saving = Saving(nvm, now)
        self.store = self.saving.store
        self.gestures = Gestures(keys.COUNT)
        self.leds = [0] * PIXELS
        self.screen_rows = [""] * view.ROWS
        self.stack = []
        self.engine = None
        self.mode = None
        self.language = "en"
        self.texts = lang.Texts([])
        self.now = now
        self.message = None
        self.shown = None
        self.message_until = 0
        self.flash_until = 0
        self.flashing = False
        self.blink_on = True
        self.fast_blink_on = True
        self.second = -1
        self.round_second = -1
        self.seen_revision = -1
        self.clock = Clock(now)
        self.power = Power()
        self.history = []  # finished games (core.history records)
        self.records = {}  # per mode, kept across games and power cycles (e.g. personal bests)
        self.roster = None  # the names of players.txt, read by the first setup (potager.roster)
        # The device has no clock; for the history (core.history) and its export, one list:
        # [device id, power session (counted in the save), whole seconds since boot, start
        # player of the game in progress, the uptime at its start, the ticks of the last whole
        # second] (_HX_* above). Its fields as attributes would cost 6 qstrs, 288 bytes of
        # heap (CircuitPython's 32-bit VM): not for RAM, it stays a list for its readers.
        self.hx = [self.system.uid() if hasattr(self.system, "uid") else "", 1, 0, 0, 0, now]
        # When the keys began to be scanned (main() sets it: power-on); the safe menu's window
        # is measured from there with the keys' own times, however long boot() takes. None
        # once it has closed.
        self.boot_at = now
        self.swallow = -1  # the key that woke the device: its gesture is not acted on
        self.dirty = True
        self.fetch = -1  # after a drawing: the next of the screen's upcoming modules to load
        self.absent = []  # the upcoming modules that failed to import: not tried again
        self.last_input = now
        # Keys pressed while a resumed game was coming back were typed blind: dropped (their
        # releases too: `early`, a bit a key) and said on its first frame. `blind`: True until
        # that frame is drawn, then the time of its step (keys stamped before it, read in the
        # next step, were typed before it), None after that step.
        self.blind = None
        self.early = 0
        self.boot(now)
        if self.engine is not None:
            self.blind = True

    # ----------------------------------------------------------------- start-up
    def boot(self, now):
        from potager.core import scan  # only a boot reads the journal: its code leaves RAM

        status, problem = scan.load(self.store), None
        del scan  # nothing holds the module once forgotten: its RAM back before the restore
        registry.forget("potager.core.scan")
        if status == persist.OK:  # checked by modules imported only then, and forgotten (RAM)
            try:
                problem = registry.load("potager.restore_game").boot(self, now)
            except Exception:  # whatever a save holds, the device starts
                self.engine = self.mode = None
                self.history, self.records = [], {}
                status, problem = persist.CORRUPT, None
            registry.forget("potager.restore_game")
            registry.forget("potager.restore_check")
            registry.forget("potager.core.table_check")  # checked: its RAM back to the game
            gc.collect()
            if problem is not None and problem[0] is None:
                status, problem = persist.CORRUPT, None  # not one snapshot could be trusted
        if status != persist.OK:
            self.set_language("en", save=False)
            if status != persist.BLANK:  # which says nothing: a new device or a cut in an erase
                problem = ("save" + str(status), 0)  # texts save2..save5
        if self.store.nvm is None:
            problem = ("no_nvm", 0)
        if self.engine is not None:
            self.show_game()
            self.stack[0].select(self, self.saving.view)  # the cursor where the save left it
        else:
            self.reset_to(HomeScreen())
            if status in (persist.BLANK, persist.TORN) and self.store.nvm is not None:
                self.push(LanguageScreen())  # nothing to resume: the language is not known
        if problem is not None:
            text = self.tr(problem[0])
            if text == problem[0]:  # the texts of the save checks: loaded only to be said
                name = "potager.lang.fr_save" if self.language == "fr" else "potager.lang.en_save"
                text = lang.Texts([lang.take(name)]).get(text, text)
            self.say(text.replace("#", str(problem[1])), error=True)

    # ------------------------------------------------------------------ the loop
    def step(self, now):
        """One pass of the main loop: input, timers, drawing, saving. Idle: allocates nothing."""
        self.now = now
        hx = self.hx
        seconds = ticks_diff(now, hx[_HX_TICKS]) // 1000
        if seconds > 0:
            hx[_HX_UPTIME] += seconds
            if self.clock.paused and self.engine is not None:
                hx[_HX_GAME_START] += seconds  # a paused table is not playing: not in its duration
            hx[_HX_TICKS] = (hx[_HX_TICKS] + seconds * 1000) % 0x20000000  # ticks wrap at 2**29
        # Stored times never age past 2**27 ms (37 h), so every tick difference stays valid
        # after days of uptime (ticks_diff holds within 2**28 ms, 74.6 h).
        self.last_input = since(now, self.last_input)
        clock = self.clock
        self.saving.last_write = since(now, self.saving.last_write)
        clock.turn_start = since(now, clock.turn_start)
        clock.round_start = since(now, clock.round_start)
        clock.paused_at = since(now, clock.paused_at)
        event = self.buttons.poll()
        while True:
            # Gestures go by the keys' own times (keypad stamps them at its scan), not by when
            # a busy step reads them: first the holds and repeats due before this event.
            ms = now if event is None else event.timestamp
            due = self.gestures.poll(ms)
            while due is not None:
                if due[0] != self.swallow:
                    self.last_input = now
                    self.screen().on_key(self, due[0], due[1])
                due = self.gestures.poll(ms)
            if event is None:
                break
            self.last_input = now
            key = event.key_number
            if event.pressed and self.power.state != AWAKE:
                if self.power.state == ASLEEP:
                    self.swallow = key  # the key that wakes a dark device does nothing else
                self.wake()
            boot = self.boot_at
            if (
                event.pressed
                and key == keys.BACK
                and boot is not None
                and ticks_diff(ms, boot) < BOOT_KEY_MS
            ):
                self.swallow = key
                self.push(registry.load("potager.ui.system").SafeScreen())
            elif (
                event.pressed
                and self.blind is not None
                and (self.blind is True or ticks_diff(ms, self.blind) < 0)
            ):
                self.early |= 1 << key  # typed blind: dropped, and its release with it
                if self.message is None:  # (a message of the boot's says more)
                    self.say("r.keys_early")
                event = self.buttons.poll()
                continue
            elif not event.pressed and self.early >> key & 1:
                self.early &= ~(1 << key)
                event = self.buttons.poll()
                continue
            if getattr(self.screen(), "RAW_KEYS", False):
                self.screen().raw_key(self, key, event.pressed)
            kind = self.gestures.feed(key, event.pressed, ms)
            if kind and key != self.swallow:
                self.screen().on_key(self, key, kind)
            if not event.pressed and key == self.swallow:
                self.swallow = -1
            event = self.buttons.poll()
        if self.boot_at is not None and ticks_diff(now, self.boot_at) >= BOOT_KEY_MS:
            self.boot_at = None  # the queue up to now is read: the window is over for good
        if self.blind is not True:
            self.blind = None  # the keys typed before the first frame are all read
        if self.engine is not None and self.engine.revision != self.seen_revision:
            self.changed()
        self.screen().tick(self, now)
        self.update_timers(now)
        self.update_power(now)
        drawing = self.dirty and self.power.state != ASLEEP
        if drawing:
            self.draw()
            self.buttons.sample()  # an encoder's detent made during the frame is dated by it
            if self.blind is True:
                self.blind = now  # the resumed game's first frame is out (see __init__)
        if self.saving.due(now, self.last_input) and not self.saving.write(self, now):
            self.say("r.save_failed", error=True)
        if self.fetch >= 0 and not drawing and True not in self.gestures.is_down:
            self.prefetch()  # in a step of its own: a key read meanwhile waits only for it

    def prefetch(self):
        """Load one module the screen on top may open next (``Screen.upcoming``), once its
        frame is out and no key is down: the screen change that needs the module then draws
        without loading it (40-90 ms on the board, from .mpy), and the load falls while the
        player reads the screen. A key pressed during the load waits for it."""
        names = self.screen().upcoming(self)
        while 0 <= self.fetch < len(names):
            name = names[self.fetch]
            self.fetch += 1
            if name in sys.modules or name in self.absent:
                continue
            gc.collect()
            if not registry.roomy():
                self.fetch = -1
                return  # loaded when needed: the heap left is the game's (just collected)
            try:
                __import__(name)  # (registry.load, without a second collection)
            except ImportError:  # e.g. a mode without texts of its own
                self.absent.append(name)
                continue
            except MemoryError:
                break
            return
        self.fetch = -1
        # Nothing left to load: a heap nearly full is collected now, while the player reads,
        # not in the next key's step (a collection costs the board 10-15 ms in whichever step
        # finds the heap full).
        if hasattr(gc, "mem_free") and gc.mem_free() < TIDY_BYTES:
            gc.collect()

    def warn(self, now):
        # A beep when a clock enters a new warning stage (higher, then longer): the turn
        # countdown, the active player's bank (run out: overtime), the round timer.
        if self.engine is None:
            return
        state = self.engine.state
        clock = self.clock
        stage = 0
        if state["tt"]:
            stage = warning_stage(clock.turn_left(now, state), state["tt"])
        if state["tb"]:
            stage = max(stage, warning_stage(clock.bank_left(now, state), state["tb"]))
        if state["rt"]:
            stage = max(stage, warning_stage(clock.round_left(now, state), state["rt"]))
        if stage > self.stage:
            self.beep(1000 + 500 * stage, 400 if stage == OVERTIME else 100)
        self.stage = stage

    def beep(self, frequency, ms):
        """A short tone, if there is a piezo and beeps are on; stopped by update_timers."""
        if self.sound is not None and self.power.settings["beep"]:
            self.sound.start(frequency)
            self.beep_until = self.now + ms

    def update_timers(self, now):
        if self.beep_until is not None and ticks_diff(now, self.beep_until) >= 0:
            self.beep_until = None
            self.sound.stop()
        blink = now % BLINK_MS < BLINK_ON_MS
        fast = now % (2 * FAST_BLINK_MS) < FAST_BLINK_MS
        if blink != self.blink_on or fast != self.fast_blink_on:
            self.blink_on = blink
            self.fast_blink_on = fast
            if self.power.state != ASLEEP:
                self.draw_leds()
        if self.timers_shown():
            if not self.clock.paused and ticks_diff(now, self.saving.last_write) >= CHECKPOINT_MS:
                self.mark_unsaved()  # a clock checkpoint: the save keeps where the clocks stand
            # the clocks on screen count from the start of the turn and of the round
            turn, round_ = self.clock.turn_ms(now) // 1000, self.clock.round_ms(now) // 1000
            if turn != self.second or round_ != self.round_second:
                self.second = turn
                self.round_second = round_
                self.dirty = True
                self.warn(now)
        if self.message is not None and ticks_diff(now, self.message_until) >= 0:
            self.message = self.shown = None  # (a screen kept would keep its module's RAM)
            self.dirty = True
        if self.flashing and ticks_diff(now, self.flash_until) >= 0:
            self.flashing = False
            self.draw_leds()

    def draw(self):
        screen = self.screen()
        if self.message is not None:
            # a message belongs to the screen it was first shown on: gone with it
            if self.shown is None:
                self.shown = screen
            elif self.shown is not screen:
                self.message = self.shown = None
        rows = list(screen.rows(self))
        if self.message is not None:
            # on the bottom row, unless it holds the cursor or a player (4 players): the top
            row = rows[view.ROWS - 1]
            player = row[1:2] != "" and row[1:2] in view.SYMBOLS  # (named or not)
            rows[0 if row[:1] == view.CURSOR or player else view.ROWS - 1] = view.fit(
                self.message, view.COLS
            )
        self.screen_rows = rows
        self.display.show(rows)
        self.fetch = 0
        self.draw_leds()
        self.dirty = False

    def draw_leds(self):
        if self.flashing:
            for i in range(PIXELS):
                self.leds[i] = view.dim(view.RED, 60)
        else:
            self.screen().leds(self, self.leds)
        level = self.power.ring_level()
        if level < 255:
            for i in range(PIXELS):
                self.leds[i] = view.dim(self.leds[i], level)
        self.pixels.show(self.leds)

    def leds_changed(self):
        if self.power.state != ASLEEP:
            self.draw_leds()

    def timers_shown(self):
        if self.engine is None:
            return False
        state = self.engine.state
        return state["tt"] or state["tb"] or state["rt"]

    # ----------------------------------------------------------------- power
    def update_power(self, now):
        before = self.power.state
        after = self.power.update(now, self.last_input)
        if after == before:
            return
        if after == ASLEEP:
            self.display.sleep()
            for i in range(PIXELS):
                self.leds[i] = 0
            self.pixels.show(self.leds)
        else:
            self.draw_leds()

    def wake(self):
        if self.power.state == ASLEEP:
            self.display.wake()
        self.power.state = AWAKE
        self.dirty = True

    def change_setting(self, key, delta):
        if not self.power.change(key, delta):
            self.refuse("setting_limit")
            return
        self.saving.settings = 1  # the next record carries the settings
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
        # Redraw; after an action, an undo or a redo (from any screen): the clocks follow
        # the turn, and the game screen's cursor the active player (its follow()).
        self.dirty = True
        engine = self.engine
        if engine is not None and engine.revision != self.seen_revision:
            self.seen_revision = engine.revision
            self.clock.follow(engine.state, self.now)
            follow = getattr(self.stack[0], "follow", None)
            if follow is not None:
                follow(self)

    def show_game(self):
        self.load_texts(self.mode)
        self.reset_to(registry.screens(self.mode).GameScreen(self))

    # --------------------------------------------------------------- messages
    def tr(self, key):
        return self.texts.get(key, key)

    def say(self, key, error=False):
        """A message on the bottom row for a moment; an error also flashes the ring red."""
        self.message = self.tr(key)
        self.shown = None  # the screen on top at the next drawing
        self.message_until = self.now + MESSAGE_MS
        if error:
            self.flashing = True
            self.flash_until = self.now + FLASH_MS
        self.dirty = True

    def refuse(self, reason):
        self.say("r." + reason, error=True)

    def load_texts(self, mode):
        """The shared texts plus those of `mode` (its setup and game screens)."""
        self.texts = lang.load(self.language, mode, self.texts)
        self.dirty = True

    def set_language(self, code, save=True):
        if code not in lang.CODES:
            code = "en"
        self.texts = lang.load(code, self.mode, self.texts)
        self.language = code
        self.dirty = True
        if save:
            self.saving.settings = 1
            self.mark_unsaved()

    # ------------------------------------------------------------ game state
    def start_game(self, mode, state):
        registry.forget("potager.ui.setup")  # the form's RAM goes to the game
        self.hx[_HX_START_PLAYER] = state["act"]
        self.hx[_HX_GAME_START] = self.hx[_HX_UPTIME]
        self.clock = Clock(self.now)  # the first turn starts now, not during the setup
        registry.forget("potager.ui.table_setup")  # the setup's fields: RAM to the game
        registry.forget("potager.core.table_check")  # (the new state checked)
        registry.forget("potager.core.games.%s_check" % mode)  # (HORTIS's, kept apart)
        self.seen_revision = -1
        self.engine = Engine(registry.rules(mode), state)
        self.mode = mode
        self.mark_unsaved()
        self.show_game()  # (with the mode's texts)

    def close_game(self, screen):
        """The game in progress is dropped (after the players confirmed)."""
        mode = self.mode
        saved = self.records.get("last_setups")  # (potager.ui.setup)
        if (
            self.engine is not None
            and isinstance(saved, dict)
            and isinstance(saved.get(mode), list)
        ):
            # the next setup of this mode keeps these table settings
            state = self.engine.state
            saved[mode][1] = [state[key] for key in ("dir", "rot", "lap", "tt", "tb", "inc", "rt")]
        self.engine = self.mode = self.shown = None
        self.saving.engine = 0  # not None: the save must record the end; and the game's RAM goes
        self.mark_unsaved()
        self.saving.urgent = True  # discarded or filed: at once, a cut cannot bring it back
        self.reset_to(screen)
        if mode is not None:
            registry.unload(mode)  # its modules' RAM goes back to the next game
            self.load_texts(None)
            gc.collect()

    def finish_game(self, totals, winners, parts=None, reason=None, turns=True):
        """A finished game goes into the history; the results are shown: per player `parts`
        (where the points came from, the mode's words), the tie-break rule `reason` (a text
        the mode translated), the table statistics if the game went in `turns`."""
        if self.engine is None:
            return
        state = self.engine.state
        # the name the history files it under (registry FILED: HORTIS's Automne, Grove)
        filed = registry.entry(self.mode)[registry.FILED]
        mode = filed[registry.screens(self.mode).filed(state) if len(filed) > 1 else 0]
        hx = self.hx  # the start player, the duration, the session and the uptime now
        i = len(self.history) + 1
        registry.load("potager.core.history").add(
            self.history,
            mode,
            state["col"],
            totals,
            winners,
            state.get("names"),  # chosen at setup (potager.ui.setup)
            [
                hx[_HX_START_PLAYER],
                hx[_HX_UPTIME] - hx[_HX_GAME_START],
                hx[_HX_SESSION],
                hx[_HX_UPTIME],
            ],
        )
        i -= len(self.history)  # games dropped: past the count kept, then to fit the NVM
        i += self.saving.room(self.history)
        self.close_game(HomeScreen())
        results = registry.load("potager.ui.results").ResultsScreen
        self.push(results(state, totals, winners, parts, reason, turns))
        if i:  # the oldest games made room: never silently
            self.say(self.tr("h.dropped").replace("#", str(i)))

    def act(self, action):
        """Apply an action through the reducer; a refusal is shown, never silent."""
        # (a list of actions: one undo step)
        reason = self.engine.apply(action) if self.engine is not None else "bad_action"
        if reason is not None:
            self.refuse(reason)
            return False
        self.mark_unsaved()
        self.changed()
        return True

    def undo(self, redo=False):
        # the message says what was undone (or redone): potager.ui.undo, imported for it
        done = registry.load("potager.ui.undo").step(self, redo)
        registry.forget("potager.ui.undo")
        if done:
            self.mark_unsaved()
            self.changed()
        else:
            self.refuse("nothing_to_redo" if redo else "nothing_to_undo")

    def redo(self):
        self.undo(True)

    def mark_unsaved(self):
        self.saving.mark(self.now)

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
    """The device's loop (the simulator runs it too, through code.py). Nothing ends it: a
    part of the board that fails is stood in for, an exception in a step is recovered from,
    and one that escapes even that starts the app again from the save."""
    global current
    from potager.hw import board_io

    io = board_io.BoardIO()
    while True:
        try:
            try:
                current = App(io.display, io.pixels, io.buttons, io.nvm, io.now(), io, io.sound)
            except Exception as error:  # never a dead device: run without the save that broke boot
                io.report(error)
                current = App(io.display, io.pixels, io.buttons, None, io.now(), io, io.sound)
                current.say("save2", error=True)
            # the safe menu's window opened when the keys began to be scanned (power-on)
            current.boot_at = getattr(io.buttons, "since", current.boot_at)
            while True:
                try:
                    current.step(io.now())
                except Exception as error:
                    io.report(error)
                    current.recover(error, io.now())
                io.idle()
        except Exception as error:
            io.report(error)
            io.idle()
