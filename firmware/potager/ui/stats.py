"""The table statistics of a game: turns taken, time played, longest turn, per player."""

from potager.ui import view
from potager.ui.screens import ListScreen
from potager.ui.table import clock_text
from potager.ui.view import player_tag, right


def stats_columns(app):
    """The column titles over stats_lines: turns, time, longest (17 characters)."""
    return right(app.tr("st.turns"), 5) + right(app.tr("st.time"), 6) + right(app.tr("st.max"), 6)


def stats_lines(app, state, with_title=True):
    """A line per player (a title row first, aligned for a list with a cursor column)."""
    out = ["   " + stats_columns(app)] if with_title else []
    for p in range(state["n"]):
        line = player_tag(state, p) + right(str(state["turns"][p]), 5)
        line += right(clock_text(state["used"][p]), 6) + right(clock_text(state["long"][p]), 6)
        out.append(line)
    return out


class StatsScreen(ListScreen):
    """Per player: turns taken, time played, longest turn. The title on a row of its own,
    the column words under it (a title squeezed into their row ran into them)."""

    def title(self, app):
        return app.tr("stats")

    def items(self, app):
        return stats_lines(app, app.engine.state)

    def rows(self, app):
        return view.menu_rows(self.title(app), self.items(app), self.cursor)
