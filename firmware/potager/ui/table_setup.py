# The table part of every mode's setup form: players, first player, a colour per player.
# Loaded for the setup only (potager.ui.table calls it; App.start_game forgets it).

from potager.core import table
from potager.ui import view


def default_setup(players=4):
    # first == players: a random first player, drawn at the start
    return {"players": players, "first": 0, "col": [0, 1, 2, 3, 4, 5], "names": [""] * 6}


def label(app, values, step=0):
    # The first player's seat (step -1: the one before), or "random".
    n = values["players"]
    first = values["first"]
    return app.tr("nm.random_1st") if first >= n else "P" + str((first + step) % n + 1)


def setup_fields(app, values):
    # (label, value) rows: players, first player, then (label, value, seat) per player.
    n = values["players"]
    out: list = [
        (app.tr("players"), str(n)),
        (app.tr("first"), label(app, values)),
    ]
    for p in range(n):
        colour = view.COLOURS[values["col"][p]]
        text = ("P" + str(p + 1) + " " + values["names"][p]).strip()
        out.append((text, colour[1] + " " + app.tr(colour[2]), p))
    return out


def setup_change(values, field, delta, lo=1, hi=table.MAX_PLAYERS):
    # Change one field of the table setup; a reason key when it cannot move.
    n = values["players"]
    if field == 0:
        if not lo <= n + delta <= hi:
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
    elif field == 1:
        values["first"] = (values["first"] + delta) % (n + (n > 1))  # then "random"
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
