"""Horticolor's player screens: compost, a validated card's bonus, the final points."""
# Spending: the usual spends in a list (SpendList), or 1, 2 or 4 tokens named by their effect,
# combined (3 = colour + value, 10 = two marbles + value: SpendScreen); more than the player
# holds is refused. The final points: card points, Synergy, Earthworms (the players count them
# from their cards) and the validated cards (tracked in play; the tie-break); LEFT/RIGHT -1/+1,
# held -10/+10, OK the next field, then the next player. (Imported with horticolor.py: see
# there on RAM.)

from potager.core import keys
from potager.core.games import horticolor as rules
from potager.core.gestures import SHORT
from potager.ui.screens import ConfirmScreen, ListScreen
from potager.ui.view import COLS, fit, player_tag, right, split


def warn(app):
    # After a gain: beyond the shared supply of 24 is worth a warning (the gain stands).
    if sum(app.engine.state["cp"]) > 24:
        app.say("hc.supply_over")


class SpendScreen(ListScreen):
    # First the usual spends by their cost (1 colour, 2 value, 3 both, 4 marble), any other mix
    # of effects, or a validated card taken back; "any other mix": how many of each effect
    # (LEFT/RIGHT), then the cost; OK spends. (One class for both: RAM, see horticolor.py.)

    HELP: tuple = (("↑↓", "h.field"), ("←→", "h.change"), ("OK", "hc.help_spend_ok"))
    HELP += (("BACK", "h.back"),)

    def __init__(self, player):
        ListScreen.__init__(self)
        self.player = player
        self.values = None  # the list; then colours ignored, values shifted, free marbles

    def title(self, app):
        state = app.engine.state
        text = player_tag(state, self.player) + " " + app.tr("hc.compost_of") + " "
        return text + str(state["cp"][self.player])

    def items(self, app):
        if self.values is None:
            return app.tr("hc.spend_lines").split("|")
        held = app.engine.state["cp"][self.player]
        count = rules.compost_cost(*self.values)
        out = app.tr("hc.effect_lines").split("|")
        for i in range(3):
            out[i] = fit(out[i], 18) + right(str(self.values[i]), 2)
        lines = app.tr("hc.cost_lines").split("|")  # the cost, the cost when too high
        if count > held:
            return out + [lines[1].format(count, held)]
        return out + [lines[0].format(count, held - count)]

    def on_key(self, app, key, kind):
        if key in (keys.LEFT, keys.RIGHT) and kind == SHORT and self.values is not None:
            if self.cursor < 3:
                count = self.values[self.cursor] + (1 if key == keys.RIGHT else -1)
                self.values[self.cursor] = min(max(count, 0), 9)
            app.changed()
        else:
            ListScreen.on_key(self, app, key, kind)

    def choose(self, app, index):
        p = self.player
        if self.values is None:
            if index == 4:
                self.values = [0, 0, 0]  # any other mix
                self.cursor = 0
            elif index == 5:
                if app.act((rules.VALID, p, -1)):
                    app.pop()
            elif app.act((rules.SPEND, p, (1, 16, 17, 256)[index])):
                app.pop()
                app.say("hc.compost_spent")
            return
        a, b, n = self.values
        if not rules.compost_cost(a, b, n):
            app.refuse("hc_no_effect")
        elif app.act((rules.SPEND, p, a | b << 4 | n << 8)):
            app.pop()
            app.say("hc.compost_spent")


class PointsScreen(ListScreen):
    HELP = (("↑↓", "h.field"), ("←→", "hc.help_points1"), ("BACK", "h.back"))

    def __init__(self, player):
        ListScreen.__init__(self)
        self.player = player

    def title(self, app):
        state = app.engine.state
        total = rules.totals(state)[self.player]
        return player_tag(state, self.player) + " " + app.tr("hc.total_of") + " " + str(total)

    def items(self, app):
        state = app.engine.state
        p = self.player
        values = state["fp"][3 * p : 3 * p + 3] + [state["vc"][p]]
        lines = app.tr("hc.points_lines").split("|")
        for i in range(4):
            lines[i] = split(lines[i], " " + str(values[i]) + " ", COLS - 1)
        return lines

    def on_key(self, app, key, kind):
        if key not in (keys.LEFT, keys.RIGHT):
            ListScreen.on_key(self, app, key, kind)
            return
        step = (1 if kind == SHORT else 10) * (1 if key == keys.RIGHT else -1)
        p = self.player
        if self.cursor == 3:
            if kind == SHORT:
                app.act((rules.VALID, p, step))
        else:
            value = app.engine.state["fp"][3 * p + self.cursor] + step
            if kind != SHORT:
                value = min(max(value, 0), 999)  # held: stop at the limits
            app.act((rules.POINTS, p * 4 + self.cursor, value))
        app.changed()

    def choose(self, app, index):
        # OK: the next field; after the Earthworms, the next player's points; after the last
        # player's, the end of the game (confirmed)
        if index < 2:
            self.cursor += 1
        elif self.player + 1 < app.engine.state["n"]:
            app.replace(PointsScreen(self.player + 1))
        else:
            app.pop()
            game = app.screen()
            app.push(ConfirmScreen("q.end", lambda: game.finish(app)))
