# Totals per player and the winner. When the best total is shared, the tied players enter how
# many different species their arboretum holds (LEFT/RIGHT; the tie-break); still tied, the win
# is shared. Row 0: "Totals" and the winners (or "?", also while a path is to enter); a row
# per player: "▶♥P1*  19  species 5" (* = winner). OK ends the game (after a confirmation).
# The ring lights the winners' seats.

from potager.core import keys
from potager.core.games import arboretum
from potager.core.gestures import SHORT
from potager.ui import view
from potager.ui.arboretum import lit
from potager.ui.screens import ConfirmScreen, ListScreen
from potager.ui.view import COLS, CURSOR, fit, player_tag, right, split


class TotalsScreen(ListScreen):
    HELP: tuple = (
        ("↑↓", "h.move"),
        ("←→", "a.help_tiebreak"),
        ("OK", "a.help_end_game"),
        ("BACK", "h.back"),
    )

    def __init__(self):
        ListScreen.__init__(self)
        self.lit = 0  # bit p: player p wins (kept by rows() for leds())

    def items(self, app):
        return [""] * app.engine.state["n"]

    def on_key(self, app, key, kind):
        state = app.engine.state
        if key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            top = arboretum.leaders(arboretum.totals(state)[0])
            count = state["ks"][self.cursor] + (1 if key == keys.RIGHT else -1)
            if self.cursor not in top or len(top) < 2:
                app.refuse("no_tie_to_break")
            elif not 1 <= count <= len(state["sp"]):
                app.refuse("setting_limit")
            else:
                app.act((arboretum.TIE, self.cursor, count))
            app.changed()
        elif key == keys.OK and kind == SHORT:
            from potager.ui.arboretum import finish

            app.push(ConfirmScreen("q.end", lambda: finish(app)))
        else:
            ListScreen.on_key(self, app, key, kind)

    def rows(self, app):
        state = app.engine.state
        total, found = arboretum.totals(state)
        top = arboretum.leaders(total)
        # no winner while a path is still to enter: the totals are not final yet
        winners = arboretum.winners(state, total) if found < 0 else None
        self.lit = 0
        text = "?"
        if winners is not None:
            text = ""
            for p in winners:
                self.lit |= 1 << p
                text += " " + player_tag(state, p)
            if len(text) > 14:  # four winners: their symbols only
                text = " " + "".join([view.symbol(state, p) for p in winners])
        out = [split(app.tr("a.totals_title"), text, COLS)]
        for p in range(state["n"]):
            row = (CURSOR if p == self.cursor else " ") + player_tag(state, p)
            row += ("*" if self.lit >> p & 1 else " ") + right(str(total[p]), 4)
            if p in top and len(top) > 1:
                count = state["ks"][p]
                text = app.tr("a.species_count") + " " + (str(count) if count else "?")
                row += " " + right(text, 11)
            out.append(fit(row, COLS))
        if state["n"] < 4:
            out.append(fit(app.tr("a.hint_totals"), COLS))
        while len(out) < view.ROWS:
            out.append(" " * COLS)
        return out

    def leds(self, app, out):
        lit(app, out, self.lit)
