# Diced Tomatoes: the game menu, the mode's own items first. RAM: see potager.ui.diced_tomatoes.

from potager.core import keys
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import LONG
from potager.ui import menu
from potager.ui.screens import ConfirmScreen

# menu item -> the sub-screen it opens
data = {
    "dt.menu_harvest": "diced_tomatoes_harvest",
    "dt.menu_spend_karma": "diced_tomatoes_spend",
    "dt.menu_not_placed": "diced_tomatoes_carry",
    "dt.menu_details": "diced_tomatoes_detail",
}


def screen(app, game_screen):
    return MenuScreen(app, game_screen)


class MenuScreen(menu.MenuScreen):
    def __init__(self, app, game_screen):
        menu.MenuScreen.__init__(self, game_screen)
        state = app.engine.state
        out = ["dt.menu_harvest", "dt.menu_spend_karma", "dt.menu_not_placed", "dt.menu_details"]
        if state["opt"] & 2:
            out.insert(2, "dt.menu_third_heart")
        out.append("dt.menu_out_of_dice" if state["n"] == 1 else "dt.menu_basket_empty")
        # nobody passes in Diced Tomatoes
        out += [i for i in menu.MenuScreen.ITEMS if i not in ("pass", "skip")]
        self.ITEMS = tuple(out)  # type: ignore[assignment]

    def choose(self, app, index):
        key = self.entries[index]
        screen = self.game_screen
        if key == "dt.menu_third_heart":
            app.pop()
            screen.on_key(app, keys.RIGHT, LONG)  # as a hold of →
        elif key in ("dt.menu_basket_empty", "dt.menu_out_of_dice"):
            app.push(ConfirmScreen(key.replace("menu", "question"), lambda: self.apply(app)))
        elif key in data:
            app.pop()
            screen.sub = data[key]  # opened at the next tick, the menu gone
        else:
            menu.MenuScreen.choose(self, app, index)

    def apply(self, app):
        # the basket is empty (solo: out of dice): the game ends at once, then the final score
        if app.act((dt.END, 2, 0)):
            app.show_game()
            app.screen().sub = "diced_tomatoes_end"
