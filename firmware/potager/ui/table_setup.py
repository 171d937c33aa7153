# The setup form's fields, laid out and changed from the data a mode declares (its screen
# module's SETUP: see potager.ui.table.field). Loaded for the setup only (potager.ui.setup;
# App.start_game forgets it).
#
# The fields every table shares have their own names: "players" (as many as the mode's
# descriptor allows: registry LOW, HIGH), "first" (a seat, or random), "last" (the seat before
# the first: moving either moves both), "col" (a row a player: their colour). Any other field
# cycles through its choices, or is the mode's own (no choices: its setup_line and setup_move).

from potager.core import registry
from potager.core.engine import clone
from potager.ui import view
from potager.ui.table import BIT, CHOICES, DEFAULT, HELD, LABEL, NAME, ROWS


def default_setup(fields):
    # the values a new form starts with; first == players: a random first player
    values = {"first": 0, "col": [0, 1, 2, 3, 4, 5], "names": [""] * 6}
    for field in fields:
        name = field[NAME]
        if field[BIT] >= 0:
            values[name] = values.get(name, 0) | field[DEFAULT] << field[BIT]
        elif name not in values and name != "last":
            values[name] = clone(field[DEFAULT])
    return values


def rows(fields, values):
    # the form's rows in order, each (field, index): index counts the rows of one field
    n = values["players"]
    out = []
    for field in fields:
        per_player, more = field[ROWS]
        for i in range(per_player * n + more):
            out.append((field, i))
    return out


def seat_label(app, values, step=0):
    # the first player's seat (step -1: the one before), or "random"
    n = values["players"]
    first = values["first"]
    return app.tr("nm.random_1st") if first >= n else "P" + str((first + step) % n + 1)


def line(app, ui, values, field, i):
    # the row's (label, value), and the seat for a player's row
    name = field[NAME]
    if name == "players":
        return (app.tr(field[LABEL]), str(values["players"]))
    if name in ("first", "last"):
        return (app.tr(field[LABEL]), seat_label(app, values, -1 if name == "last" else 0))
    if name == "col":
        colour = view.COLOURS[values["col"][i]]
        text = ("P" + str(i + 1) + " " + values["names"][i]).strip()
        return (text, colour[1] + " " + app.tr(colour[2]), i)
    if field[CHOICES] is None:
        return ui.setup_line(app, values, name, i)
    return (app.tr(field[LABEL]), app.tr(field[CHOICES][choice(values, field)]))


def choice(values, field):
    value = values[field[NAME]]
    return value >> field[BIT] & 1 if field[BIT] >= 0 else value


def held(values, field):
    # the reason the field cannot move now, or None
    rule = field[HELD]
    return rule[2] if rule is not None and values[rule[0]] == rule[1] else None


def change(ui, mode, values, field, i, delta):
    # Move one row's value by delta; a reason key when it cannot move.
    name = field[NAME]
    reason = held(values, field)
    if reason is not None:
        return reason
    if name == "players":
        entry = registry.entry(mode)
        reason = change_players(values, delta, entry[registry.LOW], entry[registry.HIGH])
    elif name in ("first", "last"):
        n = values["players"]
        values["first"] = (values["first"] + delta) % (n + (n > 1))  # then "random"
    elif name == "col":
        reason = change_colour(values, i, delta)
    elif field[CHOICES] is None:
        reason = ui.setup_move(values, name, i, delta)
    elif field[BIT] >= 0:
        values[name] ^= 1 << field[BIT]
    else:
        values[name] = (values[name] + delta) % len(field[CHOICES])
    if reason is None:
        for other in ui.SETUP:  # a field held by what just changed goes back to its default
            if held(values, other) is not None:
                if other[BIT] >= 0:
                    values[other[NAME]] &= ~(1 << other[BIT])
                    values[other[NAME]] |= other[DEFAULT] << other[BIT]
                else:
                    values[other[NAME]] = other[DEFAULT]
    return reason


def change_players(values, delta, low, high):
    n = values["players"]
    if not low <= n + delta <= high:
        return "bad_players"
    values["players"] = n + delta
    first = values["first"]
    values["first"] = n + delta if first >= n else min(first, n + delta - 1)
    if delta > 0 and values["col"][n] in values["col"][:n]:
        # the new player's default colour was taken by a change: the first free one
        for colour in range(len(view.COLOURS)):
            if colour not in values["col"][:n]:
                values["col"][n] = colour
                break
    return None


def change_colour(values, p, delta):
    # cycle this player's colour, skipping those other players already have
    taken = values["col"][: values["players"]]
    colour = values["col"][p]
    for _ in range(len(view.COLOURS)):
        colour = (colour + delta) % len(view.COLOURS)
        if colour not in taken:
            values["col"][p] = colour
            return None
    return "colour_twice"
