"""The rule core and the App on CircuitPython's own 32-bit VM (the CircuitPython kit), from
.py and from .mpy: the golden scenarios, and a whole scripted game of each mode within the
heap that guards against regressions (SMALLEST_K + MARGIN_K); the heap budget itself is the
board's, asserted on the emulated Pico (test_pico.py)."""

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: the paths tests/conftest.py gives the tests
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.append(str(Path(__file__).resolve().parent.parent / "firmware"))

import mpy_runner
import pytest
import test_app
import test_mode_arboretum
import test_mode_diced_tomatoes
import test_mode_horticolor
import test_mode_hortis

from host_tools.mpy.pureboard import PureBoard

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))

# A whole game of each mode, to the results where the mode has them, as its tests play it.
GAMES = {
    "free": test_app.SCRIPT,
    "arboretum": test_mode_arboretum.compact_script(end=True),
    "diced_tomatoes": test_mode_diced_tomatoes.GAME + test_mode_diced_tomatoes.RECORD,
    "horticolor": test_mode_horticolor.MICRO + "press TURN\npress OK\n",
    "hortis": test_mode_hortis.COMPACT,
}
# The heap each game runs in: a regression guard, not the budget (the board's heap is, on the
# emulated Pico: test_pico.py). The smallest heap that ran, in steps of 8 K (`python
# tests/test_circuitpython_vm.py` prints them), plus a margin of 16 K: a change that needs
# 16 K more than today fails here, and the guard is lowered when the RAM comes down. (The
# modules of a game intern more than 620 names: the VM then needs a 6th qstr pool, 640
# entries (~4.6 KB) in one piece, so a heap just at the smallest runs by the luck of
# fragmentation: the margin covers it.)
MARGIN_K = 16
SMALLEST_K = {
    ("arboretum", "py"): 104,
    ("arboretum", "mpy"): 104,  # 96-104 with the length of the clone's path (its qstrs)
    ("diced_tomatoes", "py"): 112,
    ("diced_tomatoes", "mpy"): 96,
    ("free", "py"): 88,
    ("free", "mpy"): 80,
    ("horticolor", "py"): 112,
    ("horticolor", "mpy"): 104,
    ("hortis", "py"): 104,
    ("hortis", "mpy"): 104,
}


@pytest.mark.micropython
@pytest.mark.parametrize("form", ["py", "mpy"])
def test_golden_scenarios_on_circuitpython_32_bit(form):
    result = mpy_runner.circuitpython(
        mpy_runner.MPY / "run_golden.py", *GOLDEN, heap="64K", mpy=form == "mpy"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(GOLDEN)} passed, 0 failed" in result.stdout


def check_game(mode, form, heap, tmp_path):
    out = mpy_runner.run_app(GAMES[mode], tmp_path, heap=heap, mpy=form == "mpy")
    board = PureBoard()
    board.script(GAMES[mode])
    assert out["snapshot"] == board.app.snapshot()
    assert out["rows"] == board.rows()
    assert out["idle_growth_bytes"] == 0


@pytest.mark.micropython
@pytest.mark.parametrize(("mode", "form"), sorted(SMALLEST_K))
def test_whole_game_on_circuitpython_32_bit_in_its_guarded_heap(mode, form, tmp_path):
    check_game(mode, form, f"{SMALLEST_K[mode, form] + MARGIN_K}K", tmp_path)


def test_every_mode_and_form_has_a_guarded_heap():
    assert set(SMALLEST_K) == {(mode, form) for mode in GAMES for form in ("py", "mpy")}


def smallest_heaps(step_k=8, top_k=256):
    """{(mode, form): the smallest heap, in K, in which the game runs, scanning up by step_k}."""
    import tempfile

    found = {}
    for mode, form in sorted(SMALLEST_K):
        for k in range(step_k, top_k + 1, step_k):
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    check_game(mode, form, f"{k}K", Path(tmp))
                except AssertionError:
                    continue
            found[mode, form] = k
            break
    return found


@pytest.mark.micropython
def test_deep_recursion_is_refused_as_on_a_board(tmp_path):
    """The VM has the boards' fixed Python stack: what fits here fits there."""
    script = tmp_path / "deep.py"
    script.write_text("def f(n):\n    return f(n + 1)\n\nf(0)\n")
    result = mpy_runner.circuitpython(script, heap="64K")
    assert "RuntimeError: pystack exhausted" in result.stdout + result.stderr


def test_clone_is_deep_yet_not_recursive():
    from potager.core.engine import clone

    state = {"sc": [1, 2], "hv": [[1, 3], []], "opt": {"k": [4]}, "name": "x", "on": True}
    copy = clone(state)
    assert copy == state
    copy["hv"][0].append(9)
    copy["opt"]["k"].append(5)
    assert state["hv"] == [[1, 3], []] and state["opt"] == {"k": [4]}
    deep = []
    for _ in range(5 * sys.getrecursionlimit()):  # recursion would need a frame per level
        deep = [deep]
    copy, levels = clone(deep), 0
    while deep:  # compared level by level: == itself would recurse
        assert copy is not deep and len(copy) == 1
        deep, copy, levels = deep[0], copy[0], levels + 1
    assert copy == [] and levels == 5 * sys.getrecursionlimit()


if __name__ == "__main__":  # the smallest heaps today, to set SMALLEST_K
    for (mode, form), k in smallest_heaps().items():
        print(f"{mode} {form}: {k} K (guarded at {SMALLEST_K.get((mode, form), 0) + MARGIN_K} K)")


def test_every_registry_mode_has_a_game_and_its_guarded_heaps():
    from potager.core import registry

    modes = registry.names()
    assert sorted(GAMES) == sorted(modes)
    assert sorted(SMALLEST_K) == sorted((mode, form) for mode in modes for form in ("py", "mpy"))
