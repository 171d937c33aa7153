# HORTIS counter: the setup, the game screen, and where the parts load.
#
# The game screen is a frame around a body: the quick-count form (hortis_quick) or the live
# count grid with its events (hortis_live, Automne only). The result with the recipe challenge
# is hortis_result; the end of the game and the records hortis_end. The board compiles .py in
# RAM and needs room in large pieces for it: the rules are compiled with this module (the setup),
# the body and the result by new_state(), before the game starts; at the end the parts and the
# reducer are dropped before hortis_end is compiled (load()). The result is opened and the game
# ended by the frame's tick(), once the screens that asked for it are gone (show(): 1 the
# result, 2 the end). TURN hands over to the next player's forest (live: after the last player,
# the next card); BACK undoes, hold BACK redoes, hold OK shows the help. Text keys have 11+
# characters: shorter string constants would stay in RAM as qstrs on MicroPython.

import sys

from potager.core import keys, registry
from potager.core.gestures import SHORT
from potager.core.table import S_LAP
from potager.ui import table

# the rules and their reducer (hortis_count), compiled now (RAM in large pieces)
__import__("potager.core.games.hortis")


# The game (Automne or the base game), the count (quick, or live: Automne only), the players,
# the recipe challenge, then a colour per player.
AUTOMNE_ONLY = ("g", 1, "hortis_live_automne")  # quick while the game is the base game's
SETUP = (
    table.field("g", "hortis.game", ("hortis.game0", "hortis.game1")),
    table.field("lv", "hortis.count", ("hortis.count0", "hortis.count1"), held=AUTOMNE_ONLY),
    table.players(1),
    table.field("rc", "hortis.recipes", table.ON_OFF),
    table.SEATS,
)


def upcoming(values):
    # the modules new_state() and the rules' check() load, loaded ahead while the setup is
    # shown (SetupScreen); App.start_game lets the checks go
    live = "potager.ui.hortis_live" if values["lv"] else "potager.ui.hortis_quick"
    return (live, "potager.ui.hortis_result", "potager.core.games.hortis_check")


def new_state(values):
    from potager.core.games import hortis

    load("hortis_live" if values["lv"] else "hortis_quick")  # compiled before the game starts
    load("hortis_result")
    n = values["players"]
    return hortis.new(n, values["col"][:n], 0, values["g"], values["lv"], values["rc"])


def filed(state):
    # The name the history files the game under: registry FILED's, Automne 0, Grove 1.
    return state["g"]


def load(name, first=()):
    # The module potager.ui.<name>, compiled when needed: the modules `first` (potager.<key>)
    # are dropped and the garbage collected before.
    path = "potager.ui." + name
    if path not in sys.modules:
        for key in first:
            registry.forget("potager." + key)
    return registry.load(path)


class GameScreen(table.GameScreen):
    def __init__(self, app):
        self.lv = app.engine.state["lv"]  # set by new(), never changed
        self.ui = None  # the body's module, loaded by load()
        self.cursor = 0  # the quick count's cursor: field
        self.at = None  # the live count's cursors, a forest each (hortis_live.at)
        self.due = 0  # for tick(): 1 the result, 2 the end of the game

    def load(self):
        if self.ui is None:
            self.ui = load("hortis_live" if self.lv else "hortis_quick")
        return self.ui

    def show(self, app, due):
        # Back to this screen; then tick() shows the result (1) or ends the game (2).
        while app.screen() is not self and len(app.stack) > 1:
            app.pop()
        self.due = due

    def tick(self, app, now):
        if self.due:
            due = self.due
            self.due = 0
            if due == 2:  # the parts and the reducer are dropped: room to compile
                self.ui = None
                parts = "ui.hortis_quick", "ui.hortis_live", "ui.hortis_result"
                load("hortis_end", parts + ("core.games.hortis_count",)).finish(app)
            else:
                app.push(load("hortis_result").ResultScreen(self, app))

    def on_key(self, app, key, kind):
        self.HELP = self.load().HELP
        if key < keys.OK or (key == keys.OK and kind == SHORT):
            if self.load().on_key(self, app, key, kind):
                self.due = 1  # the result
            app.changed()
            return True
        value = app.engine.state.get("end")
        handled = table.GameScreen.on_key(self, app, key, kind)
        if key == keys.TURN and not value and app.engine.state.get("end"):
            self.due = 1  # the 9th card is done: the result
        return handled

    def rows(self, app):
        return self.load().rows(self, app)

    def leds(self, app, out):
        self.load().leds(self, app, out)

    def finish(self, app):
        self.show(app, 2)

    def selection(self, app):
        # the quick count's field; the live count's cursors, a forest each (a copy: the save
        # compares it with the one it wrote)
        if self.lv:
            return list(self.at) if self.at else None
        return self.cursor

    def select(self, app, value):
        if not self.lv:
            table.GameScreen.select(self, app, value)
        elif (
            type(value) is list
            and len(value) == app.engine.state["n"]
            and all(type(v) is int and 0 <= v < 15 for v in value)
        ):
            # a copy: the save's own stays as it wrote it (hortis_live.at moves a cursor off
            # its colour's first free slot back onto it)
            self.at = list(value)

    def cursors(self, app):
        return len(app.engine.state["q"][0])  # the quick count: a row a field

    def hidden(self, app):
        # a card is a lap of the forests: nobody passes; a quick count has no rounds
        return ("pass", "skip", S_LAP) if self.lv else ("pass", "skip", "round+", "round-")
