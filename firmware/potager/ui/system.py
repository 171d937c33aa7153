"""Screens outside any game: the safe menu (BACK held at boot) and the bring-up self-test.
Imported only when used."""

from potager.core import keys
from potager.core.gestures import LONG, ticks_diff
from potager.power import Power
from potager.ui import view
from potager.ui.screens import ConfirmScreen, HomeScreen, ListScreen, Screen
from potager.ui.view import COLS, fit, split


class SafeScreen(ListScreen):
    """Resume, start afresh, test the hardware, or wipe every save."""

    ITEMS = ("resume", "new_game", "selftest", "wipe")

    def title(self, app):
        return app.tr("safe")

    def items(self, app):
        return [app.tr(item) for item in self.ITEMS]

    def choose(self, app, index):
        item = self.ITEMS[index]
        if item == "resume":
            app.pop()
        elif item == "new_game":
            app.push(ConfirmScreen("q.discard", lambda: app.close_game(HomeScreen())))
        elif item == "selftest":
            app.push(SelfTestScreen(app.now))
        else:
            app.push(ConfirmScreen("q.wipe", lambda: wipe(app)))


def wipe(app):
    """Erase every save: game, history, settings."""
    app.store.wipe()
    app.history = []
    app.records = {}
    app.power = Power()
    app.saving.unsaved = False
    app.engine = app.mode = None
    app.reset_to(HomeScreen())
    app.say("wiped")


def check_nvm(store):
    """Program a pattern into erased bytes after the journal and read it back (no erase: the
    saves stay, and the next record goes after the pattern). A full journal is only read."""
    if store.nvm is None:
        return False
    pattern = bytes(range(0x50, 0x60))
    if not store.room(pattern):
        return len(store.nvm[0:16]) == 16
    start = store.end
    store.nvm[start : start + len(pattern)] = pattern
    store.end = start + len(pattern)  # stepped over at the next boot, as a torn record is
    return bytes(store.nvm[start : start + len(pattern)]) == pattern


# the self-test's key row: a letter per key, lit while the key is down
KEY_LETTERS = "UDLROBT"
CHASE = (0xFF0000, 0x00FF00, 0x0000FF)
PATTERN_MS = 1500


class SelfTestScreen(Screen):
    """Everything a wiring fault would show: keys, display pixels, ring, NVM, board, memory.
    Hold BACK to leave."""

    RAW_KEYS = True  # the app hands it every press and release
    TICK_MS = 100
    HELP = (("BACK~", "h.back"),)

    def __init__(self, now):
        self.since = now
        self.down = [False] * keys.COUNT
        self.seen = [False] * keys.COUNT
        self.phase = -1
        self.nvm = None

    def raw_key(self, app, key, pressed):
        self.down[key] = pressed
        self.seen[key] = self.seen[key] or pressed
        if pressed:
            app.beep(2000 + 200 * key, 40)  # the piezo answers every key
        app.changed()

    def on_key(self, app, key, kind):
        if key == keys.BACK and kind == LONG:
            app.pop()
            app.changed()

    def tick(self, app, now):
        if self.nvm is None:
            self.nvm = check_nvm(app.store)
            app.changed()
        phase = ticks_diff(now, self.since) // 100
        if phase != self.phase:
            self.phase = phase
            app.leds_changed()
            if phase * 100 < 2 * PATTERN_MS or phase * 100 < 2 * PATTERN_MS + 100:
                app.changed()

    def rows(self, app):
        elapsed = self.phase * 100
        if elapsed < PATTERN_MS:  # every pixel on: dead pixels and a bad panel show
            return ["█" * COLS] * view.ROWS
        if elapsed < 2 * PATTERN_MS:  # stripes: shorted or swapped lines show
            return ["█▀" * 10 + "█", "▄█" * 10 + "▄"] * 2 + ["█▀" * 10 + "█"]
        system = app.system
        letters = ""
        for key in range(keys.COUNT):
            letters += KEY_LETTERS[key] if self.down[key] else "·" if not self.seen[key] else "○"
        if system is None:  # off the board (tests): nothing to report
            version, board_id, memory = "?", "?", ""
        else:
            version, board_id = system.version(), system.board_id()
            memory = str(system.mem_free() // 1024) + "K"
        return [
            split(app.tr("selftest"), version),
            split(board_id, memory),
            fit("NVM " + app.tr("ok" if self.nvm else "nvm_bad"), COLS),
            fit(app.tr("keys") + " " + letters, COLS),
            fit(app.tr("st.leave"), COLS),
        ]

    def leds(self, app, out):
        for i in range(len(out)):
            out[i] = 0
        lap = self.phase // len(out)
        out[self.phase % len(out)] = view.dim(CHASE[lap % 3], 255)
