# Diced Tomatoes: one player's tracks: Karma and thirds of a heart, the six slots, each star's
# bonus (Tomato Dice) or solo match, the total so far. ↑↓ another player. RAM: see
# potager.ui.diced_tomatoes.

from potager.core import keys
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import SHORT
from potager.ui.diced_tomatoes import EMPTY_SLOT, SOLO_MISS, label, mark
from potager.ui.screens import Screen
from potager.ui.view import COLS, fit, player_tag


def screen(app, game_screen):
    return Form(game_screen.cursor)


class Form(Screen):
    HELP = (("↑↓", "dt.help_player"), ("BACK", "h.back"))

    def __init__(self, player):
        self.player = player

    def on_key(self, app, key, kind):
        if key in (keys.UP, keys.DOWN) and kind == SHORT:
            step = 1 if key == keys.DOWN else -1
            self.player = (self.player + step) % app.engine.state["n"]
        elif key == keys.OK and kind == SHORT:
            app.pop()
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        state = app.engine.state
        p = self.player
        h = state["hv"][p]
        opt = state["opt"]
        head = label(app, "dt.detail_karma", player_tag(state, p), state["ka"][p])
        if state["th"][p]:
            head += label(app, "dt.detail_thirds", state["th"][p])
        # row 3: each slot's star bonus (Tomato Dice) or solo match; else the 6th-harvest +2
        bonus = ""
        if opt & 1 or state["n"] == 1:
            bonus = fit(app.tr("dt.detail_bonus" if opt & 1 else "dt.solo_goal"), 7)
            for i in range(6):
                if i >= len(h):
                    bonus += EMPTY_SLOT + " "
                elif opt & 1:
                    bonus += str(7 - h[i] if h[i] == i + 1 else "-") + " "
                else:
                    bonus += ("*" if h[i] == i + 1 else SOLO_MISS) + " "
        elif state["full"] == p:
            bonus = app.tr("dt.detail_trigger")
        total = dt.parts(h, state["ka"][p], state["dv"][p], state["full"] == p, opt)
        return [
            fit(head, COLS),
            fit(app.tr("dt.detail_slot"), 7) + "1 2 3 4 5 6   ",
            fit(app.tr("dt.detail_value"), 7)
            + mark(state, p).replace("*", " ").replace(SOLO_MISS, " ")
            + "  ",
            fit(bonus, COLS),
            fit(label(app, "dt.detail_so_far", sum(total[:5])), COLS),
        ]
