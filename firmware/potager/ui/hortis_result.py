# HORTIS result of the player shown (TURN: the next one): score, the recipe challenge (bonus,
# multiplier, target: LEFT/RIGHT change them as undoable actions, held 5 at a time; the final
# and won/lost), End game, the rating band (the title in the screen's language, then in the
# other: the French title as printed and the English one, each wrapped over the rows it
# needs), the best of this game, the dice used (the tie-break); then Records, Game menu.

from potager.core import keys
from potager.core.games import hortis
from potager.core.gestures import SHORT
from potager.ui.screens import ConfirmScreen, ListScreen
from potager.ui.view import COLS, player_tag, split


class ResultScreen(ListScreen):
    HELP: tuple = ListScreen.HELP + (("◄►", "h.change"), ("TURN", "hortis.help_player"))

    def __init__(self, screen, app):
        ListScreen.__init__(self)
        self.screen = screen
        self.active = app.engine.state["act"]
        # the cursor where it is wanted most: the recipe's bonus, or End game
        for i, entry in enumerate(self.entries(app)):
            if entry[0] == (0 if app.engine.state["rc"] else -2):
                self.cursor = i
                break

    def entries(self, app):
        # (what, row): 0-2 a recipe field LEFT/RIGHT change (bonus, multiplier, target), -1
        # nothing, -2 End game, -3 Records, -4 Game menu
        state = app.engine.state
        p, tr = self.active, app.tr
        s = hortis.score(state, p)
        band = hortis.band(state["g"], s)
        # the score first, then what the player acts on (the recipe, else End game) with the
        # rating band below it: the opening view shows the score with the cursor's row
        out = [(-1, split(tr("hortis.score"), str(s), COLS - 1))]
        if state["rc"]:
            values = (
                str(state["bo"][p]),
                tr("hortis.times") + str(state["mu"][p]),
                str(state["tg"]),
            )
            for i in range(3):
                text = tr(("hortis.bonus", "hortis.multiplier", "hortis.target")[i])
                out.append((i, split(text, "◄" + str(values[i]) + "►", COLS - 1)))
            s, value = hortis.final(state, p)  # and won
            text = tr("hortis.final") + " " + str(s)
            out.append((-1, split(text, tr("hortis.verdict" + str(int(value))), COLS - 1)))
        out.append((-2, tr("end") + tr("hortis.more")))
        titles = (band["title_en"], band["title_fr"])
        for text in (titles[1], titles[0]) if app.language == "fr" else titles:
            line = ""
            for key in text.split(" "):  # wrapped between words
                if line and len(line) + len(key) >= COLS - 1:
                    out.append((-1, line))
                    line = key
                else:
                    line = line + " " + key if line else key
            out.append((-1, line))
        rec = app.records.get("hortis")
        text = str(rec["b"][state["g"]]) if rec and rec["b"][state["g"]] is not None else "-"
        out.append((-1, split(tr("hortis.best"), text, COLS - 1)))
        out.append((-1, split(tr("hortis.dice_used"), str(hortis.dice_used(state, p)), COLS - 1)))
        out.append((-3, tr("hortis.records") + tr("hortis.more")))
        return out + [(-4, tr("hortis.game_menu"))]

    def title(self, app):
        return split(app.tr("hortis.result"), player_tag(app.engine.state, self.active))

    def items(self, app):
        out = self.entries(app)
        self.cursor = min(self.cursor, len(out) - 1)  # another player's result may be shorter
        return [text for _, text in out]

    def on_key(self, app, key, kind):
        state = app.engine.state
        i = self.entries(app)[min(self.cursor, len(self.items(app)) - 1)][0]
        if key in (keys.LEFT, keys.RIGHT) and i >= 0:
            p = self.active
            value = (state["bo"][p], state["mu"][p], state["tg"])[i]
            value += (1 if kind == SHORT or i == 1 else 5) * (1 if key == keys.RIGHT else -1)
            app.act((hortis.FIELD, p * 32 + 16 + i, value))
        elif key == keys.TURN and kind == SHORT:
            self.active = (self.active + 1) % state["n"]
        elif key not in (keys.LEFT, keys.RIGHT):
            ListScreen.on_key(self, app, key, kind)
        app.changed()

    def choose(self, app, index):
        i = self.entries(app)[index][0]
        if i == -2:
            app.push(ConfirmScreen("q.end", lambda: self.screen.show(app, 2)))
        elif i == -3:
            from potager.ui.hortis import load

            app.push(load("hortis_end").RecordsScreen(app, False))
        elif i == -4:
            from potager.ui.menu import MenuScreen

            app.push(MenuScreen(self.screen))
