"""Screens shared by every mode: home, setup, game menu, help, confirm, language, error.

A screen turns gestures into actions or navigation (``on_key``) and draws itself as rows of
text (``rows``) and ring colours (``leds``), both pure functions of the app's state.
"""

from potager.core import keys, registry, table
from potager.core.gestures import LONG, SHORT, ticks_diff
from potager.ui import view
from potager.ui.view import COLS, fit, menu_rows


class Screen:
    # (key label, text key) pairs shown by the help screen
    HELP: tuple = ()
    # redraw every this many ms (timers, blinking); 0: only when something changes
    TICK_MS = 0

    def on_key(self, app, key, kind):
        if key == keys.OK and kind == LONG:
            app.push(HelpScreen(self.HELP))
        elif key == keys.BACK and kind == SHORT:
            app.pop()

    def tick(self, app, now):
        """Called every loop: must not allocate (the idle loop allocates nothing)."""

    def rows(self, app):
        return [" " * COLS] * view.ROWS

    def leds(self, app, out):
        for i in range(len(out)):
            out[i] = 0


class ListScreen(Screen):
    """A titled list: UP/DOWN move, OK chooses, BACK leaves."""

    HELP = (("▲▼", "h.move"), ("OK", "h.choose"), ("BACK", "h.back"))

    def __init__(self):
        self.cursor = 0

    def title(self, app):
        return ""

    def items(self, app):
        return []

    def choose(self, app, index):
        pass

    def on_key(self, app, key, kind):
        count = len(self.items(app))
        if key == keys.UP and count:
            self.cursor = (self.cursor - 1) % count
        elif key == keys.DOWN and count:
            self.cursor = (self.cursor + 1) % count
        elif key == keys.OK and kind == SHORT and count:
            self.choose(app, self.cursor)
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        return menu_rows(self.title(app), self.items(app), self.cursor)


class HomeScreen(ListScreen):
    """Choose a mode; resume the game in progress; language."""

    def entries(self, app):
        out = []
        if app.engine is not None:
            out.append(("resume", None))
        for key in registry.names():
            out.append(("mode", key))
        out.append(("settings", None))
        return out

    def title(self, app):
        return "Potager"

    def items(self, app):
        out = []
        for kind, key in self.entries(app):
            if kind == "resume":
                out.append(app.tr("resume") + " " + app.tr("m." + app.mode))
            elif kind == "mode":
                out.append(app.tr("m." + key))
            else:
                out.append(app.tr("settings"))
        return out

    def choose(self, app, index):
        kind, key = self.entries(app)[index]
        if kind == "resume":
            app.show_game()
        elif kind == "mode":
            if app.engine is None:
                app.push(SetupScreen(app, key))
            else:
                app.push(ConfirmScreen("q.discard", lambda: app.replace(SetupScreen(app, key))))
        else:
            from potager.ui import settings

            app.push(settings.DeviceScreen())

    def on_key(self, app, key, kind):
        if key == keys.BACK and kind == SHORT:
            if app.engine is not None:
                app.show_game()
            return
        ListScreen.on_key(self, app, key, kind)


class LanguageScreen(ListScreen):
    CODES = ("fr", "en")

    def title(self, app):
        return "Langue / Language"

    def items(self, app):
        return ["Français", "English"]

    def choose(self, app, index):
        app.set_language(self.CODES[index])
        app.pop()


class SetupScreen(Screen):
    """A mode's setup form; the mode's screen module describes the fields."""

    HELP = (("▲▼", "h.field"), ("◄►", "h.change"), ("OK", "h.start"), ("BACK", "h.back"))

    def __init__(self, app, mode):
        self.mode = mode
        app.load_texts(mode)
        self.ui = registry.screens(mode)
        self.values = self.ui.default_setup()
        self.cursor = 0

    def lines(self, app):
        return self.ui.setup_fields(app, self.values) + [(app.tr("start"), "")]

    def on_key(self, app, key, kind):
        count = len(self.lines(app))
        if key == keys.UP and kind == SHORT:
            self.cursor = (self.cursor - 1) % count
        elif key == keys.DOWN and kind == SHORT:
            self.cursor = (self.cursor + 1) % count
        elif key in (keys.LEFT, keys.RIGHT) and self.cursor < count - 1:
            reason = self.ui.setup_change(self.values, self.cursor, 1 if key == keys.RIGHT else -1)
            if reason is not None:
                app.refuse(reason)
        elif key == keys.OK and kind == SHORT:
            if self.cursor < count - 1:
                self.cursor = count - 1  # OK on a field jumps to Start
            else:
                app.start_game(self.mode, self.ui.new_state(self.values))
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        items = []
        for label, value in self.lines(app):
            items.append(view.split(label, value + " ", COLS - 1) if value else label)
        return menu_rows(app.tr("m." + self.mode), items, self.cursor)


class MenuScreen(ListScreen):
    """The game menu: everything that is not a one-key action on the game screen."""

    ITEMS = (
        "resume",
        "undo",
        "redo",
        "pass",
        "skip",
        "pause",
        "table",
        "stats",
        "round+",
        "round-",
        "help",
        "new_game",
        "home",
    )

    def __init__(self, game_screen):
        ListScreen.__init__(self)
        self.game_screen = game_screen

    def title(self, app):
        return app.tr("menu")

    def items(self, app):
        out = [app.tr(item) for item in self.ITEMS]
        if app.clock.paused:
            out[self.ITEMS.index("pause")] = app.tr("unpause")
        return out

    def choose(self, app, index):
        item = self.ITEMS[index]
        if item == "resume":
            app.pop()
        elif item in ("pass", "skip"):
            op = table.PASS if item == "pass" else table.SKIP
            if app.act((op, app.clock.turn_seconds(app.now), 0)):
                app.pop()
        elif item == "pause":
            if app.clock.paused:
                app.clock.resume(app.now)
            else:
                app.clock.pause(app.now)
            app.pop()
        elif item in ("table", "stats"):
            from potager.ui import settings

            app.push(settings.TableScreen() if item == "table" else settings.StatsScreen())
        elif item == "undo":
            app.undo()
        elif item == "redo":
            app.redo()
        elif item in ("round+", "round-"):
            app.act((table.ROUND, 1 if item == "round+" else -1, 0))
        elif item == "help":
            app.push(HelpScreen(self.game_screen.HELP))
        elif item == "new_game":
            mode = app.mode
            app.push(ConfirmScreen("q.discard", lambda: app.reset_to(SetupScreen(app, mode))))
        elif item == "home":
            app.reset_to(HomeScreen())


class HelpScreen(ListScreen):
    """The keys of the screen it was opened from."""

    def __init__(self, entries):
        ListScreen.__init__(self)
        self.entries = entries

    def title(self, app):
        return app.tr("help")

    def items(self, app):
        return [fit(key, 5) + app.tr(text) for key, text in self.entries]

    def on_key(self, app, key, kind):
        if key == keys.OK and kind == SHORT:
            app.pop()
            return
        ListScreen.on_key(self, app, key, kind)


class ConfirmScreen(Screen):
    HELP = (("OK", "h.yes"), ("BACK", "h.no"))

    def __init__(self, question, on_yes):
        self.question = question
        self.on_yes = on_yes

    def on_key(self, app, key, kind):
        if key == keys.OK and kind == SHORT:
            app.pop()
            self.on_yes()
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        text = app.tr(self.question)
        return [
            fit(text[:COLS], COLS),
            fit(text[COLS:], COLS),
            " " * COLS,
            fit("OK: " + app.tr("yes"), COLS),
            fit("BACK: " + app.tr("no"), COLS),
        ]


class ErrorScreen(Screen):
    """Shown after a caught exception; goes back to the game by itself."""

    SHOW_MS = 3000

    def __init__(self, code, since):
        self.code = code
        self.since = since

    def tick(self, app, now):
        if ticks_diff(now, self.since) >= self.SHOW_MS:
            app.pop()
            app.changed()

    def on_key(self, app, key, kind):
        app.pop()
        app.changed()

    def rows(self, app):
        return [
            fit(app.tr("error") + " " + self.code, COLS),
            fit(app.tr("e.kept"), COLS),
            fit(app.tr("e.restart"), COLS),
            " " * COLS,
            fit(app.tr("e.report"), COLS),
        ]

    def leds(self, app, out):
        for i in range(len(out)):
            out[i] = view.dim(view.RED, 40)
