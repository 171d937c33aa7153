# Diced Tomatoes: the dice the active player could not place; the next player rolls 3 + that
# many (their screen reminds them). RAM: see potager.ui.diced_tomatoes.

from potager.core import keys
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import SHORT
from potager.core.table import next_in
from potager.ui.diced_tomatoes import label
from potager.ui.screens import Screen
from potager.ui.view import COLS, centre, fit, player_tag


def screen(app, game_screen):
    return Form(app.engine.state)


class Form(Screen):
    HELP = (("←→", "h.change"), ("OK", "dt.help_save_count"), ("BACK", "h.back"))

    def __init__(self, state):
        self.value = state["held"]

    def on_key(self, app, key, kind):
        # SHORT only: the screen opens on a hold of ←, whose repeats must not count
        if key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            v = self.value + (1 if key == keys.RIGHT else -1)
            if 0 <= v <= min(3 + app.engine.state["extra"], 15):
                self.value = v
            else:
                app.refuse("setting_limit" if v < 0 else "dt_more_than_rolled")
        elif key == keys.OK and kind == SHORT:
            if app.act((dt.CARRY, self.value, 0)):
                app.pop()
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        state = app.engine.state
        p = state["act"]
        next_player = player_tag(state, next_in(state, p)) + " "
        return [
            fit(player_tag(state, p) + " " + app.tr("dt.not_placed_title"), COLS),
            " " * COLS,
            centre(label(app, "dt.not_placed_count", self.value), COLS),
            fit(next_player + label(app, "dt.status_rolls", self.value), COLS),
            fit(app.tr("dt.not_placed_hint"), COLS),
        ]
