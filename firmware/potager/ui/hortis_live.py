# HORTIS Automne live count: the 15 dice of the forest, followed card by card.
#
# Row 0: the card (2-9: card 1 starts the forest), the running score, the player. Rows 1-3: a
# colour each (green, yellow, brown) and its 5 dice: "·" in the reserve, the face (1 3 6 10
# 15), "-2" the mouse face; "/" after a die: on a split zone. Row 4: the mouse pawn. Each
# forest has its cursor, on a die or on its colour's first reserve slot (where a new die goes:
# never past it, so no die leaves a gap before it). OK on a die does what happens most: a new
# die on the reserve slot, an upgrade on a die; then the cursor goes on to the next colour, on
# its first reserve slot (as UP/DOWN do), so a card's dice are entered colour after colour.
# The save keeps the cursors (GameScreen.selection), so a boot or a reload brings each back
# (cursor moves are not actions: undo never moves them). Hold LEFT/RIGHT lists everything that can
# happen to it, or to its colour, with the card just played (Events; on a mouse face OK
# lists too). The ring shows the cards: those played dim, the current one blinking, all nine
# lit at the end.

from potager.core import keys
from potager.core.games import hortis
from potager.core.games.hortis_count import free
from potager.core.gestures import LONG, SHORT
from potager.ui import table, view
from potager.ui.screens import ListScreen
from potager.ui.view import COLS, CURSOR, right, split

HELP = (
    (
        ("▲▼", "hortis.help_row"),
        ("◄►", "hortis.help_die"),
        ("OK", "hortis.help_ok"),
        ("◄►~", "hortis.help_events"),
        ("TURN", "hortis.help_card"),
    )
    + table.GameScreen.HELP[1:4]  # hold TURN, BACK, hold BACK
    + table.GameScreen.HELP[5:]  # hold OK
    + (("-2", "hortis.help_mouse"), ("6/", "hortis.help_split"), ("·", "hortis.help_reserve"))
)


def symbol(v):
    # A die as the grid shows it (see above).
    return "·" if not v & 7 else "-2" if v & 7 == 6 else str(hortis.AUTOMNE_FACES[(v & 7) - 1])


def rows(screen, app):
    state = app.engine.state
    p = state["act"]
    card = str(state["rnd"]) + app.tr("hortis.of_nine")
    right_text = str(hortis.score(state, p)) + " " + app.tr("hortis.points") + " "
    right_text += view.player_tag(state, p)
    # with a timer the card goes without its word, so the clock never runs into the score
    timer = table.timer_text(app, COLS - len(card) - len(right_text) - 2)
    left = card + " " + timer if timer else app.tr("hortis.card") + " " + card
    out = [split(left, " " + right_text)]
    slot = at(screen, app)
    for n in range(3):
        line = app.tr("hortis.colour" + str(n))
        for i in range(5):
            v = state["d"][p][n * 5 + i]
            line += CURSOR if n * 5 + i == slot else " "
            line += right(symbol(v), 2) + ("/" if v & 8 else " ")
        out.append(line)
    if state["end"]:
        out.append(view.fit(app.tr("hortis.done"), COLS))
    else:
        text = app.tr("hortis.pawn") + " " + app.tr("hortis.pawn" + str(state["pw"][p]))
        out.append(view.fit(text, COLS))
    return out


def on_key(screen, app, key, kind):
    state = app.engine.state
    if key == keys.OK:
        if state["end"]:
            return True  # the result
        p = state["act"]
        slot = at(screen, app)
        v = state["d"][p][slot]
        if v & 7 == 6:
            app.push(Events(screen, app))  # a mouse face: only the pawn may go there
        elif app.act((hortis.UPGRADE if v else hortis.NEW, p, slot)):
            follow(screen, app, 1)
    elif key in (keys.LEFT, keys.RIGHT) and kind == LONG:
        app.push(Events(screen, app))
    elif key in (keys.UP, keys.DOWN):
        follow(screen, app, 1 if key == keys.DOWN else -1)
    elif kind == SHORT:  # the next die, or the first reserve slot: the others are passed over
        values = state["d"][state["act"]]
        slot = at(screen, app)
        n = slot - slot % 5
        v = free(values, n)
        for _ in range(5):
            slot = n + (slot + (1 if key == keys.RIGHT else -1)) % 5
            if values[slot] or slot == v:
                break
        screen.at[state["act"]] = slot
    return False


def at(screen, app):
    # The active forest's cursor, colour * 5 + die (screen.at: a forest each), moved back onto
    # its colour's first reserve slot when it is on a later one (after an undo); green at the
    # start (a boot or a reload gives back the saved ones: GameScreen.select).
    state = app.engine.state
    if screen.at is None:
        screen.at = [0] * state["n"]
    values = state["d"][state["act"]]
    slot = screen.at[state["act"]]
    if not values[slot]:
        slot = screen.at[state["act"]] = free(values, slot)
    return slot


def after(values, slot, step):
    # The cursor on the next colour (step 1) or the previous one, on its first reserve slot
    # (where a new die goes), else in the same column.
    n = (slot // 5 + step) % 3 * 5
    v = free(values, n)
    return n + slot % 5 if v < 0 else v


def follow(screen, app, step):
    # After an event the next colour's comes, top to bottom; UP/DOWN likewise.
    state = app.engine.state
    screen.at[state["act"]] = after(state["d"][state["act"]], at(screen, app), step)


def leds(screen, app, out):
    # Pixels 0-8 are the cards, in the colour of the player whose forest is shown.
    state = app.engine.state
    rgb = view.COLOURS[state["col"][state["act"]]][0]
    for i in range(len(out)):
        level = 0
        if i < 9:
            if state["end"]:
                level = table.NEXT_LEVEL
            elif i + 1 < state["rnd"]:
                level = table.SEAT_LEVEL
            elif i + 1 == state["rnd"]:
                level = table.ACTIVE_LEVEL if app.blink_on else table.SEAT_LEVEL
        out[i] = view.dim(rgb, level)


# What happened to one die with the card just played: the events that apply to it; then, when
# its colour's reserve is empty, its colour's (a new die is refused with the reason; the mouse
# pawn may go instead); then Result and Game menu.
class Events(ListScreen):
    def __init__(self, screen, app):
        ListScreen.__init__(self)
        self.screen = screen
        state = app.engine.state
        self.active = state["act"]
        values = state["d"][self.active]
        slot = at(screen, app)
        self.value = v = values[slot]
        self.slot = slot
        if not v:
            out = [(hortis.NEW, slot), (hortis.MOUSE_FACE, slot), (hortis.MOUSE_FACE, slot + 16)]
        elif v & 7 == 6:  # the mouse face
            out = [(hortis.PAWN, slot)]
        else:
            out = [(hortis.UPGRADE, slot)] + ([] if v & 8 else [(hortis.SPLIT, slot)])
            out.append((hortis.RESERVE, slot))
        if free(values, slot) < 0:
            out += [(hortis.NEW, slot), (hortis.MOUSE_FACE, slot), (hortis.PAWN_OUT, slot // 5)]
        self.entries = out

    def title(self, app):
        v = self.value
        text = app.tr("hortis.dice" + str(self.slot // 5)) + " " + symbol(v)
        return text + ("/" if v & 8 else "")

    def items(self, app):
        out = []
        for op, b in self.entries:
            text = app.tr("hortis.event" + str(7 if b >= 16 else op - hortis.NEW))
            if op == hortis.UPGRADE:
                text += (
                    " "
                    + symbol(self.value)
                    + app.tr("hortis.arrow")
                    + symbol(min((self.value & 7) + 1, 5))
                )
            out.append(text)
        return out + [app.tr("hortis.open_result"), app.tr("hortis.game_menu")]

    def choose(self, app, index):
        if index < len(self.entries):
            op, b = self.entries[index]
            if app.act((op, self.active, b)):
                app.pop()
                follow(self.screen, app, 1)
        elif index == len(self.entries):
            self.screen.show(app, 1)  # the result
        else:
            from potager.ui.menu import MenuScreen

            app.replace(MenuScreen(self.screen))
