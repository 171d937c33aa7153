# Diced Tomatoes: the six Karma effects by cost; the active player pays (OK; TURN: pays and
# hands over). What they cannot afford is refused with a message and changes nothing.
# RAM: see potager.ui.diced_tomatoes.

from potager.core import keys
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import SHORT
from potager.ui.diced_tomatoes import label
from potager.ui.screens import ListScreen
from potager.ui.view import menu_rows, names_in, player_tag


def screen(app, game_screen):
    return Form()


class Form(ListScreen):
    def items(self, app):
        return [str(i) + " " + app.tr("dt.effect_cost_" + str(i)) for i in range(1, 7)]

    def choose(self, app, index):
        state = app.engine.state
        p = state["act"]
        if app.act((dt.SPEND, index + 1, 0)):
            app.pop()
            said = label(app, "dt.karma_spent", index + 1, state["ka"][p])
            app.say(names_in(state, "%p " + said, (("%p", p),)))
            return True
        return False

    def on_key(self, app, key, kind):
        if key == keys.TURN and kind == SHORT:
            if self.choose(app, self.cursor):
                app.screen().on_key(app, key, kind)  # and the turn goes on
            return
        ListScreen.on_key(self, app, key, kind)

    def rows(self, app):
        state = app.engine.state
        p = state["act"]
        title = label(app, "dt.spend_title", player_tag(state, p), state["ka"][p])
        return menu_rows(title, self.items(app), self.cursor)
