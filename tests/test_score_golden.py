"""Golden scoring cases (tests/golden/score/*.json) on CPython, directly and through the CLI."""

import json
import sys
from pathlib import Path

import pytest

from host_tools import score as cli

GOLDEN = sorted((Path(__file__).parent / "golden" / "score").glob("*.json"))
MPY = Path(__file__).parent / "mpy"
sys.path.insert(0, str(MPY))

from score_golden import SCORERS, compare, run_case  # noqa: E402


def load(path):
    return json.loads(path.read_text("utf-8"))


def test_there_are_golden_cases_for_every_game():
    games = {load(p)["game"] for p in GOLDEN}
    assert games == set(cli.GAMES) == set(SCORERS)
    for game in games:
        cases = [load(p) for p in GOLDEN if load(p)["game"] == game]
        assert any("output" in c for c in cases) and any("error" in c for c in cases), game


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_case_on_cpython(path):
    case = load(path)
    assert path.stem.startswith(case["game"] + "-")
    assert ("output" in case) != ("error" in case)
    assert run_case(case) == []


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_input_through_the_cli(path, tmp_path, capsys):
    case = load(path)
    f = tmp_path / "input.json"
    f.write_text(json.dumps(case["input"], ensure_ascii=False), "utf-8")
    code = cli.main([case["game"], str(f)])
    out, err = capsys.readouterr()
    if "error" in case:
        assert (code, out) == (2, "")
        assert case["error"] in err and err.count("\n") == 1
    else:
        assert (code, err) == (0, "")
        failures = []
        compare(json.loads(out), case["output"], "output", failures)
        assert failures == []
