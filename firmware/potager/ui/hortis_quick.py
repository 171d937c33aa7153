# HORTIS quick count: a finished forest (Automne) or grove (Grove), die faces counted.
#
# Row 0: the score as entered and the player; rows 1-4: the form, a field a row (dice per
# face, then the penalties and tokens), scrolling. LEFT/RIGHT change the field under the
# cursor (yes/no fields: either one toggles); the limits (15 dice, penalties within the dice
# counted) are the reducer's, refused with a message. OK: the result.

from potager.core import keys
from potager.core.games import hortis
from potager.core.gestures import SHORT
from potager.ui import table
from potager.ui.view import COLS, menu_rows, split

HELP = (
    (
        ("▲▼", "h.field"),
        ("◄►", "hortis.help_change"),
        ("OK", "hortis.help_result"),
        ("TURN", "hortis.help_player"),
    )
    + table.GameScreen.HELP[1:4]  # hold TURN, BACK, hold BACK
    + table.GameScreen.HELP[5:]  # hold OK
)


def rows(screen, app):
    state = app.engine.state
    p, g = state["act"], state["g"]
    items = []
    for i, v in enumerate(state["q"][p]):
        value = app.tr("yes" if v else "no") if i == 7 or (g and i == 8) else str(v)
        label = app.tr(("hortis.grove" if g else "hortis.automne") + str(i))
        items.append(split(label, value + " ", COLS - 1))
    title = app.tr("hortis.score") + " " + str(hortis.score(state, p))
    return menu_rows(table.header(app, title), items, screen.cursor)


def on_key(screen, app, key, kind):
    state = app.engine.state
    p, g = state["act"], state["g"]
    q = state["q"][p]
    f = screen.cursor
    if key == keys.OK:
        return True  # the result
    if key in (keys.UP, keys.DOWN):
        screen.cursor = (f + (1 if key == keys.DOWN else -1)) % len(q)
    elif f != 7 and not (g and f == 8):  # a count; else yes/no
        app.act((hortis.FIELD, p * 32 + f, q[f] + (1 if key == keys.RIGHT else -1)))
    elif kind == SHORT:
        app.act((hortis.FIELD, p * 32 + f, 1 - q[f]))
    return False


def leds(screen, app, out):
    table.ring_leds(app, out)
