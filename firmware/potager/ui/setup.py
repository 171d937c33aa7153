"""A mode's setup form; the mode's screen module describes the fields."""

from potager.core import keys, registry
from potager.core.gestures import SHORT
from potager.ui import view
from potager.ui.screens import Screen
from potager.ui.view import COLS, menu_rows


class SetupScreen(Screen):
    HELP = (("↑↓", "h.field"), ("←→", "h.change"), ("OK", "h.start"), ("BACK", "h.back"))

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
            app.start_game(self.mode, self.ui.new_state(self.values))  # from any field
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        items = []
        for label, value in self.lines(app):
            items.append(view.split(label, value + " ", COLS - 1) if value else label)
        return menu_rows(app.tr("m." + self.mode), items, self.cursor)
