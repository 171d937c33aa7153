"""Whole games and every demo session on the simulated MacroPad, played with its own keys and
its encoder (tests/macropad_keys.py): each ends with the same game and the same screen as on
the simulated Pico, with nothing raised."""

from pathlib import Path

import pytest
from macropad_keys import own_keys
from test_fullgames import CORNERS, EXPECTED

from host_tools.pico.board import after_each_boot
from host_tools.sim import SimBoard
from host_tools.sim.boards import KEY_NAMES, MACROPAD

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "fullgames"
# the demo sessions that need no files of their own on the drive ("# drive: DIR" scripts do)
DEMOS = sorted(
    path
    for path in (ROOT / "docs" / "scripts").glob("*.txt")
    if not path.read_text(encoding="utf-8").startswith("# drive:")
)


def key_names(script):
    return [
        words[1]
        for words in (line.partition("#")[0].split() for line in script.splitlines())
        if words[:1] in (["press"], ["hold"])
    ]


def test_own_keys_leaves_no_firmware_key_name_and_the_games_use_every_macropad_key():
    script = "".join(
        own_keys((GAMES / f"{name}.txt").read_text(encoding="utf-8"))
        for name in list(EXPECTED) + list(CORNERS)
    )
    names = key_names(script)
    assert not set(names) & set(KEY_NAMES)
    assert set(names) == {"KEY%d" % n for n in range(1, 13)} | {"ENCODER"}
    assert "turn -1" in script and "turn +1" in script


def test_own_keys_keeps_the_hold_of_ok_on_its_key():
    script = own_keys("press OK\npress OK\nhold OK 1500  # the menu\nhold UP 900\n")
    assert key_names(script) == ["KEY3", "ENCODER", "KEY3", "KEY2"]
    assert "hold KEY3 1500" in script


def _same_end(script):
    pico = SimBoard().run_script(script)
    macropad = SimBoard(board_id=MACROPAD.board_id).run_script(own_keys(script))
    assert not macropad.crashes and not macropad.warnings, (macropad.crashes, macropad.warnings)
    assert macropad.state == pico.state
    assert macropad.frames[-1]["screen"] == pico.frames[-1]["screen"]
    return macropad


@pytest.mark.parametrize("name", sorted(EXPECTED) + sorted(CORNERS))
def test_a_whole_game_with_the_macropads_keys_ends_as_on_the_pico(name):
    script = after_each_boot((GAMES / f"{name}.txt").read_text(encoding="utf-8"))
    result = _same_end(script)
    assert result.state["mode"] is None  # recorded: the game is over


@pytest.mark.parametrize("path", DEMOS, ids=lambda path: path.stem)
def test_a_demo_session_with_the_macropads_keys_ends_as_on_the_pico(path):
    _same_end(after_each_boot(path.read_text(encoding="utf-8")))
