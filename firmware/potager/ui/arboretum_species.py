# One species: the values each player still holds, who may score it and why, the paths.
#
# A row per player: " ♥P1 11* 1·3····8   9" = player, hand value (after the 1-vs-8 rule),
# * if they may score, the values held (1-8, · for not held), their path's points ("?" still
# to enter, "-" no right). The column cursor (▼ on row 0) walks the eight values then a "why"
# column (LEFT from the first value goes there at once), where the values give way to why each
# player may score or not ("highest", "tied", "nobody", "lower", "8 is 0"). UP/DOWN move the
# value under the cursor from hand to hand (nobody, the first player... the last, nobody: the
# card slides down or up the rows), one undo step each; held, two hands at once (the second
# player's card in one press), then on one by one; a full hand (7 cards) is passed over with
# the reason said. OK enters the paths of those who may score, one after the other
# (PathScreen); once none is left to enter, the next species opens by itself (after the last,
# the totals). Hold LEFT/RIGHT: the previous/next species. The ring lights the seats that may
# score.

from potager.core import keys
from potager.core.games import arboretum
from potager.core.gestures import LONG, SHORT
from potager.ui import view
from potager.ui.arboretum import label, lit
from potager.ui.screens import ListScreen, Screen
from potager.ui.view import COLS, fit, names_in, player_tag, right, split


class SpeciesScreen(Screen):
    HELP: tuple = (
        ("↑↓", "a.help_player"),
        ("↑↓~", "a.help_skip_hand"),
        ("←→", "a.help_column"),
        ("OK", "a.help_toggle"),
        ("←→~", "a.help_species"),
        ("BACK", "h.back"),
        ("*", "a.help_star"),
        ("?", "a.help_unknown"),
        ("-", "a.help_no_right"),
    )

    def __init__(self, s):
        self.s = s
        self.col = 0  # 0-7: values 1-8, 8: why each player may score or not
        self.lit = 0  # bit p: player p may score (kept by rows() for leds())

    def on_key(self, app, key, kind):
        state = app.engine.state
        if key in (keys.UP, keys.DOWN):
            if self.col < 8:  # held: two hands at once (LONG), then one by one (REPEAT)
                self.choose(app, 1 if key == keys.DOWN else -1, 2 if kind == LONG else 1)
        elif key in (keys.LEFT, keys.RIGHT):
            step = 1 if key == keys.RIGHT else -1
            if kind == SHORT:
                self.col = (self.col + step) % 9
            elif kind == LONG:
                self.s = (self.s + step) % len(state["sp"])
                self.col = 0
        elif key == keys.OK and kind == SHORT:
            p = first(state, self.s)
            if p is None:
                app.refuse("may_not_score")
            else:
                app.push(PathScreen(state, self.s, p))
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def choose(self, app, step, count):
        # The value under the cursor `count` hands down (step 1) or up (-1), then one by one past
        # full hands; "nobody" sits between the last player and the first. One undo step.
        state = app.engine.state
        n = state["n"]
        s = self.s
        b = 1 << self.col
        h = state["h"]
        holder = -1
        for p in range(n):
            if h[s * n + p] & b:
                holder = p
        p = holder
        text = None
        for _ in range(n + 1):
            state = app.engine.state  # (a refusal may have rebuilt it)
            h = state["h"]
            p = (p + 1 + step * count) % (n + 1) - 1  # -1 (nobody), 0 .. n-1
            count = 1  # past the first move, one hand at a time
            if p == holder:
                break  # round to where it was: every other hand is full, nothing moves
            out = [] if holder < 0 else [(arboretum.HAND, s * 4 + holder, h[s * n + holder] ^ b)]
            if p >= 0:
                out.append((arboretum.HAND, s * 4 + p, h[s * n + p] | b))
            if app.engine.apply(out) is None:
                app.mark_unsaved()
                break
            text = names_in(state, "%p " + app.tr("a.hand_full"), (("%p", p),))
        if text is not None:
            app.say(text)  # passed over: that hand is full

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
            row = " " + player_tag(state, p)
            row += right(str(total[p]), 3) + ("*" if top[p] else " ") + " "
            if self.col < 8:
                for v in range(1, 9):
                    row += str(v) if v in values[p] else "·"
            else:
                row += fit(app.tr("a.why_reason" + str(why(state, s, p, values, top))), 8)
            text = "?" if scores[p] is None else "-" if scores[p] < 0 else str(scores[p])
            out.append(row + right(text, 4))
        if n < 4:
            out.append(fit(app.tr("a.hint_values"), COLS))
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


def first(state, s, player=-1):
    # The next player after `player` who may score species s with no path entered yet; with
    # none left, the first who may score (to change a path); None if nobody may.
    n = state["n"]
    top = arboretum.may_score(arboretum.held(state, s))
    for p in range(player + 1, n):
        if top[p] and state["pa"][s * n + p] < 0:
            return p
    if player >= 0:
        return None
    return top.index(True) if True in top else None


class PathScreen(ListScreen):
    # A player's best path of one species: cards (none, 2-8; first 2 when somebody holds the
    # species, as the right to score then mostly comes with a path, else none: with nobody
    # holding it, all may score, mostly without a path), all of the species? (yes unless
    # changed: it counts from 4 cards), starts with a 1?, ends with an 8?, in any order (top to
    # bottom too: 7 or 8 cards before their 1 and 8); the points on row 0 follow each change
    # ("?" while too long for rising values). The entry is kept here and saved by OK as one
    # action (one undo step; a path too long is refused, and stays to fix); then the next
    # player who may score and has no path yet, or, with none left, the next species. BACK
    # goes back without saving: a half-built path is no path.

    HELP: tuple = (
        ("↑↓", "h.field"),
        ("←→", "h.change"),
        ("OK", "a.help_path_done"),
        ("BACK", "h.back"),
    )

    def __init__(self, state, s, player):
        ListScreen.__init__(self)
        self.s = s
        self.player = player
        n = state["n"]
        code = state["pa"][s * n + player]
        if code < 0:  # not entered yet: 2 cards if somebody holds the species, else none
            code = 2 if any(state["h"][s * n : s * n + n]) else 0
        self.code = code | (16 if code & 15 < 4 else 0)

    def title(self, app):
        text = (
            player_tag(app.engine.state, self.player) + " " + label(app, app.engine.state, self.s)
        )
        code = self.code
        points = "?" if arboretum.bad_path(code) else str(arboretum.path_points(code))
        return split(text, "= " + points, COLS)

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
        state = app.engine.state
        code = self.code if self.code & 15 else 0
        was_waiting = None in arboretum.scores(state, self.s)  # this species: a path still to enter
        if not app.act((arboretum.PATH, self.s * 4 + self.player, code)):
            return
        p = first(state, self.s, self.player)
        if p is not None:
            app.replace(PathScreen(state, self.s, p))
            return
        app.pop()
        if not was_waiting or None in arboretum.scores(state, self.s):
            return  # a path changed, or one still to enter: stay on this species
        if arboretum.totals(state)[1] < 0:
            from potager.ui.arboretum import sub

            app.replace(sub("totals").TotalsScreen())  # every species done: the totals
        else:
            species = app.screen()
            species.s = (self.s + 1) % len(state["sp"])  # this species is done: the next
            species.col = 0
