"""Golden scenarios (tests/golden/*.json) on CPython and on the real MicroPython."""

import json
import sys
from pathlib import Path

import mpy_runner
import pytest

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))
MPY = Path(__file__).parent / "mpy"
sys.path.insert(0, str(MPY))

from run_golden import run_case  # noqa: E402


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_scenario_on_cpython(path):
    assert run_case(json.loads(path.read_text())) == []


@pytest.mark.micropython
def test_golden_scenarios_on_micropython_with_the_budget_heap():
    result = mpy_runner.run(
        MPY / "run_golden.py", *GOLDEN, heap="128K", path=(mpy_runner.FIRMWARE, MPY)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(GOLDEN)} passed, 0 failed" in result.stdout
