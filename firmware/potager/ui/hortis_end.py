# HORTIS: the end of a game, and the records.
#
# Records, kept across games and power cycles in app.records["hortis"]: {"b": [best Automne,
# best Grove] (None before a first result), "rec": [[game, score], ...]}, the last results
# newest first (10). Every forest of a finished game counts (each player's in the
# one-copy-per-player mode): the records are the device's. The records screen: OK or BACK back.

import gc

from potager.ui.screens import ListScreen
from potager.ui.view import COLS, fill, split


def finish(app):
    # The finals (with the recipe challenge) rank the players, the most dice used breaks a tie;
    # every score goes into the records. The records screen takes the game screen's place, and
    # the game goes into the history at its first tick(): by then the mode's modules are free to
    # go (the App forgets them when the game closes), so that the results screen's module finds
    # room to compile.
    from potager.core.games import hortis

    state = app.engine.state
    n = state["n"]
    totals = [hortis.final(state, p)[0] for p in range(n)]
    used = [hortis.dice_used(state, p) for p in range(n)]
    winners = hortis.winners(list(range(n)), totals, used)
    rec = app.records.get("hortis") or {"b": [None, None], "rec": []}
    new = False
    for p in range(n):
        used[p] = hortis.score(state, p)
        if rec["b"][state["g"]] is None or used[p] > rec["b"][state["g"]]:
            rec["b"][state["g"]] = used[p]
            new = True
        rec["rec"].insert(0, [state["g"], used[p]])
    rec["rec"] = rec["rec"][:10]
    app.records["hortis"] = rec
    screen = RecordsScreen(app, new)  # written now: the game's texts go with the game
    screen.totals = totals
    screen.winners = winners
    template = app.tr("hortis.result_parts")  # the score before the recipes, the dice used
    screen.parts = [fill(template, (used[p], hortis.dice_used(state, p))) for p in range(n)]
    screen.reason = app.tr("hortis.tie_rule")
    # players taking turns over the cards (a live count); a quick count, or solo, has no turns
    screen.turns = state["lv"] and n > 1
    app.replace(screen)


class RecordsScreen(ListScreen):
    def __init__(self, app, new):
        ListScreen.__init__(self)
        self.text = app.tr("hortis.new_best" if new else "hortis.records")
        self.totals = self.winners = None  # the game to finish, and its results' words
        self.parts = self.reason = self.turns = None
        rec = app.records.get("hortis") or {"b": [None, None], "rec": []}
        self.lines = []
        for g in (0, 1):
            text = "-" if rec["b"][g] is None else str(rec["b"][g])
            label = app.tr("hortis.best") + " " + app.tr("hortis.short" + str(g))
            self.lines.append(split(label, text, COLS - 1))
        self.lines.append(app.tr("hortis.last"))
        for g, s in rec["rec"]:
            self.lines.append(split(" " + app.tr("hortis.short" + str(g)), str(s), COLS - 1))

    def tick(self, app, now):
        if self.totals is not None:
            totals = self.totals
            self.totals = None
            gc.collect()
            app.finish_game(totals, self.winners, self.parts, self.reason, self.turns)
            app.push(self)

    def title(self, app):
        return self.text

    def items(self, app):
        return self.lines

    def choose(self, app, index):
        app.pop()
