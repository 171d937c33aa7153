# Totals per player and the winner. When the best total is shared, the tied players enter how
# many different species their arboretum holds (LEFT/RIGHT; the tie-break), kept here while
# typed ("species 5?") and saved by OK, every count typed in one undo step; BACK leaves them
# unsaved. Still tied, the win is shared. Row 0: "Totals" and the winners, or "?" while the
# ranking is not final (a path to enter, a tied player's count missing or typed, not saved);
# a row per player: "▶♥P1*  19  species 5" (* = winner). OK with nothing typed ends the game
# (after a confirmation). The ring lights the winners' seats.

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
        ("OK", "a.help_counts"),
        ("OK", "a.help_end_game"),
        ("BACK", "h.back"),
    )

    def __init__(self):
        ListScreen.__init__(self)
        self.lit = 0  # bit p: player p wins (kept by rows() for leds())
        self.values = [0] * 4  # per player: the species count typed, not saved yet (0: none)

    def items(self, app):
        return [""] * app.engine.state["n"]

    def typed(self, state):
        # The counts typed that differ from those saved: (TIE, player, count) each.
        ks = state["ks"]
        return [(arboretum.TIE, p, c) for p, c in enumerate(self.values) if c and c != ks[p]]

    def on_key(self, app, key, kind):
        state = app.engine.state
        if key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            top = arboretum.leaders(arboretum.totals(state)[0])
            p = self.cursor
            count = (self.values[p] or state["ks"][p]) + (1 if key == keys.RIGHT else -1)
            if p not in top or len(top) < 2:
                app.refuse("no_tie_to_break")
            elif not 1 <= count <= len(state["sp"]):
                app.refuse("setting_limit")
            else:
                self.values[p] = count
            app.changed()
        elif key == keys.OK and kind == SHORT:
            out = self.typed(state)
            if out:
                if app.act(out):  # the counts saved: the ranking is final
                    self.values = [0] * 4
                return
            from potager.ui.arboretum import finish

            app.push(ConfirmScreen("q.end", lambda: finish(app)))
        else:
            ListScreen.on_key(self, app, key, kind)

    def rows(self, app):
        state = app.engine.state
        total, waiting = arboretum.totals(state)
        top = arboretum.leaders(total)
        out = self.typed(state)
        # no winner while a path is still to enter or a count typed is not saved: the totals
        # are not final yet (a count missing: winners() says None)
        winners = arboretum.winners(state, total) if waiting < 0 and not out else None
        self.lit = 0
        text = "?"
        if winners is not None:
            text = ""
            for p in winners:
                self.lit |= 1 << p
                text += " " + player_tag(state, p)
            if len(text) > 14:  # four winners: their symbols only
                text = " " + "".join([view.symbol(state, p) for p in winners])
        rows = [split(app.tr("a.totals_title"), text, COLS)]
        for p in range(state["n"]):
            row = (CURSOR if p == self.cursor else " ") + player_tag(state, p)
            row += ("*" if self.lit >> p & 1 else " ") + right(str(total[p]), 4)
            if p in top and len(top) > 1:
                count = self.values[p] or state["ks"][p]
                text = app.tr("a.species_count") + " " + (str(count) if count else "?")
                row += " " + right(text + ("?" if count != state["ks"][p] else ""), 11)
            rows.append(fit(row, COLS))
        if state["n"] < 4:
            rows.append(fit(app.tr("a.hint_counts" if out else "a.hint_totals"), COLS))
        while len(rows) < view.ROWS:
            rows.append(" " * COLS)
        return rows

    def leds(self, app, out):
        lit(app, out, self.lit)
