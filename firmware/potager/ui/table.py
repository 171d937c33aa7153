"""The table part every mode shares: setup fields for seats and colours, the game screen
base (TURN, undo, menu, help) and the ring that shows who is where and whose turn it is."""

from potager.core import keys, table
from potager.core.gestures import LONG, SHORT
from potager.ui import view
from potager.ui.screens import MenuScreen, Screen

# LED levels out of 255 (the NeoPixel brightness cap applies on top)
SEAT_LEVEL = 24  # every seat glows dimly in its colour: who sits where
ACTIVE_LEVEL = 255


def default_setup(players=4):
    return {"players": players, "first": 0, "col": [0, 1, 2, 3, 4, 5]}


def setup_fields(app, values):
    """(label, value) rows: players, first player, then a colour per player."""
    n = values["players"]
    out = [
        (app.tr("players"), str(n)),
        (app.tr("first"), "P" + str(values["first"] + 1)),
    ]
    for p in range(n):
        colour = view.COLOURS[values["col"][p]]
        out.append(("P" + str(p + 1), colour[1] + " " + app.tr(colour[2])))
    return out


def setup_change(values, field, delta, lo=1, hi=table.MAX_PLAYERS):
    """Change one field of the table setup; a reason key when it cannot move."""
    n = values["players"]
    if field == 0:
        if not lo <= n + delta <= hi:
            return "bad_players"
        values["players"] = n + delta
        values["first"] = min(values["first"], n + delta - 1)
    elif field == 1:
        values["first"] = (values["first"] + delta) % n
    else:
        # cycle this player's colour, skipping those other players already have
        p = field - 2
        taken = values["col"][:n]
        colour = values["col"][p]
        for _ in range(len(view.COLOURS)):
            colour = (colour + delta) % len(view.COLOURS)
            if colour not in taken:
                values["col"][p] = colour
                return None
        return "colour_twice"
    return None


class GameScreen(Screen):
    """TURN hands over (hold: back a seat), BACK undoes (hold: redo), OK opens the menu."""

    HELP: tuple = (
        ("TURN", "h.turn"),
        ("TURN~", "h.turn_back"),
        ("BACK", "h.undo"),
        ("BACK~", "h.redo"),
        ("OK", "h.menu"),
        ("OK~", "h.help"),
    )

    def on_key(self, app, key, kind):
        if key == keys.TURN:
            if kind == SHORT:
                app.act((table.NEXT, 0, 0))
            elif kind == LONG:
                app.act((table.PREV, 0, 0))
        elif key == keys.BACK:
            if kind == SHORT:
                app.undo()
            elif kind == LONG:
                app.redo()
        elif key == keys.OK and kind == SHORT:
            app.push(MenuScreen(self))
        elif key == keys.OK and kind == LONG:
            Screen.on_key(self, app, key, kind)
        else:
            return False
        app.changed()
        return True

    def leds(self, app, out):
        ring_leds(app, out)


def ring_leds(app, out):
    """Each seat dim in its colour; the active seat bright, blinking (its own rhythm)."""
    for i in range(len(out)):
        out[i] = 0
    state = app.engine.state
    n = state["n"]
    for p in range(n):
        rgb = view.COLOURS[state["col"][p]][0]
        level = ACTIVE_LEVEL if p == state["act"] and app.blink_on else SEAT_LEVEL
        out[table.seat_pixel(p, n)] = view.dim(rgb, level)
