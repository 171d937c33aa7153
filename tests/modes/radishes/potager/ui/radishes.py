# Radish race (a mode of the test suite): the setup and the game screen. A row a player:
# cursor, seat, active mark, radishes pulled; RIGHT pulls one for the player under the
# cursor, LEFT puts one back. The first to the target ends the race: results and the record.

from potager.core import keys
from potager.core.games import radishes
from potager.core.gestures import SHORT
from potager.ui import table
from potager.ui.view import COLS, CURSOR, fit, player_tag, right

SETUP = (
    table.players(2),
    table.FIRST,
    table.field(
        "target", "rd.target_field", ("rd.target_of_10", "rd.target_of_20", "rd.target_of_30")
    ),
    table.SEATS,
)


def new_state(values):
    n = values["players"]
    target = radishes.TARGETS[values["target"]]
    return radishes.new(n, values["col"][:n], values["first"], target)


class GameScreen(table.GameScreen):
    HELP = (("→", "rd.help_pull_one"), ("←", "rd.help_put_back")) + table.GameScreen.HELP

    def __init__(self, app):
        self.cursor = app.engine.state["act"]

    def on_key(self, app, key, kind):
        state = app.engine.state
        if key in (keys.UP, keys.DOWN) and kind == SHORT:
            self.cursor = (self.cursor + (1 if key == keys.DOWN else -1)) % state["n"]
        elif key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            pulled = app.act((radishes.PULL, self.cursor, 1 if key == keys.RIGHT else -1))
            if pulled and app.engine.state["over"]:
                self.finish(app)  # the target reached: the race is over
                return True
        else:
            return table.GameScreen.on_key(self, app, key, kind)
        app.changed()
        return True

    def follow(self, app):
        self.cursor = app.engine.state["act"]  # the turn moved: on to the active player

    def rows(self, app):
        state = app.engine.state
        title = app.tr("rd.header_text") + " " + str(state["target"])
        out = [table.header(app, title)]
        top = min(max(self.cursor - 1, 0), max(state["n"] - 3, 0))
        for p in range(top, top + 3):
            text = ""
            if p < state["n"]:
                head = (CURSOR if p == self.cursor else " ") + player_tag(state, p, 8)
                text = head + table.mark(state, p) + right(str(state["pulled"][p]), 6)
            out.append(fit(text, COLS))
        out.append(fit(app.tr("rd.keys_hint"), COLS))
        return out

    def finish(self, app):
        # the race ends (the target reached, or "End game" from the menu): the best harvest
        # goes into the records, the game into the history; the record is said on the results
        state = app.engine.state
        best = max(state["pulled"])
        kept = app.records.get("radishes")
        if kept is None or best > kept["best"]:
            app.records["radishes"] = {"best": best}
        said = app.tr("rd.best_harvest") + " " + str(app.records["radishes"]["best"])
        app.finish_game(list(state["pulled"]), radishes.winners(state))
        app.say(said)  # (translated before: the mode's texts go with the game)
