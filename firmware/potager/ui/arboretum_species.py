# One species: the values each player still holds, who may score it and why, the paths.
#
# A row per player: "▶♥P1 11* 1·3····8   9" = cursor, player, hand value (after the 1-vs-8
# rule), * if they may score, the values held (1-8, · for not held), their path's points
# ("?" still to enter, "-" no right). The column cursor (▼ on row 0) walks the eight values
# then the path column (LEFT from the first value goes there at once); on the path column the
# values give way to why each player may score or not ("highest", "tied", "nobody", "lower",
# "8 is 0"). OK toggles the value under the cursor, or opens the path entry (PathScreen); hold
# LEFT/RIGHT: the previous/next species. The ring lights the seats that may score.

from potager.core import keys
from potager.core.games import arboretum
from potager.core.gestures import LONG, REPEAT, SHORT
from potager.ui import view
from potager.ui.arboretum import label, lit
from potager.ui.screens import ListScreen, Screen
from potager.ui.view import COLS, CURSOR, fit, player_tag, right, split


class SpeciesScreen(Screen):
    HELP: tuple = (
        ("↑↓", "a.help_player"),
        ("←→", "a.help_column"),
        ("OK", "a.help_toggle"),
        ("←→~", "a.help_species"),
        ("BACK", "h.back"),
    )

    def __init__(self, s):
        self.s = s
        self.player = 0
        self.col = 0  # 0-7: values 1-8, 8: the path
        self.lit = 0  # bit p: player p may score (kept by rows() for leds())

    def on_key(self, app, key, kind):
        state = app.engine.state
        n = state["n"]
        if key in (keys.UP, keys.DOWN) and kind in (SHORT, REPEAT):
            self.player = (self.player + (1 if key == keys.DOWN else -1)) % n
        elif key in (keys.LEFT, keys.RIGHT):
            step = 1 if key == keys.RIGHT else -1
            if kind == SHORT:
                self.col = (self.col + step) % 9
            elif kind == LONG:
                self.s = (self.s + step) % len(state["sp"])
        elif key == keys.OK and kind == SHORT:
            i = self.s * n + self.player
            if self.col < 8:
                app.act((arboretum.HAND, self.s * 4 + self.player, state["h"][i] ^ 1 << self.col))
            elif arboretum.may_score(arboretum.held(state, self.s))[self.player]:
                app.push(PathScreen(self.s, self.player, app.engine.state))
            else:
                app.refuse("may_not_score")
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        state = app.engine.state
        n = state["n"]
        s = self.s
        values = arboretum.held(state, s)
        total = arboretum.hand_values(values)
        top = arboretum.may_score(values)
        scores = arboretum.scores(state, s)
        self.lit = 0
        for p in range(n):
            if top[p]:
                self.lit |= 1 << p
        text = fit(label(app, state, s), 9) + " " * (self.col + (3 if self.col == 8 else 0))
        out = [fit(text + "▼", COLS)]
        for p in range(n):
            row = (CURSOR if p == self.player else " ") + player_tag(state, p)
            row += right(str(total[p]), 3) + ("*" if top[p] else " ") + " "
            if self.col < 8:
                for v in range(1, 9):
                    row += str(v) if v in values[p] else "·"
            else:
                row += fit(app.tr("a.why_reason" + str(why(state, s, p, values, top))), 8)
            text = "?" if scores[p] is None else "-" if scores[p] < 0 else str(scores[p])
            out.append(row + right(text, 4))
        if n < 4:
            out.append(fit(app.tr("a.hint_path_col" if self.col == 8 else "a.hint_values"), COLS))
        while len(out) < view.ROWS:
            out.append(" " * COLS)
        return out

    def leds(self, app, out):
        lit(app, out, self.lit)


def why(state, s, p, values, top):
    # Why player p may score species s or not: 0 their 8 counts 0 (another player holds the 1), 1 a
    # lower hand, 2 nobody holds the species, 3 a tie for the highest, 4 the highest.
    h = state["h"]
    n = state["n"]
    if h[s * n + p] & 128 and any(k != p and h[s * n + k] & 1 for k in range(n)):
        return 0
    if not top[p]:
        return 1
    if not any(values):
        return 2
    return 3 if top.count(True) > 1 else 4


class PathScreen(ListScreen):
    # A player's best path of one species, built on this screen: cards (none, 2-8), all of the
    # species?, starts with a 1?, ends with an 8?, in any order (top to bottom too: 7 or 8
    # cards before their 1 and 8); the points on row 0 follow each change ("?" while too long
    # for rising values). OK enters it, one undoable action (a path too long is refused, and
    # stays to fix); BACK goes back leaving the path as it was: a half-built path is no path.

    HELP: tuple = (
        ("↑↓", "h.field"),
        ("←→", "h.change"),
        ("OK", "a.help_path_done"),
        ("BACK", "h.back"),
    )

    def __init__(self, s, player, state):
        ListScreen.__init__(self)
        self.s = s
        self.player = player
        self.code = max(state["pa"][s * state["n"] + player], 0)  # the path being built

    def title(self, app):
        text = (
            player_tag(app.engine.state, self.player) + " " + label(app, app.engine.state, self.s)
        )
        code = self.code
        found = "?" if arboretum.bad_path(code) else str(arboretum.path_points(code))
        return split(text, "= " + found, COLS)

    def items(self, app):
        code = self.code
        n = code & 15
        out = [
            split(app.tr("a.path_cards"), (str(n) if n else app.tr("a.path_no_cards")) + " ", 20)
        ]
        for i in range(3):  # all of the species (16), starts with a 1 (32), ends with an 8 (64)
            text = app.tr("yes" if code & 16 << i else "no") + " "
            out.append(split(app.tr("a.path_flag_" + str(i)), text, 20))
        return out

    def on_key(self, app, key, kind):
        if key not in (keys.LEFT, keys.RIGHT) or kind != SHORT:
            ListScreen.on_key(self, app, key, kind)
            return
        code = self.code
        if self.cursor:
            code ^= 8 << self.cursor
        elif code & 15 == 0:
            code += 2 if key == keys.RIGHT else 0  # none, then 2 cards: a path has 2 or more
        elif code & 15 < 8 or key == keys.LEFT:
            code += 1 if key == keys.RIGHT else -2 if code & 15 == 2 else -1
        if code == self.code:
            app.refuse("setting_limit")  # none, or 8 cards: the values 1 to 8
        else:
            self.code = code
            if arboretum.bad_path(code):
                app.say("r.path_too_long")  # a step on the way: OK refuses it as it stands
        app.changed()

    def choose(self, app, index):
        if app.act((arboretum.PATH, self.s * 4 + self.player, self.code)):
            app.pop()
