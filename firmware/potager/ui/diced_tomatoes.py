# Diced Tomatoes: the setup and the game screen. The forms (harvest, Karma, dice passed on,
# a player's details), the final score and the menu are diced_tomatoes_<part>.py, compiled
# when opened, one at a time.
#
# Row 0: round (or last round / game over), timers, the active player; rows 1-3: a player a
# row, "▶♥P1*K 5'6 2 3*· · ·": cursor, symbol, seat, * = active, Karma, ' or " = 1/3 or 2/3
# of a heart (Karma Overdose), the six slots (* a Tomato Dice star or a solo match, × a solo
# miss, · empty); row 4: what the table must know now (Karma to lose at TURN, dice passed on,
# dice to roll, who plays last) or the key hints.
#
# RAM: comments rather than docstrings (a docstring is read into RAM); text keys are longer
# than 10 characters (see potager.core.games.diced_tomatoes). Names and glyphs say what they
# are: reusing the framework's names (`found` a count, then a text) and slicing the glyphs
# out of one string saved 64 bytes of heap for the mode's screens (2 qstrs, measured on
# CircuitPython's 32-bit VM from .mpy), which the board's 60 KB at the lowest can spare.


import sys

from potager.core import keys, registry
from potager.core.games import diced_tomatoes as dt
from potager.core.gestures import LONG, REPEAT, SHORT
from potager.core.table import NEXT, next_in
from potager.ui import table
from potager.ui.view import COLOURS, COLS, CURSOR, dim, fit, names_in, player_tag, right

# players, the four options as the state's option bits (Tomato Dice, the variant most
# played, one DOWN away; no Karma Overdose in solo), first and last player, then a colour per
# player
NOT_SOLO = ("players", 1, "dt_solo_no_overdose")  # off while one plays
SETUP = (
    table.players(),
    table.field("opt", "dt.option_no_0", table.ON_OFF, bit=0),
    table.field("opt", "dt.option_no_1", table.ON_OFF, held=NOT_SOLO, bit=1),
    table.field("opt", "dt.option_no_2", table.ON_OFF, bit=2),
    table.field("opt", "dt.option_no_3", ("dt.per_vine_0", "dt.per_vine_1"), bit=3),
    table.FIRST,
    table.field("last", "dt.last_player"),
    table.SEATS,
)


def new_state(values):
    n = values["players"]
    return dt.new(n, values["col"][:n], values["first"], values["opt"])


def label(app, key, *values):
    # the text `key` with its {} filled in, in order
    filled = app.tr(key)
    for value in values:
        filled = filled.replace("{}", str(value), 1)
    return filled


# the rows' glyphs: K(arma), thirds of a heart (none, ' and "), an empty slot, a solo miss
KARMA = "K"
THIRDS = (" ", "'", '"')
EMPTY_SLOT = "·"
SOLO_MISS = "×"


def mark(state, p):
    # the six slots in 12 characters: value and * (star or solo match) or × (solo miss)
    h = state["hv"][p]
    out = ""
    for i in range(6):
        if i >= len(h):
            out += EMPTY_SLOT + " "
        elif h[i] == i + 1 and (state["opt"] & 1 or state["n"] == 1):
            out += str(h[i]) + "*"
        else:
            out += str(h[i]) + (SOLO_MISS if state["n"] == 1 else " ")
    return out


def item(state, p, cursor):
    head = (CURSOR if cursor else " ") + player_tag(state, p) + table.mark(state, p)
    karma = KARMA + right(str(state["ka"][p]), 2) + THIRDS[state["th"][p]]
    return head + karma + mark(state, p)


def text(app, state):
    # row 4: the one thing the table must know now, else the key hints
    p = state["act"]
    if state["end"]:
        return app.tr("dt.status_over")
    if state["ka"][p] > 6:
        return app.tr("dt.status_surplus")
    if state["held"]:
        status = "%p " + label(app, "dt.status_passes", state["held"]) + " %a"
        return names_in(state, status, (("%p", p), ("%a", next_in(state, p))))
    if state["extra"]:
        status = "%p " + label(app, "dt.status_rolls", state["extra"])
        return names_in(state, status, (("%p", p),))
    if state["full"] >= 0:
        return names_in(state, "%p " + app.tr("dt.status_last"), (("%p", state["mark"]),))
    return app.tr("dt.status_hints")


def title(app, state):
    if state["end"]:
        return app.tr("dt.title_over")
    if state["full"] >= 0:
        return app.tr("dt.title_last_round")
    return app.tr("round") + " " + str(state["rnd"])


def first_shown(n, cursor, seats=3):
    # the player on row 1: the cursor's row stays in view, with its neighbours
    return min(max(cursor - 1, 0), max(n - seats, 0))


def lines(app, state, cursor, laid, fresh=(), seats=3):
    # row 0 and `seats` players' rows of `state`, the cursor's in view (also the harvest
    # form's preview). `laid`: each player's row laid out for this state, or None (filled in
    # here); the players in `fresh` are laid out again, not kept (the form's preview)
    n = state["n"]
    out = [table.header(app, title(app, state))]
    if n == 1:
        out.append(item(state, 0, False))
        out.append(fit(app.tr("dt.solo_goal"), 9) + "1 2 3 4 5 6 ")
        matched = dt.parts(state["hv"][0], 0, 0, 0, 0)[5]
        out.append(fit(label(app, "dt.solo_matched", matched), COLS))
        return out
    first = first_shown(n, cursor, seats)
    for p in range(first, first + seats):
        if p >= n:
            out.append(" " * COLS)
            continue
        row = None if p in fresh else laid[p]
        if row is None:
            row = item(state, p, False)
            if p not in fresh:
                laid[p] = row
        out.append(CURSOR + row[1:] if p == cursor else row)
    return out


HARVEST = "potager.ui.diced_tomatoes_harvest"


def sub(name):
    # the module of a sub-screen, potager.ui.<name> (diced_tomatoes_harvest...), compiled when
    # opened and forgotten at once: the screen made from it keeps what it needs, and it all
    # goes when the screen closes (RAM: the board compiles .py). The garbage is collected
    # first, so that the compiler finds room; names are written out whole (a short string
    # would stay in RAM as a qstr). The harvest, opened on most turns, stays loaded while
    # the heap has room: loaded ahead (GameScreen.upcoming, only with room to spare), it is
    # kept; loaded here, it stays if the room is there after the collection of the load (a
    # fresh figure: mem_free() counts the garbage as used, and judged on that the module
    # went at every opening, to be loaded again for 50 ms).
    path = "potager.ui." + name
    kept = path in sys.modules
    module = registry.load(path)
    if path != HARVEST or not (kept or registry.roomy()):
        registry.forget(path)
    return module


class GameScreen(table.GameScreen):
    kept: tuple = ()  # (set per screen)
    HELP: tuple = (
        ("↑↓", "dt.help_player"),
        ("→", "dt.help_harvest"),
        ("←", "dt.help_spend_karma"),
        ("→~", "dt.help_third_heart"),
        ("←~", "dt.help_not_placed"),
        (KARMA, "dt.help_karma"),  # the row's glyphs
        (THIRDS[1] + THIRDS[2], "dt.help_thirds"),
        (EMPTY_SLOT, "dt.help_empty_slot"),
    ) + table.GameScreen.HELP

    def __init__(self, app):
        self.cursor = self.act = app.engine.state["act"]
        self.sub = None  # a sub-screen to open at the next tick (asked from the menu)
        self.hold_dice = self.hold_revision = 0  # the hold of ← going on: dice not placed
        self.kept = (None, -1, [])  # engine, revision, each player's row (see laid)

    def upcoming(self, app):
        return (HARVEST,) + table.GameScreen.upcoming(self, app)

    def laid(self, app):
        # each player's row (without the cursor) for this revision of the game, kept: a
        # cursor move or the harvest form's preview lays out only the rows that change
        engine = app.engine
        if self.kept[0] is not engine or self.kept[1] != engine.revision:
            self.kept = (engine, engine.revision, [None] * engine.state["n"])
        return self.kept[2]

    def on_key(self, app, key, kind):
        state = app.engine.state
        p = state["act"]
        if key in (keys.UP, keys.DOWN):
            if kind == SHORT:
                self.cursor = (self.cursor + (1 if key == keys.DOWN else -1)) % state["n"]
        elif key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            self.open(
                app, "diced_tomatoes_harvest" if key == keys.RIGHT else "diced_tomatoes_spend"
            )
        elif key == keys.LEFT and kind in (LONG, REPEAT):
            # held: the dice the active player could not place, one more every 0.4 s, go on
            # with the turn (the next player rolls 3 + them); the whole hold is one undo step,
            # the last one replaced by one with a die more (the menu's form: without TURN)
            if kind == LONG:
                self.hold_dice = 0
                if state["end"]:
                    app.refuse("dt_game_is_over")
                    return True
                self.seconds = app.clock.turn_seconds(app.now)  # the turn's, kept
                dice = state["held"] + 1
            elif self.hold_dice and app.engine.revision == self.hold_revision:
                dice = self.hold_dice + 1
                app.engine.undo()
            else:
                return True  # refused at the start, or another key came in between
            if self.turn(app, key, kind, dice):
                self.hold_dice = dice
            elif self.hold_dice:  # more than were rolled: the count before stays
                self.turn(app, key, kind, self.hold_dice)
            self.hold_revision = app.engine.revision
        elif key == keys.RIGHT and kind == LONG:
            if app.act((dt.THIRD, 0, 0)):  # a die on an opponent's vine: 1/3 of a heart
                thirds = state["th"][p]
                said = (
                    label(app, "dt.karma_thirds", thirds)
                    if thirds
                    else label(app, "dt.karma_heart", state["ka"][p])
                )
                app.say(names_in(state, "%p " + said, (("%p", p),)))
        elif key in (keys.LEFT, keys.RIGHT):
            return True  # the repeats of a hold
        elif key == keys.OK and kind == SHORT:
            app.push(sub("diced_tomatoes_menu").screen(app, self))
        else:
            return self.turn(app, key, kind, -1)
        app.changed()
        return True

    def turn(self, app, key, kind, count):
        # the table's keys (count -1), or a handover with `count` dice not placed: a message
        # of the turn before goes (the next player sees "rolls 3+N" at once, solo too), the
        # Karma above 6 lost is said, and a game that ends here goes on to the final score.
        # (A hold of ←: at its start only; its repeats keep what the hold said.)
        state = app.engine.state
        p = state["act"]
        k = state["ka"][p] - 6
        end = state["end"]
        if key == keys.TURN or kind == LONG:
            app.message = app.shown = None
        if count < 0:
            handled = table.GameScreen.on_key(self, app, key, kind)
        else:
            handled = app.act([(dt.CARRY, count, 0), (NEXT, self.seconds, 0)])
        state = app.engine.state
        if key != keys.BACK and state["act"] != p and k > 0:
            app.say(names_in(state, "%p " + label(app, "dt.karma_lost", k), (("%p", p),)))
        if state["end"] and not end and app.screen() is self:
            self.open(app, "diced_tomatoes_end")
        return handled

    def follow(self, app):
        state = app.engine.state
        if state["act"] != self.act:  # a handover, undo or redo: follow the turn
            self.cursor = self.act = state["act"]

    def hidden(self, app):
        return ("pass", "skip")  # nobody passes in Diced Tomatoes

    def tick(self, app, now):
        # a form asked for from the menu opens once the menu has gone (and its RAM with it)
        if self.sub is not None:
            name = self.sub
            self.sub = None
            self.open(app, name)

    def open(self, app, name):
        # a form for the player under the cursor (harvest) or the active player
        state = app.engine.state
        if state["end"] and name == "diced_tomatoes_harvest":
            name = "diced_tomatoes_end"  # after the end, → goes on to the final score
        elif state["end"] and name in ("diced_tomatoes_spend", "diced_tomatoes_carry"):
            app.refuse("dt_game_is_over")
            return
        if name == "diced_tomatoes_harvest" and len(state["hv"][self.cursor]) == 6:
            app.refuse("dt_six_slots_full")
            return
        app.push(sub(name).screen(app, self))

    def rows(self, app):
        state = app.engine.state
        status = text(app, state)
        if state["n"] == 4:  # every seat in view; what the table must know replaces row 0
            rows = lines(app, state, self.cursor, self.laid(app), (), 4)
            # (the keys are in the help); a paused table keeps its PAUSE, and running clocks
            # (redrawn every second) take turns with the status every 2 s
            shown = not app.clock.paused and not (app.timers_shown() and app.now // 2000 % 2)
            if status != app.tr("dt.status_hints") and shown:
                rows[0] = fit(status, COLS)
            return rows
        return lines(app, state, self.cursor, self.laid(app)) + [fit(status, COLS)]

    def leds(self, app, out):
        # the table ring, with the active player's Karma: a pixel each, clockwise after their
        # seat, those above 6 (lost at the end of the turn) blinking; a running turn countdown
        # keeps the ring to itself
        table.ring_leds(app, out)
        state = app.engine.state
        if state["tt"] or state["end"]:
            return
        p = state["act"]
        seat = state["seat"][p]
        rgb = COLOURS[state["col"][p]][0]
        for i in range(1, min(state["ka"][p], len(out) - 1) + 1):
            out[(seat + i) % len(out)] = dim(rgb, 96) if i <= 6 or app.blink_on else 0

    def finish(self, app):
        # "End game" from the menu: the game ends here, then the final score
        if not app.engine.state["end"] and not app.act((dt.END, 3, 0)):
            return
        app.show_game()
        app.screen().sub = "diced_tomatoes_end"
