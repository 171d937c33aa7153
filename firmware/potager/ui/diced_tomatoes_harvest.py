# Diced Tomatoes: the harvest form, drawn over the game's table. A vine of 4 dice: its seed
# die (LEFT/RIGHT, held ±3; from its slot's number: a star), black dice (DOWN: one more, the
# value one lower) and, under Golden Sun, gold dice (UP: one more; UP and DOWN take back a die
# of the other colour first). Until LEFT/RIGHT move it, the seed goes with the dice so that
# the value stays the star's (a black die on a seed one above its slot is the common way to a
# star). The table shows what OK would do (the reducer itself is asked, on a copy of the
# state): the harvested row, marked →, has the value in its slot, the Karma gained is in the
# active player's row; a vine that would be uprooted shows its value with ? and the bottom row
# says why. Otherwise the bottom row holds the dice: "Seed 3 ↓1 *+4 ●P2 K+2" (↓ black, ↑ gold,
# the star's points, the Karma gained and by whom, the name left out where it does not fit).
# TURN harvests and hands over. On the board a screen change costs ~80 ms; the table staying,
# opening the form changes a row and a slot.
# RAM: see potager.ui.diced_tomatoes.

from potager.core import keys
from potager.core.engine import clone
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import LONG, SHORT
from potager.ui.diced_tomatoes import first_shown, label, lines
from potager.ui.screens import Screen
from potager.ui.view import COLS, fit, names_in, player_tag


def screen(app, game_screen):
    return Form(app.engine.state, game_screen)


class Form(Screen):
    HELP: tuple = (
        ("←→", "dt.help_seed"),
        ("←→~", "dt.help_seed_three"),
        ("↓", "dt.help_black"),
        ("↑", "dt.help_gold"),
        ("OK", "dt.help_harvest"),
        ("TURN", "dt.help_harvest_turn"),
        ("BACK", "h.back"),
    )

    def __init__(self, state, game):
        self.game = game  # its ring stays: the active seat, their Karma
        self.player = player = game.cursor
        self.slot = len(state["hv"][player]) + 1
        self.values = [self.slot, 0, 0]  # seed die (its slot's number: a star), black, gold
        self.held = False  # the seed moved by ←→: the dice no longer move it

    def on_key(self, app, key, kind):
        if key in (keys.LEFT, keys.RIGHT) and kind in (SHORT, LONG):
            v = self.values
            step = 1 if kind == SHORT else 3  # held: 3 faces at once (1 4, 2 5, 3 6)
            v[0] = (v[0] + (step if key == keys.RIGHT else -step) - 1) % 6 + 1
            self.held = True
        elif key in (keys.UP, keys.DOWN) and kind == SHORT:
            self.dice(app, 2 if key == keys.UP else 1)
        elif key == keys.TURN and kind == SHORT:
            if self.choose(app, 0):
                app.screen().on_key(app, key, kind)  # and the turn goes on
            return
        elif key == keys.OK and kind == SHORT:
            self.choose(app, 0)
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def dice(self, app, i):
        # one die more of kind i (1 black, 2 gold), or one of the other kind taken back
        v = self.values
        other = 3 - i
        if v[other]:
            v[other] -= 1
        elif i == 2 and not app.engine.state["opt"] & 4:
            app.refuse("dt_golden_sun_off")
        elif v[1] + v[2] >= 3:
            app.refuse("dt_four_dice_a_vine")  # the seed and 3 more dice make a vine
        else:
            v[i] += 1
        if not self.held:  # the seed untouched: the value stays the slot's number (a star)
            v[0] = min(max(self.slot + v[1] - v[2], 1), 6)

    def value(self):
        return self.values[0] - self.values[1] + self.values[2]

    def text(self, app, state, after):
        # the dice, the star's points (Tomato Dice), the active player's Karma gained
        v = self.values
        out = label(app, "dt.form_seed", v[0]) + " ↓" + str(v[1])
        if state["opt"] & 4:
            out += " ↑" + str(v[2])
        if state["opt"] & 1 and self.value() == self.slot:
            out += label(app, "dt.preview_star", 7 - self.slot)
        p = state["act"]
        if after["ka"][p] != state["ka"][p]:  # with who gains it, where it fits
            gain = label(app, "dt.preview_gain", after["ka"][p] - state["ka"][p])
            who = " " + player_tag(state, p) + gain
            out += who if len(out) + len(who) <= COLS else gain
        return out

    def choose(self, app, index):
        state = app.engine.state
        p = state["act"]
        t = state["full"]
        k = state["ka"][p]
        v = self.value()
        if not app.act((dt.HARVEST, self.player, v)):
            return False  # refused: the message says why (uprooted, slots full...)
        app.pop()
        game = app.screen()
        game.cursor = state["act"]  # back on the active player: their own vines come most
        if state["full"] != t:
            said = label(app, "dt.last_round_to", "%p")
            said = names_in(state, said, (("%p", state["mark"]),))
        elif state["ka"][p] != k:
            said = label(app, "dt.karma_gained", state["ka"][p] - k, state["ka"][p])
            said = names_in(state, "%p " + said, (("%p", p),))
        else:
            said = label(app, "dt.harvest_done", self.slot, v)
            if state["opt"] & 1 and v == self.slot:
                said += label(app, "dt.preview_star", 7 - v)
            said = names_in(state, "%p " + said, (("%p", self.player),))
        app.say(said)
        return True

    def leds(self, app, out):
        self.game.leds(app, out)

    def rows(self, app):
        state = app.engine.state
        after = clone(state)
        v = self.value()
        reason = dt.reduce(after, (dt.HARVEST, self.player, v))
        # the rows the harvest leaves as they are come from the game's (one layout less)
        fresh = () if reason else (self.player, state["act"])
        seats = 4 if state["n"] == 4 else 3  # 4 players: each seat where the game shows it
        out = lines(app, after if fresh else state, self.player, self.game.laid(app), fresh, seats)
        row = (
            1 if state["n"] == 1 else 1 + self.player - first_shown(state["n"], self.player, seats)
        )
        shown = out[row]
        if reason:  # the value in its slot, with ?: the vine would be uprooted
            at = len(shown) - 12 + 2 * (self.slot - 1)  # the six slots end the row
            shown = shown[:at] + (str(v) if 0 <= v <= 9 else "-") + "?" + shown[at + 2 :]
        out[row] = "→" + shown[1:]
        status = fit(app.tr("r." + reason) if reason else self.text(app, state, after), COLS)
        if seats == 4:  # on row 0, as the game's status: opening the form redraws 2 rows
            out[0] = status
        else:
            out.append(status)
        return out
