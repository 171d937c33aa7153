# The setup's names: a name per seat from players.txt (Form), and what the file held that
# could not be used (ErrorScreen). Imported when a seat's name is chosen or the file has bad
# lines. RAM: the firmware's own names are reused (a new identifier stays interned for good).

from potager.core import keys
from potager.core.gestures import SHORT
from potager.ui.screens import ListScreen


def screen(setup, seat, found):
    # The names of players.txt (`found`) for `seat`; seat None: the file's bad lines.
    return ErrorScreen(found) if seat is None else Form(setup, seat, found)


class Form(ListScreen):
    # A name for one seat: none (the seat number) or one of players.txt; a name another seat
    # holds moves here. The list opens on the seat's name.

    def __init__(self, setup, seat, found):
        ListScreen.__init__(self)
        self.setup = setup
        self.seat = seat
        self.lines = found
        name = setup.values["names"][seat]
        self.cursor = found.index(name) + 1 if name in found else 0

    def title(self, app):
        return app.tr("nm.name_title") + " P" + str(self.seat + 1)

    def items(self, app):
        # "P2 (no name)", then the names, "Zoé (P3)" for one another seat holds
        names = self.setup.values["names"][: self.setup.values["players"]]
        out = [app.tr("nm.name_none") % (self.seat + 1)]
        for name in self.lines:
            found = name in names and names.index(name) != self.seat
            out.append(name + (app.tr("nm.name_held") % (names.index(name) + 1) if found else ""))
        return out

    def choose(self, app, index):
        names = self.setup.values["names"]
        name = self.lines[index - 1] if index else ""
        if name in names:
            names[names.index(name)] = ""
        names[self.seat] = name
        self.setup.changed()
        app.pop()


class ErrorScreen(ListScreen):
    # What players.txt holds that could not be used, a line each; OK or BACK goes on, ↑↓
    # scroll a list longer than the screen; any other key goes on too, and to the setup (it
    # is not lost: ←→ change the field under the setup's cursor).

    def __init__(self, found):
        ListScreen.__init__(self)
        self.lines = found

    def on_key(self, app, key, kind):
        # (4 lines in view; hold OK: the help)
        if (key == keys.OK and kind != SHORT) or (
            key in (keys.UP, keys.DOWN) and len(self.lines) > 4
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
        count = sum([found[2] if len(found) > 2 else 1 for found in self.lines])
        return app.tr("nm.file_title") + (" " + str(count) if self.lines[0][0] else "")

    def items(self, app):
        words = app.tr("nm.file_reasons").split("|")
        out = []
        for found in self.lines:
            if len(found) > 2 and found[1] == 4:  # "12 kept, 40 extra"
                out.append(app.tr("nm.file_many") % (len(app.roster), found[2]))
            elif len(found) > 2:  # "and 28 more"
                out.append(app.tr("nm.file_more") % found[2])
            elif found[0]:
                out.append(app.tr("nm.file_line") % (found[0], words[found[1]]))
            else:
                out.append(words[found[1]])
        return out
