"""The results of a finished game, imported when the game has ended (its mode's modules gone)."""

from potager.core import registry
from potager.ui import view
from potager.ui.screens import ListScreen
from potager.ui.view import COLS


class ResultsScreen(ListScreen):
    """A finished game: rank, player, total, the winners marked, each with where the points
    came from (`parts`, the mode's words, a line each); why a tie went one way (`reason`,
    the mode's tie-break) or that it is shared; then the table statistics (turns, time
    played, longest turn) when the game had turns. OK goes home."""

    def __init__(self, state, totals, winners, parts=None, reason=None, turns=True):
        ListScreen.__init__(self)
        order = list(range(len(totals)))
        order.sort(key=lambda p: (p not in winners, -totals[p], p))
        self.lines = []
        rank = 0
        for i, p in enumerate(order):
            previous = order[i - 1]
            if i == 0 or (previous in winners) != (p in winners) or totals[p] != totals[previous]:
                rank = i + 1  # the same rank only for a tie the tie-break left shared
            mark = "*" if p in winners else " "
            head = view.right(str(rank), 2) + " " + view.player_tag(state, p, 11) + mark
            self.lines.append(head + view.right(str(totals[p]), COLS - 2 - len(head)))
            for line in parts[p].split("\n") if parts else ():
                self.lines.append(" " + line)
        tied = len([p for p in order if totals[p] == totals[order[0]]])  # tied for the best
        # why: the tie-break where it left fewer winners than were tied, and a win still
        # shared said as shared, whether a tie-break came first or not
        self.reasons = [reason] if reason is not None and tied > len(winners) else []
        if len(winners) > 1:
            self.reasons.append("res.still_shared" if self.reasons else "res.tie_shared")
        self.state = state if turns and max(state["turns"]) else None

    def title(self, app):
        return app.tr("results")

    def items(self, app):
        out = list(self.lines)
        for reason in self.reasons:
            for line in view.wrap(app.tr(reason), COLS - 1, 2):
                if line.strip():
                    out.append(line.rstrip())
        if self.state is not None:
            out += registry.load("potager.ui.stats").stats_lines(app, self.state)  # when shown
        return out

    def choose(self, app, index):
        app.pop()
