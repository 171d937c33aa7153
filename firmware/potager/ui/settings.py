"""Settings screens: the table's (part of the game: undoable actions), the device's, and the
game's statistics. Imported only when opened."""

from potager.core import history, keys, table
from potager.core.gestures import SHORT
from potager.ui import view
from potager.ui.screens import LanguageScreen, ListScreen
from potager.ui.stats import stats_lines, stats_title
from potager.ui.table import clock_text
from potager.ui.view import COLS, player_tag, split

TURN_TIMES = (0, 30, 45, 60, 90, 120, 180, 300)
BANK_TIMES = (0, 300, 600, 900, 1200, 1800, 2700, 3600)
INCREMENTS = (0, 5, 10, 15, 20, 30, 60)
ROUND_TIMES = (0, 300, 600, 900, 1200, 1800, 2700, 3600)


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


def seconds_text(app, seconds):
    return clock_text(seconds) if seconds else app.tr("off")


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

    def entries(self, app):
        state = app.engine.state
        out = [
            (app.tr("t.dir"), app.tr("t.cw" if state["dir"] == 1 else "t.ccw")),
            (app.tr("t.first"), app.tr("t.rotates" if state["rot"] else "t.fixed")),
            (app.tr("t.end"), app.tr("t.lap" if state["lap"] else "t.passed")),
            (app.tr("t.turn"), seconds_text(app, state["tt"])),
            (app.tr("t.bank"), seconds_text(app, state["tb"])),
            (app.tr("t.inc"), "+" + str(state["inc"]) + "s"),
            (app.tr("t.round"), seconds_text(app, state["rt"])),
        ]
        for p in range(state["n"]):
            pixel = state["seat"][p]
            out.append((player_tag(state, p) + " " + app.tr("t.seat"), str(pixel or 12) + "h"))
        return out

    def change(self, app, index, delta):
        state = app.engine.state
        if index == 0:
            action = (table.SET, table.S_DIR, -state["dir"])
        elif index in (1, 2):
            field = "rot" if index == 1 else "lap"
            action = (table.SET, index, 1 - state[field])
        elif index == 3:
            action = (table.SET, table.S_TT, step_choice(TURN_TIMES, state["tt"], delta))
        elif index == 4:
            action = (table.SET, table.S_TB, step_choice(BANK_TIMES, state["tb"], delta))
        elif index == 5:
            action = (table.SET, table.S_INC, step_choice(INCREMENTS, state["inc"], delta))
        elif index == 6:
            action = (table.SET, table.S_RT, step_choice(ROUND_TIMES, state["rt"], delta))
        else:
            # move a seat round the ring, past the pixels other seats hold
            p = index - 7
            pixel = state["seat"][p]
            for _ in range(table.RING):
                pixel = (pixel + delta) % table.RING
                if pixel not in state["seat"]:
                    break
            action = (table.SET, table.S_SEAT + p, pixel)
        app.act(action)


class DeviceScreen(SettingsScreen):
    """Language, ring brightness, night mode, beep, dim and sleep delays: kept, not undone."""

    KEYS = ("bri", "night", "beep", "dim", "sleep")

    def title(self, app):
        return app.tr("settings")

    def entries(self, app):
        s = app.power.settings
        on_off = ("off", "on")
        return [
            (app.tr("language"), app.tr("lang.name")),
            (app.tr("s.bri"), str(s["bri"]) + "/4"),
            (app.tr("s.night"), app.tr(on_off[s["night"]])),
            (app.tr("s.beep"), app.tr(on_off[s["beep"]])),
            (app.tr("s.dim"), str(s["dim"]) + " min" if s["dim"] else app.tr("never")),
            (app.tr("s.sleep"), str(s["sleep"]) + " min" if s["sleep"] else app.tr("never")),
        ]

    def items(self, app):
        return SettingsScreen.items(self, app) + [app.tr("export")]

    def change(self, app, index, delta):
        if index == 0:
            app.push(LanguageScreen())
        elif index <= len(self.KEYS):
            app.change_setting(self.KEYS[index - 1], delta)

    def choose(self, app, index):
        if index == 0:
            app.push(LanguageScreen())
        elif index == len(self.KEYS) + 1:
            export(app)


def export(app):
    """The history as checksummed lines on the USB serial console."""
    for line in history.export_lines(app.history):
        print(line)
    app.say("exported")


class StatsScreen(ListScreen):
    """Per player: turns taken, time played, longest turn."""

    def title(self, app):
        return stats_title(app)

    def items(self, app):
        return stats_lines(app, app.engine.state, with_title=False)

    def rows(self, app):
        return view.menu_rows(self.title(app), self.items(app), self.cursor)
