"""Free score + table: the screens. A score per player; players in two columns.

Row 0: round and the active player; rows 1-3: up to six cells "▶♥P1*  12" (cursor,
symbol, seat, * = active, score); row 4: key hints or a message.
"""

from potager.core import history, keys
from potager.core.games import free
from potager.core.gestures import LONG, REPEAT, SHORT
from potager.ui import table
from potager.ui.view import COLS, CURSOR, fit, player_tag, right

BIG_STEP = 10


SETUP = (table.players(), table.FIRST, table.SEATS)


def new_state(values):
    n = values["players"]
    return free.new(n, values["col"][:n], values["first"])


def cell(state, player, selected):
    """10 characters: cursor, symbol, seat, active mark, score."""
    mark = table.mark(state, player)
    head = (CURSOR if selected else " ") + player_tag(state, player, 4) + mark
    return head + right(str(state["sc"][player]), 10 - len(head))


class GameScreen(table.GameScreen):
    HELP = (
        ("↑↓", "h.player"),
        ("←→", "h.points1"),
        ("←→~", "h.points10"),
    ) + table.GameScreen.HELP

    def __init__(self, app):
        self.cursor = self.active = app.engine.state["act"]

    def on_key(self, app, key, kind):
        state = app.engine.state
        if key in (keys.UP, keys.DOWN, keys.LEFT, keys.RIGHT):
            if key in (keys.UP, keys.DOWN) and kind == SHORT:
                step = -1 if key == keys.UP else 1
                self.cursor = (self.cursor + step) % state["n"]
            elif key in (keys.LEFT, keys.RIGHT):
                points = 1 if kind == SHORT else BIG_STEP if kind in (LONG, REPEAT) else 0
                app.act((free.ADD, self.cursor, -points if key == keys.LEFT else points))
            app.changed()
            return True
        return table.GameScreen.on_key(self, app, key, kind)

    def follow(self, app):
        # a handover, an undo or a redo moved the turn: the cursor follows the active player
        if app.engine.state["act"] != self.active:
            self.cursor = self.active = app.engine.state["act"]

    def rows(self, app):
        state = app.engine.state
        n = state["n"]
        out = [table.header(app, app.tr("round") + " " + str(state["rnd"]))]
        for row in range(3):
            left, other = row * 2, row * 2 + 1
            text = cell(state, left, left == self.cursor) if left < n else ""
            if other < n:
                text = fit(text, 11) + cell(state, other, other == self.cursor)
            out.append(fit(text, COLS))
        out.append(fit(app.tr("f.hint"), COLS))
        return out

    def finish(self, app):
        """End of the game (from the menu): the scores as they stand are the totals."""
        scores = app.engine.state["sc"]
        app.finish_game(scores, history.winners_of(scores))
