"""Whole games of every mode, as a table plays them (tests/fullgames/*.txt): each reaches the
results with the rule core's totals, in English and in French, on pure fakes and in the
simulator, within its budget of key presses. tests/fullgames/before/ holds the same games
played with the keys as they were (the same final states; `make bench` compares the counts)."""

from pathlib import Path

import pytest

from host_tools.mpy.pureboard import PureBoard
from potager.core.games import arboretum, horticolor, hortis
from potager.ui import diced_tomatoes_end

GAMES = Path(__file__).parent / "fullgames"
# name: (totals, winners, press budget); the budgets are the counts of the scripts
EXPECTED = {
    "diced_tomatoes-3p": ([17, 25, 23], [1], 83),
    "horticolor-3p": ([27, 40, 33], [1], 136),
    "arboretum-3p": ([19, 7, 11], [0], 121),
    "arboretum-4p": ([11, 13, 13, 23], [3], 157),
    "hortis-live": ([32], [0], 72),
}
# Whole games at the table's corners (tests/fullgames/*-tie.txt, *-solo.txt): the largest
# table or a solo game, a tie broken by the mode's rule and a win still shared after it, a
# power cut and a reload mid-game. name: (totals, winners, what the results say of the tie)
CORNERS = {
    "free-6p-tie": ([30, 1, 0, 30, 1, 0], [0, 3], "res.tie_shared"),
    "hortis-3p-tie": ([7, 7, 7], [0, 1], "res.still_shared"),
    "horticolor-4p-tie": ([20, 20, 20, 0], [1, 2], "res.still_shared"),
    "diced_tomatoes-solo": ([26], [0], None),
    "arboretum-4p-tie": ([2, 2, 2, 0], [0, 1], "res.still_shared"),
}
TWO_THIRDS = (  # at most 2/3 of the presses before
    "arboretum-3p",
    "arboretum-4p",
    "diced_tomatoes-3p",
    "horticolor-3p",
    "hortis-live",
)
# the spec's counts before the key redesign (spec/device.md): at most 2/3 of them
SPEC_BEFORE = {
    "arboretum-3p": 186,
    "arboretum-4p": 250,
    "diced_tomatoes-3p": 145,
    "horticolor-3p": 206,
    "hortis-live": 164,
}


def presses(text):
    return sum(
        1 for line in text.splitlines() if line.split("#")[0].split()[:1] in (["press"], ["hold"])
    )


def core_totals(mode, state):
    """The totals the rule core gives for a finished game's state."""
    if mode == "diced_tomatoes":
        return diced_tomatoes_end.totals(state)[1]
    if mode == "horticolor":
        return horticolor.totals(state)
    if mode == "arboretum":
        return arboretum.totals(state)[0]
    return [hortis.score(state, p) for p in range(state["n"])]


def french(text):
    """The same game with French chosen at the first boot (French is offered first)."""
    return text.replace("press DOWN\npress OK", "press OK", 1)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_whole_game_reaches_the_results_with_the_rule_cores_totals(name, language):
    text = (GAMES / (name + ".txt")).read_text()
    board = PureBoard()
    finished = []
    app_finish = type(board.app).finish_game

    def finish(app, totals, winners, *more, **named):  # (and the results' explanations)
        finished.append((app.mode, dict(app.engine.state), totals, winners))
        app_finish(app, totals, winners, *more, **named)

    type(board.app).finish_game = finish
    try:
        board.script(french(text) if language == "fr" else text)
    finally:
        type(board.app).finish_game = app_finish
    totals, winners, _ = EXPECTED[name]
    mode, state, shown, best = finished[-1]
    assert board.app.language == language
    assert board.app.engine is None and "ResultsScreen" in [
        type(s).__name__ for s in board.app.stack
    ]
    assert shown == totals == core_totals(mode, state) and best == winners
    assert board.app.history[-1][3:5] == [totals, winners]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_whole_game_keeps_to_its_press_budget(name):
    count = presses((GAMES / (name + ".txt")).read_text())
    before = presses((GAMES / "before" / (name + ".txt")).read_text())
    assert count <= EXPECTED[name][2] < before
    if name in TWO_THIRDS:
        assert 3 * count <= 2 * before
    if name in SPEC_BEFORE:
        assert 3 * count <= 2 * SPEC_BEFORE[name]


@pytest.mark.parametrize("name", sorted(EXPECTED) + sorted(CORNERS))
def test_a_whole_game_in_the_simulator(name):
    from host_tools.pico.board import after_each_boot
    from host_tools.sim import SimBoard

    # the table plays once the screen is up: the simulated board takes its 3 s to boot, as
    # the board does, and a script typing on meanwhile (30 keys) overflows keypad's queue of
    # 64 events, which then drops keys as on the board
    script = after_each_boot((GAMES / (name + ".txt")).read_text())
    result = SimBoard().run_script(script)
    assert not result.crashes and not result.warnings
    assert result.state["mode"] is None  # recorded: the game is over
    # the results (HORTIS: its records first, the results under them)
    assert result.state["screen"] == ("RecordsScreen" if name == "hortis-live" else "ResultsScreen")


def test_every_mode_has_a_corner_game_and_every_corner_game_is_checked():
    from potager.core import registry

    modes = {name.rsplit("-", 2)[0] for name in CORNERS}
    assert modes == set(registry.names())
    files = {p.stem for p in GAMES.glob("*.txt") if p.stem.endswith(("-tie", "-solo"))}
    assert files == set(CORNERS)


def seen(board):
    """What a cut or a reload must bring back: the game and the game screen's cursor (the
    species being entered in Arboretum); the screen then on top is the game's."""
    app = board.app
    return app.mode, app.engine and app.engine.state, app.engine and app.stack[0].selection(app)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", sorted(CORNERS))
def test_a_corner_game_survives_its_cuts_and_reloads_and_ends_as_the_rules_say(name, language):
    text = (GAMES / (name + ".txt")).read_text()
    text = french(text) if language == "fr" else text
    board = PureBoard()
    lines = text.splitlines()
    cuts = 0
    i = 0
    while i < len(lines):
        command = lines[i].split("#")[0].strip()
        if command in ("power-cut", "reload"):
            before = seen(board)
            board.script(lines[i])
            if command == "power-cut":  # the script's wait and boot
                while lines[i].split("#")[0].strip() != "boot":
                    i += 1
                    board.script(lines[i])
            board.script("wait 3000")
            assert seen(board) == before, lines[i]
            assert board.app.screen() is board.app.stack[0], lines[i]
            cuts += 1
        else:
            board.script(lines[i])
        i += 1
    assert cuts >= 2  # a cut and a reload, at least
    totals, winners, said = CORNERS[name]
    app = board.app
    assert type(app.screen()).__name__ == "ResultsScreen"
    assert app.language == language and app.engine is None
    assert app.history[-1][3:5] == [totals, winners]
    items = app.screen().items(app)
    for text in ("res.tie_shared", "res.still_shared"):
        assert (app.tr(text) in items) == (text == said), items
