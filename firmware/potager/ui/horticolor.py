"""Horticolor: the setup, and the game screen with one layout per phase."""
# The setup: 2-4 players, seats and colours, the first active player, the quick draft
# variant. The player screens (compost, a card's bonus, the final points) are in
# horticolor_acts.py, the mix helper in horticolor_dice.py, both imported with this module.
#
# Draft: what to deal (TURN starts the mixes). Mixes: a row per player "▶♥P1* C 2  V 3  2/4"
# (cursor, symbol, seat, * = active, compost tokens, validated cards, validated of the cards in
# play this round); the header has the round, the mixes phase (! = the round stops after it)
# and the shared supply left; UP/DOWN a player; RIGHT a card validated, held: with +1 compost
# (its bonus) and one more each repeat, then the cursor on to the next player; LEFT spend
# compost (or take a card back), held: the mix helper (dice); TURN ends the phase (the active
# role passes on), held: the active player's shortage. Round end: each player's discards (all
# the cards left at first: LEFT keeps one back); TURN the next round. Final scoring: each
# player's points and total (* = the winner so far); RIGHT a player's points; TURN records the
# result. BACK undo (held: redo), OK the menu (held: help), as in every mode.
#
# RAM (tests/test_mode_horticolor.py measures it under MicroPython): the board compiles each
# module in RAM and keeps every distinct name, every string of up to 10 characters and every
# module's names for good; past 620 of them MicroPython needs a new 7 KB block at once, which
# a heap broken up by play may not have. So the mode has three screen modules, writes its
# text keys longer than 10 characters and a screen's lines as one text split at "|", and keeps
# explanations in comments (a docstring is read into RAM). Its names and glyphs say what they
# are: reused names (`count`, `held`, `found`) and glyphs indexed out of a list saved 128
# bytes of heap (CircuitPython's 32-bit VM, .mpy), not worth the reader's guessing. All
# three compile here, before play: a module compiled later, in a heap that play has broken
# into small pieces, may find no block big enough (and none is much bigger than another: a
# big module wants a big block to compile).

# the shared table screens first: the biggest modules compile while the least is in RAM
from potager.ui import table, view

# isort: split
from potager.core import keys
from potager.core.games import horticolor as rules
from potager.core.gestures import LONG, REPEAT, SHORT
from potager.core.table import NEXT, S_DIR, S_LAP, S_ROT
from potager.ui.horticolor_acts import PointsScreen, SpendScreen, warn
from potager.ui.horticolor_dice import MixScreen
from potager.ui.screens import ConfirmScreen
from potager.ui.view import COLS, CURSOR, fit, names_in, player_tag, right, split

# each phase's keys for the help screen (then undo, redo, menu, help)
PHASE_HELP = (
    (("TURN", "hc.help_mixes"),),
    (
        ("↑↓", "hc.help_player"),
        ("→", "hc.help_valid"),
        ("→~", "hc.help_unvalid"),
        ("←", "hc.help_spend"),
        ("←~", "hc.help_dice"),
        ("TURN", "hc.help_phase"),
        ("TURN~", "hc.help_shortage"),
        ("C", "hc.help_compost"),
        ("V", "hc.help_validated"),
    ),
    (("↑↓", "hc.help_player"), ("←→", "hc.help_drop"), ("TURN", "hc.help_round")),
    (("↑↓", "hc.help_player"), ("→", "hc.help_points"), ("TURN", "hc.help_finish")),
)


SETUP = (
    table.players(),
    table.FIRST,
    table.SEATS,
    table.field("quick", "hc.quick_draft", table.ON_OFF),
)


def new_state(values):
    n = values["players"]
    return rules.new(n, values["col"][:n], values["first"], values["quick"])


class GameScreen(table.GameScreen):
    laid: list = []  # (set per screen)

    def __init__(self, app):
        self.hold_gain = self.hold_player = 0  # the hold of RIGHT going on: compost gained, player
        self.mark = None
        # each player's row in the mixes, with what it shows (see line)
        self.laid = [None] * app.engine.state["n"]
        self.follow(app)

    def follow(self, app):
        # A new phase or handover (undo and redo too): the cursor goes to the active player.
        state = app.engine.state
        if self.mark != (state["act"], state["ph"]):
            self.cursor = state["act"]
            self.mark = (state["act"], state["ph"])
            self.HELP = PHASE_HELP[state["ph"]] + table.GameScreen.HELP[2:]

    def on_key(self, app, key, kind):
        state = app.engine.state
        if key in (keys.UP, keys.DOWN):
            if kind == SHORT:
                self.cursor = (self.cursor + (1 if key == keys.DOWN else -1)) % state["n"]
        elif key == keys.RIGHT and kind == REPEAT and state["ph"] == rules.MIXES:
            self.change(app, state, 1, 2)
        elif key in (keys.LEFT, keys.RIGHT):
            if kind in (SHORT, LONG):
                self.change(app, state, 1 if key == keys.RIGHT else -1, kind - SHORT)
        elif key == keys.TURN and kind == SHORT:
            if state["ph"] == rules.FINAL:
                app.push(ConfirmScreen("q.end", lambda: self.finish(app)))
            elif state["ph"] == rules.DRAFT:
                if app.act((NEXT, 0, 0)):
                    app.clock.turn_mark = -1  # the first turn starts after the draft
                    app.clock.follow(app.engine.state, app.now)
            elif app.act((NEXT, app.clock.turn_seconds(app.now), 0)):
                if app.engine.state["ph"] == rules.FINAL:
                    app.push(PointsScreen(0))  # the last phase is over: the points at once
                warn(app)
        elif key == keys.TURN and kind == LONG:
            # the active player declares a shortage: +1 compost once the others agree
            if state["ph"] != rules.MIXES:
                app.refuse("hc_not_mixes")
            elif state["sh"]:
                app.refuse("hc_shortage_done")
            else:
                p = state["act"]
                app.push(
                    ConfirmScreen(
                        "hc.shortage_ask", lambda: app.act((rules.SHORTAGE, p, 0)) and warn(app)
                    )
                )
        elif key != keys.TURN:
            table.GameScreen.on_key(self, app, key, kind)
        app.changed()
        return True

    def hidden(self, app):
        # the game runs the rounds, and the active role passes clockwise
        return ("pass", "skip", "round+", "round-", S_DIR, S_ROT, S_LAP)

    def change(self, app, state, delta, held):
        # LEFT (delta -1) or RIGHT (+1) for the player under the cursor; held: 0 a short press,
        # 1 a hold, 2 its repeats.
        p = self.cursor
        if state["ph"] == rules.DRAFT:
            app.refuse("hc_in_draft")
        elif state["ph"] == rules.ROUND_END:
            if not held:
                app.act((rules.DISCARD, p, state["dc"][p] + delta))
        elif state["ph"] == rules.FINAL:
            if not held:
                app.push(PointsScreen(p))
        elif delta > 0 and held:
            # RIGHT held: a card validated with +1 compost (its bonus), +1 more at each repeat;
            # the whole hold is one undo step (the last one replaced by one with more compost)
            if held == 1:
                self.hold_gain = 0
                self.hold_player = p
            p = self.hold_player
            if self.hold_gain:
                app.engine.undo()
            if app.act([(rules.VALID, p, 1), (rules.GAIN, p, self.hold_gain + 1)]):
                self.hold_gain += 1
                text = " " + app.tr("hc.gain_text").replace("{}", str(self.hold_gain))
                self.check(app, state, p, text)
                warn(app)
            elif self.hold_gain:
                app.act([(rules.VALID, p, 1), (rules.GAIN, p, self.hold_gain)])  # the limit
        elif delta > 0:
            if app.act((rules.VALID, p, 1)):
                self.check(app, state, p, "")
        elif held:
            app.push(MixScreen(app))
        else:
            app.push(SpendScreen(p))

    def check(self, app, state, p, text):
        # After a card validated: what it did, and the cursor on to the next player.
        if state["vr"][p] == state["nc"][p]:
            text = " " + app.tr("hc.all_valid")  # the round stops after this phase
        else:
            text = " " + str(state["vr"][p]) + "/" + str(state["nc"][p]) + text
        app.say(names_in(state, "%p" + text, (("%p", p),)))
        self.cursor = (p + 1) % state["n"]

    def rows(self, app):
        state = app.engine.state
        ph = state["ph"]
        # round, mixes, supply, compost, validated, drop, "over: discards", "Final scoring", !, /
        words = app.tr("hc.row_words").split("|")
        title = words[0] + str(state["rnd"]) + " "
        if ph == rules.DRAFT:
            lines = app.tr("hc.quick_lines" if state["quick"] else "hc.draft_lines").split("|")
            lines[0] = table.header(app, title + lines[0])
            for i in range(1, len(lines)):
                lines[i] = fit(lines[i], COLS)
            return lines
        n = state["n"]
        stop = 0  # someone has validated all their cards: the round stops after this phase
        for p in range(n):
            if state["vr"][p] == state["nc"][p]:
                stop = 1
        if ph == rules.MIXES:
            title += words[1] + " " + str(state["mx"]) + (words[8] if stop else "") + " "
            if not table.timer_text(app):  # the supply, when no timer takes its room
                title += words[2] + str(24 - sum(state["cp"]))
            out = [table.header(app, title)]
        else:
            out = [fit(title + words[6] if ph == rules.ROUND_END else words[7], COLS)]
        for p in range(n):
            out.append(self.line(state, p, words))
        while len(out) < 4:  # 2 players: a blank row
            out.append(fit("", COLS))
        if n < 4:  # a row to spare: the keys, or that the round stops after this phase
            lines = app.tr("hc.hint_lines").split("|")  # mixes, last phase, round end, final
            out.append(fit(lines[ph if ph > 1 else 1 if stop else 0], COLS))
        return out

    def line(self, state, p, words):
        # A player's row in the mixes, at the round end, at the final scoring.
        ph = state["ph"]
        if ph == rules.MIXES:
            # kept by what it shows: a handover or a card validated lays out one or two rows
            names = state.get("names")
            shown = (
                p,
                p == self.cursor,
                p == state["act"],
                state["cp"][p],
                state["vc"][p],
                state["vr"][p],
                state["nc"][p],
                state["col"][p],
                names and names[p],
                words[3] + words[4] + words[9],  # the words it is made with (a language)
            )
            kept = self.laid
            if kept[p] is None or kept[p][0] != shown:
                kept[p] = (shown, self.item(state, p, words))
            return kept[p][1]
        text = fit((CURSOR if p == self.cursor else " ") + player_tag(state, p), 6)
        if ph == rules.ROUND_END:
            count = state["dc"][p]
            text = text[:5] + words[5] + " " + str(count) + words[9]
            text += str(state["nc"][p] - state["vr"][p])
            return split(text, words[3] + right(str(state["cp"][p] + count), 2))
        # validated cards, card points + Synergy + Earthworms, the total, * = the winner so far
        totals = rules.totals(state)
        best = rules.winners(list(range(state["n"])), totals, state["vc"])
        values = state["fp"][3 * p : 3 * p + 3]
        text = text[:5] + words[4] + right(str(state["vc"][p]), 2) + " " + " " + str(values[0])
        text += "+" + str(values[1]) + "+" + str(values[2])
        return split(text, " " + str(totals[p]) + ("*" if p in best else " "))

    def item(self, state, p, words):
        # a player's row in the mixes, laid out (see line)
        text = fit((CURSOR if p == self.cursor else " ") + player_tag(state, p), 6)
        if p == state["act"]:
            text = text[:4] + "*" + " "
        text += words[3] + right(str(state["cp"][p]), 2)
        text += right(words[4] + right(str(state["vc"][p]), 2), 5)
        return fit(text + right(str(state["vr"][p]), 3) + words[9] + str(state["nc"][p]), COLS)

    def finish(self, app):
        # End game (menu, or TURN at the final scoring): first the points, then the result.
        while app.screen() is not self and len(app.stack) > 1:
            app.pop()  # the menu under the confirmation
        state = app.engine.state
        if state["ph"] != rules.FINAL:
            if app.act((rules.SCORING, 0, 0)):
                app.say("hc.points_now")
                self.follow(app)
            return
        totals = rules.totals(state)
        template = app.tr("hc.result_parts")  # card points, Synergy, Earthworms
        parts = [view.fill(template, state["fp"][3 * p : 3 * p + 3]) for p in range(state["n"])]
        winners = rules.winners(list(range(state["n"])), totals, state["vc"])
        app.finish_game(totals, winners, parts, app.tr("hc.tie_rule"))
