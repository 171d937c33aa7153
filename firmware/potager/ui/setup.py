# A mode's setup form; the mode's screen module describes the fields.
#
# The form opens on the last setup of the mode (app.records["last_setups"][mode], saved with
# the settings: [values, table settings]): players, names, colours, first player, options,
# and the table settings of that game (order, timers); "Same as last time" on top starts it
# again in one press. OK on a seat opens the names of players.txt (potager.roster, read once
# per power-up; its bad lines listed once per change of the file). A random first player is
# drawn at the start from the time of the press (a human's timing; the same press replays the
# same on every port).
# RAM: identifiers are interned for good on MicroPython; this module reuses the names the
# firmware already has (saved, found, problem, changed...) and is forgotten when a game starts.

import os

from potager import lang
from potager.core import keys, registry
from potager.core.crc import crc16
from potager.core.engine import clone
from potager.core.gestures import SHORT
from potager.ui import view
from potager.ui.screens import Screen
from potager.ui.view import COLS, menu_rows


class SetupScreen(Screen):
    HELP = (
        ("↑↓", "h.field"),
        ("←→", "h.change"),
        ("OK", "h.start"),
        ("OK", "nm.help_seat"),
        ("BACK", "h.back"),
    )

    def __init__(self, app, mode):
        self.mode = mode
        app.load_texts(mode)
        # the form's own texts, a table of their own: the game does not keep them in RAM
        name = "potager.lang.%s_setup" % app.language
        app.texts.add(lang.take(name), name)
        self.ui = registry.screens(mode)
        self.values = self.ui.default_setup()
        self.kept = None  # (texts, the mode's fields for the values): see fields()
        try:  # the last setup of the mode if it still has the shape of the defaults and its
            # table part holds (the rules check the rest when the game starts)
            found = app.records["last_setups"][mode]
            saved = found[0]
            for key in self.values:
                value = saved[key]
                assert type(value) is type(self.values[key])
                assert not isinstance(value, list) or len(value) == len(self.values[key])
            n = saved["players"]
            col = saved["col"][:n]
            assert 1 <= n <= len(col) and 0 <= saved["first"] <= n
            for p in range(n):
                assert 0 <= col[p] < len(view.COLOURS) and col.count(col[p]) == 1
                name = saved["names"][p]  # none that shows as a seat ("P2": potager.roster)
                assert name[:1] not in "Pp" or not "0" <= name[1:2] <= "9"
            fields = self.ui.setup_fields(app, saved)  # the mode's own fields can be drawn
            self.values = clone(saved)
            self.kept = (app.texts, fields)
            self.saved = True  # "Same as last time" is the first line
        except Exception:  # nothing saved, or not in this firmware's shape
            self.saved = False
        self.cursor = 0
        self.problem = None
        if app.roster is None:  # players.txt, read once per power-up
            app.roster = []
            try:  # the reader is compiled only when there is a file to read
                # on the drive root: the potager folder (of potager/ui/setup.py) less 7 letters
                path = __file__.rsplit("/", 2)[0][:-7] + "players.txt"
                os.stat(path)  # (a failed open costs the board 10 ms, a failed stat 0.2)
                found = registry.load("potager.roster").read(path)
                registry.forget("potager.roster")
                app.roster, self.problem = found
                # its bad lines are listed once per change of what it holds, not at every
                # power-up: a checksum in the records (saved when the next game starts)
                found = crc16(repr(found).encode())
                if app.records.get("players.txt") == found:
                    self.problem = None
                app.records["players.txt"] = found
            except OSError:
                pass

    def upcoming(self, app):
        # the game's menu (and help: every mode opens it), the checks the new state goes
        # through at start, and what the mode's game loads as it starts (its screen module's
        # upcoming(values), where it has one)
        more = getattr(self.ui, "upcoming", None)
        ahead = ("potager.ui.menu", "potager.core.table_check")
        return ahead + (more(self.values) if more else ())

    def fields(self, app):
        # the mode's fields for the values, kept until they change (changed()) or the texts
        # do: they cost the board 10-30 ms, and a key reads them, then draws them
        if self.kept is None or self.kept[0] is not app.texts:
            self.kept = (app.texts, self.ui.setup_fields(app, self.values))
        return self.kept[1]

    def lines(self, app):
        out = [(app.tr("nm.same_last"), "")] if self.saved else []
        return out + self.fields(app) + [(app.tr("start"), "")]

    def tick(self, app, now):
        if self.problem:  # the bad lines of players.txt, once
            app.push(registry.load("potager.ui.setup_names").screen(self, None, self.problem))
            self.problem = None

    def on_key(self, app, key, kind):
        lines = self.lines(app)
        count = len(lines)
        field = self.cursor - self.saved
        if key == keys.UP and kind == SHORT:
            self.cursor = (self.cursor - 1) % count
        elif key == keys.DOWN and kind == SHORT:
            self.cursor = (self.cursor + 1) % count
        elif key in (keys.LEFT, keys.RIGHT) and 0 <= field < count - 1 - self.saved:
            reason = self.ui.setup_change(self.values, field, 1 if key == keys.RIGHT else -1)
            self.kept = None  # (a refused change may have moved a value on its way)
            if reason is not None:
                app.refuse(reason)
            else:
                self.changed()
        elif key == keys.OK and kind == SHORT:
            line = lines[self.cursor]
            if len(line) > 2 and app.roster and 0 <= field < count - 1 - self.saved:
                names = registry.load("potager.ui.setup_names")  # a seat: pick its name
                app.push(names.screen(self, line[2], app.roster))
            else:
                self.start(app)  # from any other line
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def changed(self):
        # the values changed: their fields are drawn anew; the form no longer holds the last
        # setup: "Same as last time" goes
        self.kept = None
        if self.saved:
            self.saved = False
            self.cursor = max(self.cursor - 1, 0)

    def start(self, app):
        values = clone(self.values)
        n = values["players"]
        saved = app.records.get("last_setups")
        if not isinstance(saved, dict):
            saved = app.records["last_setups"] = {}
        found = saved.get(self.mode)
        # (after "New game", the timers of the game it closed: App.close_game)
        timer = found[1] if isinstance(found, list) and len(found) == 2 else None
        saved[self.mode] = [clone(values), timer]
        found = values["first"] >= n  # a random first player
        if found:
            values["first"] = (((app.now & 0xFFFFFF) * 1103515245 + 12345) >> 16) % n
        try:
            state = self.ui.new_state(values)
            if "".join(values["names"][:n]):
                state["names"] = values["names"][:n]
            if timer is not None:  # the table settings kept
                for i, key in enumerate(["dir", "rot", "lap", "tt", "tb", "inc", "rt"]):
                    state[key] = timer[i]
                state["bk"] = [state["tb"]] * n
            registry.rules(self.mode).check(state)
        except MemoryError:
            raise  # the heap's, not the setup's: the app reports it; the values stay saved
        except Exception:  # a remembered setup this firmware cannot play: the defaults
            self.values = self.ui.default_setup()
            self.changed()
            saved.pop(self.mode)
            app.refuse("setup_unusable")
            return
        found = app.tr("nm.starts_now") if found else None  # (the form's texts go)
        app.start_game(self.mode, state)
        if found:
            app.say(view.names_in(state, found + " %p", (("%p", state["act"]),)))

    def rows(self, app):
        lines = self.lines(app)
        items = [""] * len(lines)  # those out of view not laid out (~0.5 ms a line on the board)
        top = view.menu_top(self.cursor)
        for i in range(top, min(top + view.ROWS - 1, len(lines))):
            label, value = lines[i][0], lines[i][1]
            room = COLS - 2 - len(value)  # a long name is cut, the colour kept
            items[i] = view.split(label[:room], value + " ", COLS - 1) if value else label
        return menu_rows(app.tr("m." + self.mode), items, self.cursor)
