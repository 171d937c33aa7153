"""The table part every mode shares: setup fields for seats and colours, the game screen
base (TURN, undo, menu, help) and the ring that shows who is where and whose turn it is."""

from potager.core import clock, keys, registry, table
from potager.core.gestures import LONG, SHORT
from potager.ui import view
from potager.ui.screens import Screen

# LED levels out of 255 (the NeoPixel brightness cap applies on top)
SEAT_LEVEL = 24  # every seat glows dimly in its colour: who sits where
NEXT_LEVEL = 72  # the next player, previewed
ACTIVE_LEVEL = 255
DRAIN_LEVEL = 40


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
        if delta > 0 and values["col"][n] in values["col"][:n]:
            # the new player's default colour was taken by a change: the first free one
            for colour in range(len(view.COLOURS)):
                if colour not in values["col"][:n]:
                    values["col"][n] = colour
                    break
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
                app.act((table.NEXT, app.clock.turn_seconds(app.now), 0))
            elif kind == LONG:
                app.act((table.PREV, 0, 0))
        elif key == keys.BACK:
            if kind == SHORT:
                app.undo()
            elif kind == LONG:
                app.redo()
        elif key == keys.OK and kind == SHORT:
            app.push(registry.load("potager.ui.menu").MenuScreen(self))
        elif key == keys.OK and kind == LONG:
            Screen.on_key(self, app, key, kind)
        else:
            return False
        app.changed()
        return True

    def leds(self, app, out):
        ring_leds(app, out)

    def finish(self, app):
        """ "End game" from the menu; each mode runs its own final scoring from here."""
        app.refuse("bad_action")


def clock_text(seconds):
    """m:ss, or h:mm:ss past an hour; a minus sign for overtime."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    minutes = seconds // 60
    text = str(minutes % 60 if minutes >= 60 else minutes) + ":" + str(100 + seconds % 60)[1:]
    if minutes >= 60:
        text = str(minutes // 60) + ":" + str(100 + minutes % 60)[1:] + text[text.index(":") :]
    return sign + text


def timer_text(app):
    """What the header shows of the timers: turn countdown, else the bank, else the round."""
    clock = app.clock
    state = app.engine.state
    if clock.paused:
        return app.tr("paused")
    if state["tt"]:
        left = clock.turn_left(app.now, state)
        return ("+" + clock_text(-left)) if left < 0 else clock_text(left)
    if state["tb"]:
        return "B" + clock_text(clock.bank_left(app.now, state))
    if state["rt"]:
        return clock_text(clock.round_left(app.now, state))
    return ""


def header(app, title):
    """Row 0 of every game screen: title (round...), timer, the active player's tag."""
    state = app.engine.state
    timer = timer_text(app)
    left = title + " " + timer if timer else title
    return view.split(left, view.player_tag(state, state["act"]))


# ring colours of the turn countdown's stages: plenty, half gone, last fifth, overtime
STAGES = (0x00C000, 0xFFA000, 0xFF0000)


def ring_leds(app, out):
    """Each seat dim in its colour, the next one a little brighter, the active one blinking
    bright; with a turn countdown, the ring drains in the colour of its stage."""
    for i in range(len(out)):
        out[i] = 0
    state = app.engine.state
    if state["tt"]:
        left = app.clock.turn_left(app.now, state)
        total = state["tt"]
        stage = min(clock.warning_stage(left, total), clock.LAST_FIFTH)
        lit = (len(out) * left + total - 1) // total if left > 0 else len(out)
        if left > 0 or app.fast_blink_on:
            for i in range(lit):
                out[i] = view.dim(STAGES[stage], DRAIN_LEVEL)
    n = state["n"]
    upcoming = table.next_in(state, state["act"])
    for p in range(n):
        rgb = view.COLOURS[state["col"][p]][0]
        if p == state["act"]:
            level = ACTIVE_LEVEL if app.blink_on else SEAT_LEVEL
        else:
            level = NEXT_LEVEL if p == upcoming else SEAT_LEVEL
        out[state["seat"][p]] = view.dim(rgb, level)
