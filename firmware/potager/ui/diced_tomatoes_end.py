# Diced Tomatoes: the final score. Asks only what the device cannot know, the dice left on each
# player's unfinished vines (←→, held ±3 then ±1 every 0.4 s; OK: the next player), kept here
# and saved as one undo step by OK on the last player, before the question to record the game;
# shows every total, the leaders (*), the breakdown of the player under the cursor (solo: the
# goal, won or lost).
# RAM: see potager.ui.diced_tomatoes.

from potager.core import history, keys
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import LONG, REPEAT, SHORT
from potager.ui.diced_tomatoes import label
from potager.ui.screens import ConfirmScreen, ListScreen
from potager.ui.view import COLS, fit, menu_rows, player_tag, right


def screen(app, game_screen):
    return Form(app.engine.state)


def totals(state):
    # each player's final score's parts (dt.parts), then the totals and the winners: the best
    # total, ties shared; solo: won when all 6 slots are filled
    out = []
    for p in range(state["n"]):
        h = state["hv"][p]
        out.append(dt.parts(h, state["ka"][p], state["dv"][p], state["full"] == p, state["opt"]))
    values = [sum(t[:5]) for t in out]
    if state["n"] > 1:
        return out, values, history.winners_of(values)
    return out, values, [0] if len(state["hv"][0]) == 6 else []


def text(app, state, t):
    # e.g. "25+11*+2K+1D+2!=41": slots, stars, Karma pairs, dice, the 6th-harvest bonus
    star = "+" + str(t[1]) + "*" if state["opt"] & 1 else ""
    trigger = app.tr("dt.final_trigger") if t[4] else ""
    return label(app, "dt.final_parts", t[0], star, t[2], t[3], trigger, sum(t[:5]))


class Form(ListScreen):
    def __init__(self, state):
        ListScreen.__init__(self)
        self.values = list(state["dv"])  # the dice entered, saved by OK on the last player
        self.held = False  # a hold of ←→ begun here (not one that ended the game)

    def state(self, app):
        # the game as it would be with the dice entered
        ended = dict(app.engine.state)
        ended["dv"] = self.values
        return ended

    HELP: tuple = (
        ("↑↓", "dt.help_player"),
        ("←→", "dt.help_dice_left"),
        ("←→~", "dt.help_three_dice"),
        ("OK", "dt.help_next_record"),
        ("*", "dt.help_star_bonus"),
        ("K", "dt.help_karma_pairs"),
        ("D", "dt.help_dice_bonus"),
        ("!", "dt.help_sixth_harvest"),
        ("BACK", "h.back"),
    )

    def items(self, app):
        state = self.state(app)
        values, best = totals(state)[1:]
        name = app.tr("dt.final_vines" if state["opt"] & 8 else "dt.final_dice")
        out = []
        for p in range(state["n"]):
            head = player_tag(state, p) + ("*" if p in best else " ")
            head += right(str(state["dv"][p]), 3) + " " + fit(name, 6)
            out.append(head + right(str(values[p]), 20 - len(head)))
        return out

    def on_key(self, app, key, kind):
        if key in (keys.LEFT, keys.RIGHT) and (kind != REPEAT or self.held):
            # held: a bonus's worth at once (3 dice), or one vine with the per-vine bonus, then
            # one more at each repeat
            self.held = kind != SHORT
            step = 3 if kind == LONG and not app.engine.state["opt"] & 8 else 1
            v = self.values[self.cursor] + (step if key == keys.RIGHT else -step)
            if v < 0 or v > (3 if app.engine.state["opt"] & 8 else 9):
                app.refuse("dt_dice_out_of_range")
            else:
                self.values[self.cursor] = v
            app.changed()
            return
        ListScreen.on_key(self, app, key, kind)

    def choose(self, app, index):
        state = app.engine.state
        if index + 1 < state["n"]:
            self.cursor += 1  # the next player's dice
            return
        out = []
        for p in range(state["n"]):
            if self.values[p] != state["dv"][p]:
                out.append((dt.DICE, p, self.values[p]))
        if out and not app.act(out):
            return

        def on_yes():
            state = app.engine.state
            parts, values, best = totals(state)
            app.finish_game(values, best, [text(app, state, t) for t in parts])

        app.push(ConfirmScreen("dt.question_record", on_yes))

    def rows(self, app):
        state = self.state(app)
        title = app.tr("dt.final_title_" + str(state["opt"] >> 3 & 1))
        parts = totals(state)[0]
        if state["n"] > 1:
            out = menu_rows(title, self.items(app), self.cursor, 4)
            return out + [fit(text(app, state, parts[self.cursor]), COLS)]
        key = "dt.solo_won_count" if len(state["hv"][0]) == 6 else "dt.solo_lost_count"
        out = menu_rows(title, self.items(app), 0, 2) + [" " * COLS]
        return out + [
            fit(text(app, state, parts[0]), COLS),
            fit(label(app, key, parts[0][5]), COLS),
        ]
