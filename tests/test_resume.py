"""A resume that shows itself: keys pressed while a saved game comes back are not applied
blind, and the simulator takes as long as the emulated Pico to bring it back.

A run's t=0 is code.py's start; the game is on screen some 0.8 s later in the simulator (as
on the board: its power-on to code.py is charged only for a power back, ``boot``)."""

import functools
from typing import Any

import pytest

from host_tools.pico import bench
from host_tools.sim import SimBoard

EARLY = "Early keys ignored"
# Power back to the game on screen on the emulated Pico (CircuitPython 10.2.1, .mpy as
# deployed), each mode's game saved mid-way, and to the first screen with nothing saved:
# `python -m host_tools bench --resume`, 2026-12-06.
PICO_RESUME_MS = {
    "free": 1930.0,
    "diced_tomatoes": 2011.0,
    "horticolor": 2079.0,
    "hortis": 2036.0,
    "arboretum": 2062.0,
    bench.NO_GAME: 1736.0,
}


@functools.cache
def save(mode: str = "free") -> bytes:
    return bench.resume_save(mode)


def run(script: str, mode: str = "free") -> Any:
    return SimBoard(nvm=save(mode)).run_script(script)


def shown(result: Any, after_ms: int = 0) -> dict[str, Any]:
    return next(
        f for f in result.frames if f["t_ms"] >= after_ms and any(r.strip() for r in f["screen"])
    )


def said(frame: dict[str, Any]) -> bool:
    return any(row.strip() == EARLY for row in frame["screen"])


def test_keys_pressed_while_the_game_comes_back_are_dropped_and_said():
    quiet = run("wait 3000\n")
    typed = run("wait 100\npress RIGHT\npress TURN\nhold DOWN 300\nwait 3000\n")
    first = shown(typed)
    assert first["t_ms"] > 600  # the keys came before it
    assert said(first)
    game = [row for row in first["screen"] if EARLY not in row]
    assert game == [row for row in shown(quiet)["screen"] if row in game]  # as it was saved
    assert typed.state == quiet.state  # nothing applied
    assert not typed.crashes


def test_a_key_held_across_the_first_frame_is_dropped_whole():
    quiet = run("wait 4000\n")
    held = run("wait 100\nhold RIGHT 2500\nwait 1500\n")  # its repeats would come after
    assert held.state == quiet.state


def test_keys_after_the_first_frame_act_as_ever():
    quiet = run("wait 3000\n")
    after = run("wait 1500\npress RIGHT\nwait 1500\n")
    assert after.state != quiet.state
    assert after.state["state"]["sc"] != quiet.state["state"]["sc"]
    assert not any(said(f) for f in after.frames)


def test_the_safe_menu_still_opens_during_a_resume():
    assert run("wait 100\npress BACK\nwait 2000\n").state["screen"] == "SafeScreen"
    assert run("hold BACK 2000\nwait 1000\n").state["screen"] == "SafeScreen"


def test_power_back_loses_keys_before_code_py_and_drops_those_before_the_game():
    script = "wait 2000\npower-cut\nwait 1000\nboot\nwait 500\npress RIGHT\nwait 800\npress TURN\n"
    result = run(script + "wait 3000\n")
    quiet = run("wait 2000\npower-cut\nwait 1000\nboot\nwait 4500\n")
    # RIGHT comes while CircuitPython starts (no keys scanned yet: lost, as on the board),
    # TURN after code.py's start, before the game is on screen: dropped and said
    assert said(shown(result, 3000))
    assert result.state == quiet.state


@pytest.mark.parametrize("mode", list(PICO_RESUME_MS))
def test_the_simulators_resume_is_within_10_percent_of_the_emulated_picos(mode):
    sim = bench.sim_resume(save(mode))["resume_ms"]
    assert sim is not None
    assert abs(sim - PICO_RESUME_MS[mode]) <= 0.1 * PICO_RESUME_MS[mode], (mode, sim)
