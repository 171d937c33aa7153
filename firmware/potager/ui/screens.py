"""The screens' base classes and the few screens every path needs: home, language,
confirm, error. The others are imported when first opened (RAM: the board compiles .py).

A screen turns gestures into actions or navigation (``on_key``) and draws itself as rows of
text (``rows``) and ring colours (``leds``), both pure functions of the app's state.
"""

import sys

from potager.core import keys, registry
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
            app.push(registry.load("potager.ui.menu").HelpScreen(self.HELP))
        elif key == keys.BACK and kind == SHORT:
            app.pop()

    def tick(self, app, now):
        """Called every loop: must not allocate (the idle loop allocates nothing)."""

    def upcoming(self, app):
        """The modules this screen's keys will likely need next, loaded between keys
        (``App.prefetch``); called a few times after each drawing, not in the idle loop."""
        return ()

    def rows(self, app):
        return [" " * COLS] * view.ROWS

    def leds(self, app, out):
        for i in range(len(out)):
            out[i] = 0


class ListScreen(Screen):
    """A titled list: UP/DOWN move, OK chooses, BACK leaves."""

    HELP = (("↑↓", "h.move"), ("OK", "h.choose"), ("BACK", "h.back"))

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
        out.append(("history", None))
        out.append(("settings", None))
        return out

    def title(self, app):
        return "Potager"

    def hovered(self, app):
        """The mode under the cursor, when no game is in progress (else None)."""
        kind, key = self.entries(app)[self.cursor]
        return key if kind == "mode" and app.engine is None else None

    def upcoming(self, app):
        names = ["potager.ui.setup", "potager.lang.%s_setup" % app.language]
        key = self.hovered(app)
        if key is not None:  # the mode under the cursor: its screens, rules and texts, and
            # the setup's table fields (the game lets them go)
            mode = registry.entry(key)
            names.append(mode[registry.SCREENS])
            if mode[registry.TEXTS]:
                names.append("potager.lang.%s_%s" % (app.language, mode[registry.TEXTS]))
            names.append("potager.ui.table_setup")
        return names

    def items(self, app):
        out = []
        for kind, key in self.entries(app):
            if kind == "resume":
                out.append(app.tr("resume"))
            elif kind == "mode":
                out.append(app.tr("m." + key))
            elif kind == "history":
                out.append(app.tr("res.history_home"))
            else:
                out.append(app.tr("settings"))
        return out

    def choose(self, app, index):
        kind, key = self.entries(app)[index]
        if kind == "resume":
            app.show_game()
        elif kind == "mode":
            if app.engine is None:
                app.push(registry.load("potager.ui.setup").SetupScreen(app, key))
            else:
                app.push(ConfirmScreen("q.discard", lambda: new_game(app, key)))
        elif kind == "history":
            app.push(registry.load("potager.ui.history").screen())
        else:
            settings = registry.load("potager.ui.settings")
            app.push(settings.DeviceScreen())

    def on_key(self, app, key, kind):
        if key == keys.BACK and kind == SHORT:
            if app.engine is not None:
                app.show_game()
            return
        ListScreen.on_key(self, app, key, kind)
        if key in (keys.UP, keys.DOWN) and app.engine is None:
            hovered = self.hovered(app)
            for mode in registry.MODES:  # a mode loaded ahead (upcoming) and left: RAM back
                if mode[registry.KEY] != hovered and mode[registry.SCREENS] in sys.modules:
                    registry.unload(mode[registry.KEY])


def new_game(app, mode):
    """The game in progress is dropped at once (a cut cannot bring it back) and the setup of
    `mode` opens over Home: BACK from it goes Home, not to a game that is gone."""
    app.close_game(HomeScreen())
    app.push(registry.load("potager.ui.setup").SetupScreen(app, mode))


class LanguageScreen(ListScreen):
    CODES = ("fr", "en")

    def title(self, app):
        return "Langue / Language"

    def items(self, app):
        return ["Français", "English"]

    def choose(self, app, index):
        app.set_language(self.CODES[index])
        app.pop()


class ConfirmScreen(Screen):
    HELP = (("OK", "h.yes"), ("BACK", "h.no"))

    def __init__(self, question, on_yes):
        self.question = question
        self.on_yes = on_yes

    def on_key(self, app, key, kind):
        if key == keys.OK and kind == SHORT:
            app.pop()
            self.on_yes()
            # confirmed (a discard, an end): saved at once, a cut cannot undo it
            app.saving.urgent = app.saving.unsaved
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        return view.wrap(app.tr(self.question)) + [
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
