"""Records and history, from the home screen: the finished games, newest first (number,
mode's short name, the winners' symbols, the best total), then the personal bests the modes
keep."""

from potager.core import registry
from potager.ui import view
from potager.ui.screens import ListScreen
from potager.ui.view import COLS


def screen():
    return HistoryScreen()


class HistoryScreen(ListScreen):
    def title(self, app):
        return app.tr("res.history_title")

    def items(self, app):
        out = []
        for record in reversed(app.history):
            seq, mode, colours, totals, winners = record[:5]
            best = " " + (str(max(totals)) if totals else "-")
            mark = "".join([view.COLOURS[colours[p]][1] for p in winners if p < len(colours)])
            # the short name of the mode it is filed under (hortis-automne: HORTIS), whole:
            # the winners' symbols give way, "+" for those cut ("12 Free score ♥●+ 45")
            left = str(seq) + " " + app.tr("res.mode_short_" + (registry.mode_of(mode) or mode))
            room = COLS - 2 - len(left) - len(best)
            if len(mark) > room:
                mark = mark[: room - 1] + "+" if room > 1 else ""
            right_text = " " + mark + best if mark else best
            out.append(view.split(left[: COLS - 1 - len(right_text)], right_text, COLS - 1))
        bests = (app.records.get("hortis") or {}).get("b") or ()
        for g in range(len(bests)):
            if bests[g] is not None:
                out.append(view.split(app.tr("res.best_hortis" + str(g)), str(bests[g]), COLS - 1))
        return out or [app.tr("res.history_none")]

    def choose(self, app, index):
        app.pop()
