# A mode's setup form; the mode's screen module declares its fields (SETUP, potager.ui.table),
# potager.ui.table_setup lays them out and changes them.
#
# The form opens on the last setup of the mode (app.records["last_setups"][mode], saved with
# the settings: [values, table settings]): players, names, colours, first player, options,
# and the table settings of that game (order, timers); "Same as last time" on top starts it
# again in one press. OK on a seat opens the names of players.txt (potager.roster, read once
# per power-up; its bad lines listed once per change of the file). A random first player is
# drawn at the start from the time of the press (a human's timing; the same press replays the
# same on every port).
# Forgotten when a game starts (RAM).

import os

from potager import lang
from potager.core import keys, registry
from potager.core.crc import crc16
from potager.core.engine import clone
from potager.core.gestures import SHORT
from potager.ui import table_setup, view
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
        self.values = table_setup.default_setup(self.ui.SETUP)
        self.kept = None  # (texts, the form's field rows for the values): see fields()
        try:  # the last setup of the mode if it still has the shape of the defaults and its
            # table part holds (the rules check the rest when the game starts)
            saved = app.records["last_setups"][mode][0]
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
            fields = self.field_lines(app, saved)  # the mode's own fields can be drawn
            self.values = clone(saved)
            self.kept = (app.texts, fields)
            self.same_as_last = True  # "Same as last time" is the first line
        except Exception:  # nothing saved, or not in this firmware's shape
            self.same_as_last = False
        self.cursor = 0
        self.problem = None
        if app.roster is None:  # players.txt, read once per power-up
            app.roster = []
            try:  # the reader is compiled only when there is a file to read
                # on the drive root: the potager folder (of potager/ui/setup.py) less 7 letters
                path = __file__.rsplit("/", 2)[0][:-7] + "players.txt"
                os.stat(path)  # (a failed open costs the board 10 ms, a failed stat 0.2)
                roster = registry.load("potager.roster").read(path)
                registry.forget("potager.roster")
                app.roster, self.problem = roster
                # its bad lines are listed once per change of what it holds, not at every
                # power-up: a checksum in the records (saved when the next game starts)
                checksum = crc16(repr(roster).encode())
                if app.records.get("players.txt") == checksum:
                    self.problem = None
                app.records["players.txt"] = checksum
            except OSError:
                pass

    def upcoming(self, app):
        # the checks the new state goes through at start, and what the mode's game loads as
        # it starts (its screen module's upcoming(values), where it has one); the game's
        # menu comes after the game's first frame (table.GameScreen.upcoming): loaded here,
        # it was the session's lowest heap, the setup's modules and the game's at once
        more = getattr(self.ui, "upcoming", None)
        ahead = ("potager.core.table_check",)
        return ahead + (more(self.values) if more else ())

    def field_lines(self, app, values):
        # a line a row of the fields: (label, value, (field, index), seat or None)
        out = []
        for field, i in table_setup.rows(self.ui.SETUP, values):
            line = table_setup.line(app, self.ui, values, field, i)
            out.append((line[0], line[1], (field, i), line[2] if len(line) > 2 else None))
        return out

    def fields(self, app):
        # the field lines for the values, kept until they change (changed()) or the texts
        # do: they cost the board 10-30 ms, and a key reads them, then draws them
        if self.kept is None or self.kept[0] is not app.texts:
            self.kept = (app.texts, self.field_lines(app, self.values))
        return self.kept[1]

    def lines(self, app):
        # "Same as last time" (while the form holds it), the fields, "Start"
        same = [(app.tr("nm.same_last"), "", None, None)] if self.same_as_last else []
        return same + self.fields(app) + [(app.tr("start"), "", None, None)]

    def tick(self, app, now):
        if self.problem:  # the bad lines of players.txt, once
            app.push(registry.load("potager.ui.setup_names").screen(self, None, self.problem))
            self.problem = None

    def on_key(self, app, key, kind):
        lines = self.lines(app)
        count = len(lines)
        row, seat = lines[self.cursor][2], lines[self.cursor][3]  # (None: not a field's)
        if key == keys.UP and kind == SHORT:
            self.cursor = (self.cursor - 1) % count
        elif key == keys.DOWN and kind == SHORT:
            self.cursor = (self.cursor + 1) % count
        elif key in (keys.LEFT, keys.RIGHT) and row is not None:
            delta = 1 if key == keys.RIGHT else -1
            reason = table_setup.change(self.ui, self.mode, self.values, row[0], row[1], delta)
            self.kept = None  # (a refused change may have moved a value on its way)
            if reason is not None:
                app.refuse(reason)
            else:
                self.changed()
        elif key == keys.OK and kind == SHORT:
            if seat is not None and app.roster:
                names = registry.load("potager.ui.setup_names")  # a seat: pick its name
                app.push(names.screen(self, seat, app.roster))
            else:
                self.start(app)  # from any other line
        else:
            Screen.on_key(self, app, key, kind)
        app.changed()

    def changed(self):
        # the values changed: their fields are drawn anew; the form no longer holds the last
        # setup: "Same as last time" goes
        self.kept = None
        if self.same_as_last:
            self.same_as_last = False
            self.cursor = max(self.cursor - 1, 0)

    def start(self, app):
        values = clone(self.values)
        n = values["players"]
        last_setups = app.records.get("last_setups")
        if not isinstance(last_setups, dict):
            last_setups = app.records["last_setups"] = {}
        last = last_setups.get(self.mode)
        # (after "New game", the timers of the game it closed: App.close_game)
        timer = last[1] if isinstance(last, list) and len(last) == 2 else None
        last_setups[self.mode] = [clone(values), timer]
        drawn = values["first"] >= n  # a random first player
        if drawn:
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
            self.values = table_setup.default_setup(self.ui.SETUP)
            self.changed()
            last_setups.pop(self.mode)
            app.refuse("setup_unusable")
            return
        starts_now = app.tr("nm.starts_now") if drawn else None  # (the form's texts go)
        app.start_game(self.mode, state)
        if starts_now:
            app.say(view.names_in(state, starts_now + " %p", (("%p", state["act"]),)))

    def rows(self, app):
        lines = self.lines(app)
        items = [""] * len(lines)  # those out of view not laid out (~0.5 ms a line on the board)
        top = view.menu_top(self.cursor)
        for i in range(top, min(top + view.ROWS - 1, len(lines))):
            label, value = lines[i][0], lines[i][1]
            room = COLS - 2 - len(value)  # a long name is cut, the colour kept
            items[i] = view.split(label[:room], value + " ", COLS - 1) if value else label
        return menu_rows(app.tr("m." + self.mode), items, self.cursor)
