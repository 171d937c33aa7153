# The setup's names: a name per seat from players.txt (Form), and what the file held that
# could not be used (ErrorScreen). Imported when a seat's name is chosen or the file has bad
# lines. (Its names were the firmware's own, reused: that saved one qstr, 9 bytes within a
# block already there, 0 bytes of heap on CircuitPython's 32-bit VM from .mpy.)

from potager.core import keys
from potager.core.gestures import SHORT
from potager.ui.screens import ListScreen


def screen(setup, seat, entries):
    # The names of players.txt (`entries`) for `seat`; seat None: the file's problems.
    return ErrorScreen(entries) if seat is None else Form(setup, seat, entries)


class Form(ListScreen):
    # A name for one seat: none (the seat number) or one of players.txt; a name another seat
    # holds moves here. The list opens on the seat's name.

    def __init__(self, setup, seat, roster):
        ListScreen.__init__(self)
        self.setup = setup
        self.seat = seat
        self.roster = roster
        name = setup.values["names"][seat]
        self.cursor = roster.index(name) + 1 if name in roster else 0

    def title(self, app):
        return app.tr("nm.name_title") + " P" + str(self.seat + 1)

    def items(self, app):
        # "P2 (no name)", then the names, "Zoé (P3)" for one another seat holds
        names = self.setup.values["names"][: self.setup.values["players"]]
        out = [app.tr("nm.name_none") % (self.seat + 1)]
        for name in self.roster:
            held = name in names and names.index(name) != self.seat
            out.append(name + (app.tr("nm.name_held") % (names.index(name) + 1) if held else ""))
        return out

    def choose(self, app, index):
        names = self.setup.values["names"]
        name = self.roster[index - 1] if index else ""
        if name in names:
            names[names.index(name)] = ""
        names[self.seat] = name
        self.setup.changed()
        app.pop()


class ErrorScreen(ListScreen):
    # What players.txt holds that could not be used, a line each; OK or BACK goes on, ↑↓
    # scroll a list longer than the screen; any other key goes on too, and to the setup (it
    # is not lost: ←→ change the field under the setup's cursor).

    def __init__(self, problems):
        ListScreen.__init__(self)
        self.problems = problems

    def on_key(self, app, key, kind):
        # (4 lines in view; hold OK: the help)
        if (key == keys.OK and kind != SHORT) or (
            key in (keys.UP, keys.DOWN) and len(self.problems) > 4
        ):
            ListScreen.on_key(self, app, key, kind)
            return
        app.pop()
        if key not in (keys.OK, keys.BACK):
            app.screen().on_key(app, key, kind)
        app.changed()

    def title(self, app):
        # line 0 is the whole file (too big, unreadable): no count of lines; a problem of
        # three (potager.roster: the names past the 12 kept, the bad lines past 12) counts many
        count = sum([problem[2] if len(problem) > 2 else 1 for problem in self.problems])
        return app.tr("nm.file_title") + (" " + str(count) if self.problems[0][0] else "")

    def items(self, app):
        words = app.tr("nm.file_reasons").split("|")
        out = []
        for problem in self.problems:
            if len(problem) > 2 and problem[1] == 4:  # "12 kept, 40 extra"
                out.append(app.tr("nm.file_many") % (len(app.roster), problem[2]))
            elif len(problem) > 2:  # "and 28 more"
                out.append(app.tr("nm.file_more") % problem[2])
            elif problem[0]:
                out.append(app.tr("nm.file_line") % (problem[0], words[problem[1]]))
            else:
                out.append(words[problem[1]])
        return out
