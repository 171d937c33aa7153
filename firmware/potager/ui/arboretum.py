# Arboretum end-of-game scoring: setup and the species list (the game screen).
#
# Row 0: "Done 3/8" (species whose paths are all in), the first player (the rules take no
# turns: TURN is refused, the menus offer no turn items nor timers: ui.table); rows 1-3 the
# species in play then "Total", each with a cell per player: symbol and points, "?" for a path
# still to enter, "-" without the right to score; row 4: key hints. RIGHT opens the species
# (hands, right to score, paths: ``arboretum_species``) or the totals (``arboretum_totals``).
# RAM: text keys have 11+ characters (shorter string constants would stay in RAM as qstrs on
# MicroPython); see potager.core.games.arboretum.

import gc
import sys

from potager.core import keys, registry
from potager.core.games import arboretum
from potager.core.gestures import LONG, SHORT
from potager.ui import table, view
from potager.ui.view import COLOURS, COLS, CURSOR, dim, fit, right

# the players, the first player, a colour per player, then the species in play: "sp" is the
# catalogue's order, its first 2 a player + 2 in play (a field of the mode's own: setup_line,
# setup_move)
SETUP = (
    table.players(3),
    table.FIRST,
    table.SEATS,
    table.field("sp", default=list(range(12)), rows=(2, 2)),
)


def setup_line(app, values, name, slot):
    return ("#" + str(slot + 1), app.tr("a.tree_name_" + str(values["sp"][slot])))


def setup_move(values, name, slot, delta):
    # the next species of the catalogue not in play yet, swapped in
    sp = values["sp"]
    in_play = 2 * values["players"] + 2
    species = sp[slot]
    for _ in range(12):
        species = (species + delta) % 12
        k = sp.index(species)
        if k >= in_play:
            sp[k], sp[slot] = sp[slot], species
            return None
    return "bad_action"


def new_state(values):
    n = values["players"]
    return arboretum.new(n, values["col"][:n], values["first"], values["sp"][: 2 * n + 2])


def label(app, state, s):
    # The short name of species s (index into state["sp"]).
    return app.tr("a.tree_short" + str(state["sp"][s]))


def cell(state, scores):
    # A 3-character cell per player: symbol and points ("?" to enter, "-" no right).
    out = ""
    col = state["col"]
    for p in range(state["n"]):
        text = "?" if scores[p] is None else "-" if scores[p] < 0 else str(scores[p])
        out += right(text, 3) if len(text) > 2 else COLOURS[col[p]][1] + right(text, 2)
    return out


def describe(app, action, width=view.COLS):
    # A hand of one species: "●P2 Poinc." (the undo and redo messages; the others: u.<op>)
    op, a, _ = action
    state = app.engine.state
    if op != arboretum.HAND or a % 4 >= state["n"] or a // 4 >= len(state["sp"]):
        return None
    return view.names_in(state, "%a " + label(app, state, a // 4), (("%a", a % 4),), width)


class GameScreen(table.GameScreen):
    # the table's keys but TURN (nobody takes a turn: the rules refuse it) and its marks
    HELP = (("↑↓", "h.move"), ("→", "a.help_open_row")) + table.GameScreen.HELP[2:6]
    HELP += (("?", "a.help_unknown"), ("-", "a.help_no_right"))

    def __init__(self, app):
        self.cursor = 0
        self.scored = None  # see scored_rows()

    def selection(self, app):
        # the species being entered, where one is open: a cut brings the list back on it
        return getattr(app.screen(), "s", self.cursor)

    def cursors(self, app):
        return len(app.engine.state["sp"]) + 1  # the species, then the totals

    def upcoming(self, app):
        # RIGHT on a species row opens it; loaded ahead only while the totals' module is not
        # (sub(): one of the two at a time, the board compiles .py)
        menu = table.GameScreen.upcoming(self, app)
        if "potager.ui.arboretum_totals" in sys.modules:
            return menu
        return ("potager.ui.arboretum_species",) + menu

    def on_key(self, app, key, kind):
        count = len(app.engine.state["sp"]) + 1
        if key in (keys.UP, keys.DOWN) and kind != LONG:
            self.cursor = (self.cursor + (1 if key == keys.DOWN else -1)) % count
        elif key == keys.RIGHT and kind == SHORT:
            if self.cursor < count - 1:
                app.push(sub("species").SpeciesScreen(self.cursor))
            else:
                app.push(sub("totals").TotalsScreen())
        elif key in (keys.LEFT, keys.RIGHT):
            return True
        else:
            return table.GameScreen.on_key(self, app, key, kind)
        app.changed()
        return True

    def scored_rows(self, app):
        # Scored once per game state (and language), not at each move of the cursor: the
        # species' scores and the totals cost the board ~50 ms. (revision, texts, the scores
        # of each species then the totals, species done, each row's text once laid out)
        state = app.engine.state
        if self.scored is None or self.scored[:2] != (app.engine.revision, app.texts):
            scored = [arboretum.scores(state, s) for s in range(len(state["sp"]))]
            count = 0
            for scores in scored:
                count += None not in scores
            scored.append(arboretum.totals(state, scored)[0])
            self.scored = (app.engine.revision, app.texts, scored, count, [None] * len(scored))
        return self.scored

    def item(self, app, i):
        # Row i (a species, or the totals last), laid out when it first comes into view: a
        # row costs the board ~2.5 ms, and a game starts with 3 of its 7-11 rows in view.
        scored = self.scored_rows(app)
        if scored[4][i] is None:
            state = app.engine.state
            name = label(app, state, i) if i < len(state["sp"]) else app.tr("a.total_label")
            scored[4][i] = fit(name, 7) + " " + cell(state, scored[2][i])
        return scored[4][i]

    def rows(self, app):
        scored = self.scored_rows(app)
        count = len(scored[2])
        title = app.tr("a.title_done") + " " + str(scored[3]) + "/" + str(count - 1)
        out = [table.header(app, title)]
        top = min(max(self.cursor - 1, 0), count - 3)
        for i in range(top, top + 3):
            out.append(fit((CURSOR if i == self.cursor else " ") + self.item(app, i), COLS))
        out.append(fit(app.tr("a.hint_trees"), COLS))
        return out

    def finish(self, app):
        finish(app)


def finish(app):
    # End of the game: every path entered and ties broken, else say what is missing.
    state = app.engine.state
    total, waiting = arboretum.totals(state)
    if waiting >= 0:
        app.show_game()
        app.screen().cursor = waiting
        app.refuse("paths_to_enter")
        return
    winners = arboretum.winners(state, total)
    if winners is None:
        app.show_game()
        app.push(sub("totals").TotalsScreen())
        app.refuse("tie_break_needed")
        return
    # where the points came from: each species a player scored, short name and points
    parts = []
    for p in range(state["n"]):
        scored = []
        for s in range(len(state["sp"])):
            score = arboretum.scores(state, s)[p]
            if score and score > 0:
                scored.append(label(app, state, s) + " " + str(score))
        lines = fit_words(scored or ["0"], COLS - 2)
        parts.append("\n".join(lines))
    app.show_game()  # off the totals screen: its module can go before the results' comes in
    drop()
    app.finish_game(total, winners, parts, app.tr("a.tie_break_rule"), False)


def fit_words(words, width):
    # The words joined by spaces into lines of `width` at most.
    lines = [""]
    for word in words:
        if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
            lines.append("")
        lines[-1] = (lines[-1] + " " + word).strip()
    return lines


def sub(name):
    # The module of a sub-screen, potager.ui.arboretum_<name>, compiled when opened; the other
    # one is dropped first.
    drop(name)
    return registry.load("potager.ui.arboretum_" + name)


def drop(name=None):
    # Forget the sub-screens' modules (but `name`) and collect the garbage, so that the compiler
    # of the next module finds room in one piece (RAM: the board compiles .py).
    for k in ("species", "totals"):
        if k != name:
            registry.forget("potager.ui.arboretum_" + k)
    gc.collect()


def lit(app, out, players):
    # The seats of the players in the bit mask `players` bright in their colour, the others dim.
    state = app.engine.state
    for i in range(len(out)):
        out[i] = 0
    for p in range(state["n"]):
        level = table.ACTIVE_LEVEL if players >> p & 1 else table.SEAT_LEVEL
        out[state["seat"][p]] = dim(COLOURS[state["col"][p]][0], level)
