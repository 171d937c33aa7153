# The table part every mode shares: setup fields for seats and colours, the game screen
# base (TURN, undo, menu, help) and the ring that shows who is where and whose turn it is.

from potager.core import clock, keys, registry, table
from potager.core.compat import const
from potager.core.gestures import LONG, SHORT
from potager.ui import view
from potager.ui.screens import Screen

# LED levels out of 255 (the NeoPixel brightness cap applies on top)
SEAT_LEVEL = 24  # every seat glows dimly in its colour: who sits where
NEXT_LEVEL = 72  # the next player, previewed
ACTIVE_LEVEL = 255
DRAIN_LEVEL = 40


# what a mode without turns does not offer: the turn items of the game menu, then the turn
# order and the timers of Table & timers (its seats stay)
NO_TURNS: tuple = ("pause", "pass", "skip", "stats", "round+", "round-", table.S_DIR, table.S_ROT)
NO_TURNS += (table.S_LAP, table.S_TT, table.S_TB, table.S_INC, table.S_RT)


# A mode's setup form is data: its screen module's SETUP, a tuple of fields in the order the
# form shows them, each made by field(); potager.ui.table_setup lays them out and changes them
# (compiled for the setup only: the game forgets it).
NAME = const(0)  # the key of the form's values the field sets (new_state() reads them)
LABEL = const(1)  # its text key
CHOICES = const(2)  # the text keys of its values, cycled through; None: a number of its own
DEFAULT = const(3)  # its value on a new form
HELD = const(4)  # (name, value, reason): held at DEFAULT, refused with reason, while that value
BIT = const(5)  # >= 0: the field is this bit of an int value (a rules option's flag)
ROWS = const(6)  # (per player, more): rows the field shows, e.g. (1, 0) a row per player

ON_OFF = ("off", "on")


def field(name, label=None, choices=None, default=0, held=None, bit=-1, rows=(0, 1)):
    return (name, label, choices, default, held, bit, rows)


def players(default=4):
    # the players: as many as the mode's descriptor allows (registry LOW, HIGH)
    return field("players", "players", default=default)


FIRST = field("first", "first")  # the first player's seat, or random (the last choice)
SEATS = field("col", rows=(1, 0))  # a row per player: their colour (OK: their name)


MENU = "potager.ui.menu"


class GameScreen(Screen):
    # TURN hands over (hold: back a seat), BACK undoes (hold: redo), OK opens the menu.

    HELP: tuple = (
        ("TURN", "h.turn"),
        ("TURN~", "h.turn_back"),
        ("BACK", "h.undo"),
        ("BACK~", "h.redo"),
        ("OK", "h.menu"),
        ("OK~", "h.help"),
        ("*×» "[:3], "h.seat_marks"),
    )

    # The selection the save keeps, so that a power cut or a reload brings the cursor back
    # with the rest of the game: selection() as JSON; select() takes it back, checked (any
    # value may come from a save: one that does not fit leaves the cursor where it is).
    def selection(self, app):
        return self.cursor

    def select(self, app, value):
        if type(value) is int and 0 <= value < self.cursors(app):
            self.cursor = value

    def cursors(self, app):
        return app.engine.state["n"]  # a row a player, in most modes

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
            app.push(registry.load(MENU).MenuScreen(self))
        elif key == keys.OK and kind == LONG:
            Screen.on_key(self, app, key, kind)
        else:
            return False
        app.changed()
        return True

    def upcoming(self, app):
        return (MENU,)  # OK opens it (and its help): loaded once the game's frame is out

    def leds(self, app, out):
        ring_leds(app, out)

    def hidden(self, app):
        # What this mode does not allow now: game menu items, Table & timers settings (S_*).
        # Rules without turns (TURNS = 0 in their module) have no turn items, order nor timers.
        state = app.engine.state
        if not getattr(app.engine.rules, "TURNS", 1):
            return NO_TURNS[app.clock.paused :]  # (paused by a save of before: Unpause stays)
        return ("skip",) if state["n"] - bin(state["out"]).count("1") < 2 else ()

    def finish(self, app):
        # "End game" from the menu; each mode runs its own final scoring from here.
        app.refuse("bad_action")


def mark(state, p):
    """The mark after a player's tag: * plays, × passed, » started the round (one string)."""
    if p == state["act"]:
        return "*×» "[0]
    if state["out"] >> p & 1:
        return "*×» "[1]
    return "*×» "[2 if p == state["first"] and state["n"] > 1 else 3]


def clock_text(seconds):
    # m:ss, or h:mm:ss past an hour; a minus sign for overtime.
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    minutes = seconds // 60
    text = str(minutes % 60 if minutes >= 60 else minutes) + ":" + str(100 + seconds % 60)[1:]
    if minutes >= 60:
        text = str(minutes // 60) + ":" + str(100 + minutes % 60)[1:] + text[text.index(":") :]
    return sign + text


def timer_text(app, width=99):
    # What the header shows of the timers: the turn countdown (`+` in overtime), the bank
    # (`B`), the round timer (`R`); every clock that runs is shown, taking turns (4 s each)
    # when `width` characters cannot hold them all.
    clock = app.clock
    state = app.engine.state
    if clock.paused:
        return app.tr("paused")
    out = []
    if state["tt"]:
        left = clock.turn_left(app.now, state)
        out.append(("+" + clock_text(-left)) if left < 0 else clock_text(left))
    if state["tb"]:
        out.append("B" + clock_text(clock.bank_left(app.now, state)))
    if state["rt"]:
        out.append("R" + clock_text(clock.round_left(app.now, state)))
    text = " ".join(out)
    return out[app.now // 4000 % len(out)] if len(out) > 1 and len(text) > width else text


def header(app, title):
    # Row 0 of every game screen: title (round...), timer, the active player's tag.
    state = app.engine.state
    timer = timer_text(app, view.COLS - len(title) - 5)
    left = title + " " + timer if timer else title
    if len(left) > view.COLS - 4:  # no room for both: the title and the clocks take turns
        left = timer_text(app, view.COLS - 5) if app.now // 2000 % 2 else title
    width = min(max(view.COLS - 1 - len(left), 3), 10)  # as much of the name as fits
    return view.split(left, view.player_tag(state, state["act"], width))


# The turn countdown is never in a seat's colour (the eight colours take every hue): dim white,
# and only on the pixels no seat (nor the first player's marker) uses; its stages show as a
# rhythm: steady, blinking below half, fast in the last fifth, every free pixel in overtime.
# The first player's marker: the pixel before their seat (counter-clockwise) in their colour,
# a seat two pixels wide starts the round; none when a seat is there, or solo.


def ring_leds(app, out):
    # Each seat dim in its colour, the next one a little brighter, the active one blinking
    # bright, a passed one only glimmering (off while the active one is lit), the round's first
    # player two pixels wide; a timer (the countdown, else the bank, else the round timer)
    # drains the free pixels in dim white.
    for i in range(len(out)):
        out[i] = 0
    state = app.engine.state
    seats = state["seat"]
    slot = (seats[state["first"]] - 1) % len(out)  # the first player's marker
    if state["n"] < 2 or slot in seats:
        slot = -1
    total = state["tt"] or state["tb"] or state["rt"]
    if total:
        if state["tt"]:
            left = app.clock.turn_left(app.now, state)
        elif state["tb"]:
            left = app.clock.bank_left(app.now, state)
        else:
            left = app.clock.round_left(app.now, state)
        stage = clock.warning_stage(left, total)
        lit = len(out) - state["n"] - (slot >= 0)  # the free pixels
        lit = (lit * left + total - 1) // total if left > 0 else lit
        if (True, app.blink_on, app.fast_blink_on, app.fast_blink_on)[stage]:
            for i in range(len(out)):
                if lit and i not in seats and i != slot:
                    out[i] = view.dim(0xFFFFFF, DRAIN_LEVEL)
                    lit -= 1
    n = state["n"]
    upcoming = table.next_in(state, state["act"])
    for p in range(n):
        rgb = view.COLOURS[state["col"][p]][0]
        if p == state["act"]:
            level = ACTIVE_LEVEL if app.blink_on else SEAT_LEVEL
        elif state["out"] >> p & 1:
            level = 0 if app.blink_on else SEAT_LEVEL
        else:
            level = NEXT_LEVEL if p == upcoming else SEAT_LEVEL
        out[seats[p]] = view.dim(rgb, level)
    if slot >= 0:
        out[slot] = view.dim(view.COLOURS[state["col"][state["first"]]][0], SEAT_LEVEL)
