"""Horticolor's mix helper: the four dice and the three ways to pair them into two mixes."""
# The dice are entered one key a die, the cursor then on the next one (UP 1, RIGHT 2, DOWN 3,
# LEFT 4, OK 5, TURN 6, as the bottom row says; LEFT/RIGHT held move the cursor; saved on
# leaving, one undo step) or rolled by the device (TURN held);
# each pairing shows its two mixes with their sums and the colours (dice) in each: row 0
# "Dice▶●4 ▲6 ♥3 ♣5", rows 1-3 " 10=●4+▲6    8=♥3+♣5". The ring shows the dice in their
# colours, a quarter each (the chosen one brighter). A roll is an action carrying the values:
# replaying the log gives the same dice. (Imported with horticolor.py: see there on RAM.)

from potager.core import keys
from potager.core.games import horticolor as rules
from potager.core.gestures import LONG, SHORT
from potager.ui.screens import Screen
from potager.ui.view import COLOURS, COLS, CURSOR, dim, fit, right

# the dice's colours (in view.COLOURS) in the rulebook's order: blue, yellow, red, green
DICE = (COLOURS[1], COLOURS[3], COLOURS[0], COLOURS[2])


def roll(now):
    # Four dice from the time of the press (ms): a human's timing is the randomness, and
    # the same press gives the same dice on every port (tests compare them).
    value = now & 0xFFFFFF
    out = 0
    for i in range(4):
        value = (value * 1103515245 + 12345) & 0x7FFFFFFF
        out |= ((value >> 16) % 6 + 1) << 3 * i
    return out


def tag(dice, i):
    # A die: its colour's symbol and its value ("-" not entered).
    return DICE[i][1] + (str(dice[i]) if dice[i] else "-")


class MixScreen(Screen):
    # The dice typed are kept here and saved as one action when leaving (BACK): one undo step.
    HELP: tuple = (("↑→↓←", "hc.help_value"), ("OK", "hc.help_five"), ("TURN", "hc.help_six"))
    HELP += (("←~→~", "hc.help_die"), ("TURN~", "hc.help_roll"), ("BACK", "h.back"))

    def __init__(self, app):
        self.cursor = 0
        self.dice = list(app.engine.state["dice"])

    def on_key(self, app, key, kind):
        values = self.dice
        i = self.cursor
        # a die's value from its key (the faces in the order of the bottom row), then the next
        face = (1, 3, 4, 2, 5, 0, 6)[key]  # UP, DOWN, LEFT, RIGHT, OK, BACK, TURN
        if kind == SHORT and face:
            values[i] = face
            self.cursor = (i + 1) % 4
        elif key in (keys.LEFT, keys.RIGHT) and kind == LONG:
            # held: the cursor moves (not at the repeats: the hold that opened this screen's)
            self.cursor = (i + (1 if key == keys.RIGHT else -1)) % 4
        elif key == keys.TURN and kind == LONG:
            if app.act((rules.DICE, roll(app.now), 0)):
                self.dice = list(app.engine.state["dice"])
        elif key == keys.BACK and kind == SHORT:
            if values != app.engine.state["dice"]:
                app.act(
                    (rules.DICE, values[0] | values[1] << 3 | values[2] << 6 | values[3] << 9, 0)
                )
            app.pop()
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def rows(self, app):
        dice = self.dice
        text = app.tr("hc.dice_title")
        for i in range(4):
            text += (CURSOR if i == self.cursor else " ") + tag(dice, i)
        out = [fit(text, COLS)]
        values = rules.pairings(dice)
        for k in range(3):
            a, b = values[k]
            item = rules.PAIRS[k]
            text = right(str(a), 3) + "=" + tag(dice, item[0]) + "+" + tag(dice, item[1])
            text += right(str(b), 5) + "=" + tag(dice, item[2]) + "+" + tag(dice, item[3])
            out.append(fit(text if all(dice) else "", COLS))
        return out + [fit(app.tr("hc.dice_hint"), COLS)]

    def leds(self, app, out):
        dice = self.dice
        for i in range(len(out)):
            k = i * 4 // len(out)
            level = 160 if k == self.cursor else 40
            out[i] = dim(DICE[k][0], level) if dice[k] else 0
