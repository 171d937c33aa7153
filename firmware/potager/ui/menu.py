# The game menu and help screens.

from potager.core import keys, registry, table
from potager.core.gestures import SHORT
from potager.ui.screens import ConfirmScreen, HomeScreen, ListScreen, new_game
from potager.ui.view import fit

# the items whose screens have a module of their own
SCREENS = {"table": "potager.ui.table_settings", "stats": "potager.ui.stats"}


class MenuScreen(ListScreen):
    # The game menu: everything that is not a one-key action on the game screen.

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
        "end",
        "new_game",
        "home",
    )

    def __init__(self, game_screen):
        ListScreen.__init__(self)
        self.game_screen = game_screen
        self.entries: list = []  # the items shown

    def title(self, app):
        return app.tr("menu")

    def upcoming(self, app):
        # the screen of the item under the cursor, when it has a module of its own
        item = self.entries[self.cursor] if self.cursor < len(self.entries) else None
        return (SCREENS[item],) if item in SCREENS else ()

    def items(self, app):
        # only what this mode allows now (the game screen says what it does not)
        out = self.game_screen.hidden(app)
        self.entries = [item for item in self.ITEMS if item not in out]
        out = [app.tr(item) for item in self.entries]
        if app.clock.paused and "pause" in self.entries:
            out[self.entries.index("pause")] = app.tr("unpause")
        return out

    def choose(self, app, index):
        item = self.entries[index]
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
            app.mark_unsaved()  # the save keeps the clocks paused or running
            app.pop()
        elif item == "table":
            app.push(registry.load(SCREENS[item]).TableScreen())
        elif item == "stats":
            app.push(registry.load(SCREENS[item]).StatsScreen())
        elif item == "undo":
            app.undo()
        elif item == "redo":
            app.redo()
        elif item in ("round+", "round-"):
            app.act((table.ROUND, 1 if item == "round+" else -1, 0))
        elif item == "help":
            app.push(HelpScreen(self.game_screen.HELP))
        elif item == "end":
            app.push(ConfirmScreen("q.end", lambda: self.game_screen.finish(app)))
        elif item == "new_game":
            mode = app.mode
            app.push(ConfirmScreen("q.discard", lambda: new_game(app, mode)))
        elif item == "home":
            app.reset_to(HomeScreen())


class HelpScreen(ListScreen):
    # The keys of the screen it was opened from.

    def __init__(self, entries):
        ListScreen.__init__(self)
        self.entries = entries

    def title(self, app):
        return app.tr("help.title")

    def items(self, app):
        items = [fit(key, 5) + app.tr(text) for key, text in self.entries]
        if getattr(app.system, "dial", False):  # the MacroPad: its encoder first
            items.insert(0, app.tr("h.knob"))
        return items

    def on_key(self, app, key, kind):
        if key == keys.OK and kind == SHORT:
            app.pop()
            return
        ListScreen.on_key(self, app, key, kind)
