"""Shapes every mode shares, checked once for all of them so the next mode cannot get them
wrong: a message names a player with as much of the name as its row holds, and results say a
win that is still shared after the tie-break. (The menus: test_menus.py.)"""

from pathlib import Path

import pytest

from host_tools.mpy.pureboard import PureBoard
from potager import lang
from potager.core import registry
from potager.core.games import horticolor
from potager.ui import view
from potager.ui.results import ResultsScreen

LONGEST = "Maximilien"  # 10 letters: the longest name players.txt takes
NAMES = ["Zoé", LONGEST, "Léa", "Éloïse", "Bo", "Hugo"]
MARKS = ("%p", "%a", "%q")


def state_of(players=4, names=NAMES):
    return {"n": players, "col": list(range(players)), "act": 0, "names": names[:players]}


def texts(code, mode):
    return lang.load(code, mode, lang.Texts([]))


def templates(code, mode):
    """Every undo/redo template of `mode` (and of the table) that names a player."""
    found = texts(code, mode)
    out = []
    for op in range(64):
        text = found.get("u.undo_op_" + str(op))
        if text is not None and any(mark in text for mark in MARKS):
            out.append(text)
    return out


# ------------------------------------------------------------------ names in messages
@pytest.mark.parametrize("width", range(view.COLS + 1))
def test_a_name_takes_the_room_its_row_leaves_and_no_more(width):
    state = state_of()
    for text, marks in (
        ("Undone: %a +1", (("%a", 1),)),
        ("%p gives %a", (("%p", 0), ("%a", 1))),
        ("%a and %a", (("%a", 1),)),
        ("%p", (("%p", 3),)),
    ):
        out = view.names_in(state, text, marks, width)
        fixed = len(text) - sum(text.count(mark) * len(mark) for mark, _ in marks)
        tags = sum(text.count(mark) for mark, _ in marks)
        whole = view.names_in(state, text, marks, 99)
        if len(whole) <= width:
            assert out == whole  # room for every name whole: never cut
        elif fixed + 3 * tags <= width:
            assert width - tags < len(out) <= width  # cut just enough to fill the row
        else:
            assert len(out) == fixed + 3 * tags  # two letters and the symbol at least
        for mark, player in marks:
            if mark in text:
                symbol = view.symbol(state, player)
                assert symbol in out
                name = out.split(symbol)[1].split(" ")[0]
                assert LONGEST.startswith(name) or NAMES[player].startswith(name)
                assert len(name) >= min(2, len(NAMES[player]))


def test_a_name_that_reads_like_a_mark_stays_a_name():
    state = state_of(names=["%a", "Bo", "", ""])
    assert view.names_in(state, "%p to %a", (("%p", 0), ("%a", 1))) == "♥%a to ●Bo"


@pytest.mark.parametrize("code", lang.CODES)
@pytest.mark.parametrize("mode", registry.names())
def test_every_undo_message_names_players_as_long_as_the_row_holds(code, mode):
    found = texts(code, mode)
    for frame in (found.get("undone"), found.get("redone")):
        width = view.COLS - len(frame) + 2
        for text in templates(code, mode):
            for players in (1, 2, 4, 6):
                state = state_of(players)
                marks = [(mark, players - 1) for mark in MARKS]
                out = frame.replace("{}", view.names_in(state, text, marks, width))
                assert len(out) <= view.COLS or LONGEST[:3] not in out, (code, mode, out)
                if len(text.replace("%p", "").replace("%a", "").replace("%q", "")) < 8:
                    # a short template leaves room for the longest whole name
                    assert NAMES[players - 1] in out or len(out) == view.COLS, out


@pytest.mark.parametrize("code", lang.CODES)
def test_undo_and_redo_say_the_whole_name_where_the_bottom_row_has_room(code):
    board = PureBoard()
    board.app.roster = ["Zoé", LONGEST]
    board.script(("press OK\n" if code == "fr" else "press DOWN\npress OK\n") + "press OK\n")
    # the seats' names: P1 Zoé, P2 Maximilien, then Start
    for seat, index in ((0, 1), (1, 2)):
        board.script("press DOWN\n" * (2 + seat) + "press OK\n" + "press DOWN\n" * index)
        board.script("press OK\n" + "press UP\n" * (2 + seat))
    board.script("press DOWN\n" * 6 + "press OK\npress RIGHT\npress DOWN\npress RIGHT")
    undone = "Annulé : " if code == "fr" else "Undone: "
    redone = "Rétabli : " if code == "fr" else "Redone: "
    board.script("press BACK")  # a 10-letter name loses what the 21 columns lack, no more
    longest = "Annulé : ●Maximili +1" if code == "fr" else "Undone: ●Maximilie +1"
    assert board.rows()[4] == longest
    board.script("press UP\npress BACK")  # to P1's +1
    assert board.rows()[4].startswith(undone + "♥Zoé +1")
    board.script("hold BACK 800")
    assert board.rows()[4].startswith(redone + "♥Zoé +1")


# ------------------------------------------------------------------ shared wins
def tie_rules(mode):
    """The tie-break a mode names in its results (None: a tie is shared, as in free score
    and Diced Tomatoes), found where its game screen passes it to finish_game."""
    source = Path(registry.screens(mode).__file__).read_text(encoding="utf-8")
    for name in ("a.tie_break_rule", "hc.tie_rule", "hortis.tie_rule"):
        if name in source:
            return name
    return None


def results_lines(code, mode, totals, winners):
    app = PureBoard().app
    app.texts = texts(code, mode)
    state = state_of(len(totals))
    state["turns"] = [0] * len(totals)
    rule = tie_rules(mode)
    screen = ResultsScreen(state, totals, winners, None, app.tr(rule) if rule else None)
    return screen.items(app), app


@pytest.mark.parametrize("code", lang.CODES)
@pytest.mark.parametrize("mode", registry.names())
def test_results_say_a_shared_win_as_shared_after_every_tie_break(code, mode):
    rule = tie_rules(mode)
    # three tied, the tie-break leaves two: the rule, then the win still shared
    lines, app = results_lines(code, mode, [9, 9, 9, 4], [0, 1])
    said = " ".join(lines)
    shared = app.tr("res.still_shared") if rule else app.tr("res.tie_shared")
    assert shared in said and (rule is None or app.tr(rule) in said)
    # the tie-break leaves one: the rule alone
    lines, app = results_lines(code, mode, [9, 9, 9, 4], [2])
    said = " ".join(lines)
    assert app.tr("res.still_shared") not in said and app.tr("res.tie_shared") not in said
    assert rule is None or app.tr(rule) in said
    # two tied, no tie-break could part them (or the mode has none): a shared win
    lines, app = results_lines(code, mode, [9, 9, 4, 4], [0, 1])
    assert app.tr("res.tie_shared") in " ".join(lines)
    for line in lines:
        assert len(line) <= view.COLS, line


@pytest.mark.parametrize("code", lang.CODES)
def test_horticolor_three_way_tie_left_level_by_the_cards_is_a_shared_win(code):
    board = PureBoard()
    board.script("press OK\n" if code == "fr" else "press DOWN\npress OK\n")
    board.script("press DOWN\npress DOWN\npress OK\npress RIGHT\npress OK")  # Horticolor for 4
    app = board.app
    state = app.engine.state
    assert app.mode == "horticolor" and state["n"] == 4
    # the final scoring reached: P1, P2 and P3 tied on 20, P1 and P2 with 5 cards, P3 6
    state["ph"] = horticolor.FINAL
    state["fp"] = [20, 0, 0, 18, 2, 0, 20, 0, 0, 7, 0, 0]
    state["vc"] = [5, 5, 6, 3]
    rule = app.tr("hc.tie_rule")
    app.screen().finish(app)
    rows = " ".join(app.screen().items(app))
    assert app.history[-1][4] == [0, 1]
    assert rule in rows and app.tr("res.still_shared") in rows
    assert horticolor.totals(state)[:3] == [20, 20, 20]


# ------------------------------------------------------------------ the cursor kept
ENGLISH = "press DOWN\npress OK\n"  # first boot: the language


def choose(board, key):
    """In the menu on screen, the item of text `key`, chosen by its name (not its place)."""
    item = view.CURSOR + board.app.tr(key)
    for _ in range(20):
        if any(row.rstrip() == item for row in board.rows()):
            board.script("press OK")
            return
        board.script("press DOWN")
    raise AssertionError(key + " not in the menu")


def free_cursor_on_p2(board):
    board.script(ENGLISH + "press OK\npress OK\npress DOWN\npress RIGHT")  # P2 +1


def diced_tomatoes_cursor_on_p3(board):
    board.script(ENGLISH + "press DOWN\npress OK\npress OK\npress DOWN\npress DOWN\npress OK")
    choose(board, "round+")  # an action that leaves the cursor where it is
    if type(board.app.screen()).__name__ == "MenuScreen":
        board.script("press BACK")  # (the menu stays for another round)


def horticolor_cursor_on_p3(board):
    # the draft dealt; P2's card validated: the cursor goes on to P3
    board.script(ENGLISH + "press DOWN\npress DOWN\npress OK\npress OK\npress TURN")
    board.script("press DOWN\npress RIGHT")


def hortis_cursor_on_face_3(board):
    board.script(ENGLISH + "press DOWN\n" * 3 + "press OK\npress OK\npress DOWN\npress RIGHT")


def arboretum_cursor_on_willow(board):
    board.script(ENGLISH + "press DOWN\n" * 4 + "press OK\npress OK\npress DOWN\npress RIGHT")
    board.script("press DOWN\npress BACK")  # a Willow card in P1's hand


CURSORS = {
    "free": (free_cursor_on_p2, 1),
    "diced_tomatoes": (diced_tomatoes_cursor_on_p3, 2),
    "horticolor": (horticolor_cursor_on_p3, 2),
    "hortis": (hortis_cursor_on_face_3, 1),
    "arboretum": (arboretum_cursor_on_willow, 1),
}


def test_every_mode_has_its_cursor_case():
    assert sorted(CURSORS) == sorted(registry.names())


@pytest.mark.parametrize("how", ["power-cut\nwait 1000\nboot", "reload"])
@pytest.mark.parametrize("mode", registry.names())
def test_the_game_screens_cursor_survives_a_power_cut_and_a_reload(mode, how):
    board = PureBoard()
    play, cursor = CURSORS[mode]
    play(board)
    app = board.app
    assert app.mode == mode and app.engine.revision > 0, board.rows()
    assert app.stack[0].cursor == cursor != app.engine.state["act"], board.rows()
    board.script("wait 3000")  # quiet: saved
    rows, state = board.rows(), app.engine.state
    board.script(how + "\nwait 3000")
    app = board.app
    assert app.stack[0].cursor == cursor and app.engine.state == state
    assert board.rows() == rows
    # a save with nonsense where the cursor is kept: the cursor stays on its default
    for value in (-1, 99, "x", [1], None):
        app.stack[0].select(app, value)
        assert app.stack[0].cursor == cursor
