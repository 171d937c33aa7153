"""Crash recovery on the simulated board: an exception in the loop and a hung loop both come
back with the game intact. The faults are injected by a test copy of code.py."""

import shutil
from pathlib import Path

from host_tools.sim import DEFAULT_FIRMWARE, SimBoard

SETUP = "wait 4000\npress DOWN\npress OK\npress OK\npress OK\n"  # OK starts the free score for 4

# hold UP on the free-score screen triggers the fault; everything else is the real firmware
FAULTY_CODE = """
from potager.hw.buttons import scan_now
scan_now()
import time
from potager.ui import free

_on_key = free.GameScreen.on_key


def on_key(self, app, key, kind):
    if key == 0 and kind == 2:
        {fault}
    return _on_key(self, app, key, kind)


free.GameScreen.on_key = on_key
from potager.app import main
main()
"""


def firmware_with(tmp_path, fault):
    target = tmp_path / "firmware"
    shutil.copytree(DEFAULT_FIRMWARE, target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "code.py").write_text(FAULTY_CODE.replace("{fault}", fault))
    return target


def test_an_exception_shows_a_code_keeps_the_game_and_carries_on(tmp_path):
    board = SimBoard(firmware_with(tmp_path, "raise RuntimeError('bug')"))
    result = board.run_script(SETUP + "press RIGHT\npress TURN\nhold UP 700\nwait 2500\n")
    assert [c.caught for c in result.crashes] == [True]
    rows = result.frames[-1]["screen"]
    assert rows[0].startswith("Error ") and rows[1].startswith("Your game is kept.")
    assert result.state["state"]["act"] == 1  # the game as it was
    result = board.run_script("wait 4000")  # the next power cycle: saved after the crash too
    assert result.state["state"]["act"] == 1 and result.state["state"]["sc"] == [1, 0, 0, 0]


def test_the_error_screen_goes_back_to_the_game_by_itself(tmp_path):
    board = SimBoard(firmware_with(tmp_path, "raise RuntimeError('bug')"))
    result = board.run_script(SETUP + "press RIGHT\nhold UP 700\nwait 3500\npress RIGHT\n")
    assert result.frames[-1]["screen"][1].startswith("▶♥P1*    2")
    assert result.state["screen"] == "GameScreen"


def test_a_hung_loop_is_reset_by_the_watchdog_and_resumes_the_game(tmp_path):
    board = SimBoard(firmware_with(tmp_path, "while True:\n            time.sleep(0.05)"))
    result = board.run_script(
        SETUP + "press RIGHT\npress TURN\nwait 3000\nhold UP 700\nwait 12000\n"
    )
    assert any("watchdog" in c.traceback for c in result.crashes)
    assert result.state["state"]["sc"] == [1, 0, 0, 0]  # back from the save after the reset
    assert result.state["state"]["act"] == 1
    assert result.frames[-1]["screen"][0].startswith("Round 1")


def test_watchdog_is_fed_and_never_fires_in_normal_play():
    result = SimBoard(Path(DEFAULT_FIRMWARE)).run_script(SETUP + "wait 30000\npress TURN\n")
    assert result.crashes == []
