# Diced Tomatoes: the harvest form. A vine of 4 dice: its seed die, black dice and (Golden Sun)
# gold dice; the bottom row shows what OK would do: the value, a star, the Karma gained, or
# why the vine is uprooted instead (the reducer itself is asked, on a copy of the state).
# RAM: see potager.ui.diced_tomatoes.

from potager.core import keys
from potager.core.engine import clone
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import SHORT
from potager.ui.diced_tomatoes import label
from potager.ui.screens import ListScreen
from potager.ui.view import COLS, fit, menu_rows, player_tag, split


def screen(app, game_screen):
    return Form(app.engine.state, game_screen.cursor)


class Form(ListScreen):
    HELP: tuple = (
        ("↑↓", "h.field"),
        ("←→", "h.change"),
        ("OK", "dt.help_harvest"),
        ("BACK", "h.back"),
    )

    def __init__(self, state, player):
        ListScreen.__init__(self)
        self.player = player
        self.slot = len(state["hv"][player]) + 1
        self.values = [self.slot, 0, 0]  # seed die (its slot's number: a star), black, gold

    def items(self, app):
        out = []
        for i in range(3 if app.engine.state["opt"] & 4 else 2):  # gold: Golden Sun only
            found = split(app.tr("dt.dice_label_" + str(i)), str(self.values[i]) + " ", COLS - 1)
            out.append(found)
        return out

    def on_key(self, app, key, kind):
        if key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            self.change(app, 1 if key == keys.RIGHT else -1)
        else:
            ListScreen.on_key(self, app, key, kind)
        app.changed()

    def change(self, app, delta):
        v = self.values
        i = self.cursor
        if i == 0:
            v[0] = (v[0] + delta - 1) % 6 + 1
        elif v[i] + delta < 0:
            app.refuse("setting_limit")
        elif v[1] + v[2] + delta > 3:
            app.refuse("dt_four_dice_a_vine")  # the seed and 3 more dice make a vine
        else:
            v[i] += delta

    def value(self):
        return self.values[0] - self.values[1] + self.values[2]

    def text(self, app, state, after):
        # what the harvest brings: value, star (Tomato Dice), the active player's Karma
        v = self.value()
        out = label(app, "dt.preview_value", v)
        if state["opt"] & 1 and v == self.slot:
            out += label(app, "dt.preview_star", 7 - v)
        p = state["act"]
        if after["ka"][p] != state["ka"][p]:
            out += label(
                app, "dt.preview_gain", player_tag(state, p), after["ka"][p] - state["ka"][p]
            )
        return out

    def choose(self, app, index):
        state = app.engine.state
        p = state["act"]
        t = state["full"]
        k = state["ka"][p]
        v = self.value()
        if not app.act((dt.HARVEST, self.player, v)):
            return  # refused: the message says why (uprooted, slots full...)
        app.pop()
        if state["full"] != t:
            found = label(app, "dt.last_round_to", player_tag(state, state["mark"]))
        elif state["ka"][p] != k:
            found = label(app, "dt.karma_gained", state["ka"][p] - k, state["ka"][p])
            found = player_tag(state, p) + " " + found
        else:
            found = label(app, "dt.harvest_done", self.slot, v)
            if state["opt"] & 1 and v == self.slot:
                found += label(app, "dt.preview_star", 7 - v)
            found = player_tag(state, self.player) + " " + found
        app.say(found)

    def rows(self, app):
        state = app.engine.state
        after = clone(state)
        reason = dt.reduce(after, (dt.HARVEST, self.player, self.value()))
        found = app.tr("r." + reason) if reason else self.text(app, state, after)
        title = player_tag(state, self.player) + " " + label(app, "dt.harvest_title", self.slot)
        return menu_rows(title, self.items(app), self.cursor, 4) + [fit(found, COLS)]
