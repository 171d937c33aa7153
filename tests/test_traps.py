"""Traps found by playing without a script, each kept shut: a setup that could not
be left, a discarded game that came back after a cut, a turn too long to hand over, a result
that opened scrolled past its score, a paused table counted in the game's duration."""

import pytest

from host_tools.mpy.pureboard import WRAP, PureBoard
from potager import app as app_module
from potager.core import registry, table
from potager.power import ASLEEP, AWAKE
from potager.ui import table_setup
from potager.ui.menu import MenuScreen
from potager.ui.screens import HomeScreen

NINE_HOURS_MS = (table.MAX_SECONDS + 60) * 1000  # past what an action's seconds can hold


@pytest.fixture(autouse=True)
def crashes_raise(monkeypatch):
    def recover(self, error, now):
        raise error

    monkeypatch.setattr(app_module.App, "recover", recover)


def game(mode, **setup):
    board = PureBoard()
    board.app.set_language("en", save=False)
    ui = registry.screens(mode)
    values = table_setup.default_setup(ui.SETUP)
    values.update(setup)
    board.app.start_game(mode, ui.new_state(values))
    board.run(3000)  # saved
    return board


def menu_item(board, item):
    """Open the game menu and put its cursor on `item`."""
    app = board.app
    app.push(MenuScreen(app.stack[0]))
    menu = app.screen()
    menu.items(app)
    menu.cursor = menu.entries.index(item)
    board.run(100)


def later(board, ms):
    """`ms` pass with nobody at the table; then a key wakes the dark device (that key does
    nothing else, as on the board)."""
    board.now = (board.now + ms) % WRAP
    board.run(100)
    assert board.app.power.state == ASLEEP
    board.script("press UP\nwait 100")
    assert board.app.power.state == AWAKE


def screen(board):
    return type(board.app.screen()).__name__


def test_new_game_from_the_menu_opens_a_setup_that_back_leaves():
    board = game("free")
    menu_item(board, "new_game")
    board.script("press OK\npress OK")  # New game, yes: discarded
    assert screen(board) == "SetupScreen" and board.app.engine is None
    board.script("press BACK")
    assert screen(board) == "HomeScreen"
    assert "Resume" not in "".join(board.rows())  # the discarded game is gone


@pytest.mark.parametrize("how", ["menu", "home"])
def test_a_discarded_game_stays_discarded_after_a_cut_at_once(how):
    board = game("free")
    if how == "menu":
        menu_item(board, "new_game")
    else:  # Home, then another mode over the game in progress
        board.app.reset_to(HomeScreen())
        board.app.screen().cursor = 2  # (resume, free, diced tomatoes)
        board.run(100)
    board.script("press OK\npress OK\nwait 20")  # yes; the power goes 20 ms later
    board.script("power-cut\nboot\nwait 1000")
    assert board.app.engine is None and screen(board) == "HomeScreen"


def test_an_ended_game_is_never_played_again_after_a_cut_at_once():
    board = game("free")
    menu_item(board, "end")
    board.script("press OK\npress OK\nwait 20\npower-cut\nboot\nwait 1000")
    assert board.app.engine is None and len(board.app.history) == 1


@pytest.mark.parametrize(
    ("mode", "first"),
    [("free", ""), ("diced_tomatoes", ""), ("horticolor", "press TURN")],  # (its draft, done)
)
def test_a_turn_left_running_overnight_still_hands_over(mode, first):
    board = game(mode)
    board.script(first + "\nwait 3000")
    before = sum(board.app.engine.state["turns"])
    later(board, NINE_HOURS_MS)  # the device left on, nobody playing
    board.script("press TURN\nwait 500")
    state = board.app.engine.state
    assert sum(state["turns"]) == before + 1, board.rows()
    assert max(state["used"]) == table.MAX_SECONDS  # the turn's time, as much as it holds


@pytest.mark.parametrize("item", ["pass", "skip"])
def test_pass_and_skip_hand_over_after_a_turn_left_overnight(item):
    board = game("free")
    later(board, NINE_HOURS_MS)
    menu_item(board, item)
    board.script("press OK\nwait 500")
    assert board.app.engine.state["act"] != 0, board.rows()  # handed over


def test_a_hortis_result_opens_on_its_score_and_end_game():
    board = game("hortis")
    board.app.engine.state["end"] = 1  # the count over (the quick count's OK)
    board.app.show_game()
    app = board.app
    app.push(registry.load("potager.ui.hortis_result").ResultScreen(app.stack[0], app))
    board.run(100)
    rows = board.rows()
    assert rows[0].startswith("Result")
    assert rows[1].startswith(" Score") and rows[2].startswith("▶End game")


def test_a_paused_table_is_not_counted_in_the_game_duration():
    board = game("free")
    menu_item(board, "pause")
    board.script("press OK")
    assert board.app.clock.paused
    later(board, 12 * 3600 * 1000)  # a night paused
    menu_item(board, "pause")  # Unpause
    board.script("press OK\nwait 5000")
    menu_item(board, "end")
    board.script("press OK\npress OK\nwait 100")
    seconds = board.app.history[-1][7]  # [seq, mode, colours, totals, winners, names, start,
    assert 5 <= seconds <= 30, seconds  # seconds played, ...]: the play only, not the night


def test_four_diced_tomatoes_seats_in_view_and_a_pause_keeps_its_header():
    board = game("diced_tomatoes", players=4)
    state = board.app.engine.state
    state["full"], state["mark"] = 0, 3  # the last round: P4 plays last
    board.app.changed()
    board.run(100)
    rows = board.rows()
    assert [row[2:4] for row in rows[1:]] == ["P1", "P2", "P3", "P4"]
    assert rows[0].startswith("▲P4 plays last")  # what the table must know, in the header
    menu_item(board, "pause")
    board.script("press OK\nwait 3000")  # (the message gone)
    assert "PAUSE" in board.rows()[0]  # paused: the header says so, not the status
