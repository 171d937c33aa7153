"""Table & timers: turn order, timers and seat positions. Game state, so every change is an
undoable action. Imported only when opened from the game menu."""

from potager.core import keys, table
from potager.core.gestures import SHORT
from potager.ui.screens import ListScreen
from potager.ui.table import clock_text
from potager.ui.view import COLS, player_tag, split

TIMES = (0, 300, 600, 900, 1200, 1800, 2700, 3600)
# (setting, state field, text key, choices): values, or the text keys of off/on (dir: -1/1)
SETTINGS = (
    (table.S_DIR, "dir", "t.dir", ("t.ccw", "t.cw")),
    (table.S_ROT, "rot", "t.first", ("t.fixed", "t.rotates")),
    (table.S_LAP, "lap", "t.end", ("t.passed", "t.lap")),
    (table.S_TT, "tt", "t.turn", (0, 30, 45, 60, 90, 120, 180, 300)),
    (table.S_TB, "tb", "t.bank", TIMES),
    (table.S_INC, "inc", "t.inc", (0, 5, 10, 15, 20, 30, 60)),
    (table.S_RT, "rt", "t.round", TIMES),
)


def step_choice(choices, value, delta):
    """The next value of `choices` from `value` (which may lie between two of them)."""
    index = 0
    for i in range(len(choices)):
        if choices[i] <= value:
            index = i
    if choices[index] < value and delta < 0:
        index += 1  # between two choices: going down lands on the lower one
    index = min(max(index + delta, 0), len(choices) - 1)
    return choices[index]


class SettingsScreen(ListScreen):
    """(label, value) rows; LEFT/RIGHT change the value under the cursor."""

    HELP = (("↑↓", "h.field"), ("←→", "h.change"), ("BACK", "h.back"))

    def entries(self, app):
        return []

    def change(self, app, index, delta):
        pass

    def items(self, app):
        return [split(label, value + " ", COLS - 1) for label, value in self.entries(app)]

    def on_key(self, app, key, kind):
        if key in (keys.LEFT, keys.RIGHT) and kind == SHORT:
            self.change(app, self.cursor, 1 if key == keys.RIGHT else -1)
            app.changed()
            return
        ListScreen.on_key(self, app, key, kind)


class TableScreen(SettingsScreen):
    """Turn order, timers and seat positions: game state, so each change is undoable."""

    def title(self, app):
        return app.tr("table")

    def settings(self, app):
        # the settings this mode lets change (the others are not listed)
        hidden = app.stack[0].hidden(app)
        return [row for row in SETTINGS if row[0] not in hidden]

    def entries(self, app):
        state = app.engine.state
        out = []
        for _, field, label, choices in self.settings(app):
            value = state[field]
            if type(choices[0]) is str:
                text = app.tr(choices[value > 0])
            elif field == "inc":
                text = "+" + str(value) + "s"
            else:
                text = clock_text(value) if value else app.tr("off")
            out.append((app.tr(label), text))
        for p in range(state["n"]):
            pixel = state["seat"][p]
            out.append((player_tag(state, p) + " " + app.tr("t.seat"), str(pixel or 12) + "h"))
        return out

    def change(self, app, index, delta):
        state = app.engine.state
        rows = self.settings(app)
        if index < len(rows):
            setting, field, _, choices = rows[index]
            value = state[field]
            if type(choices[0]) is str:  # a switch
                value = -value if field == "dir" else 1 - value
            else:
                value = step_choice(choices, value, delta)
            app.act((table.SET, setting, value))
            return
        # move a seat round the ring, past the pixels other seats hold
        p = index - len(rows)
        pixel = state["seat"][p]
        for _ in range(table.RING):
            pixel = (pixel + delta) % table.RING
            if pixel not in state["seat"]:
                break
        app.act((table.SET, table.S_SEAT + p, pixel))
