"""The scoring rule core under the real MicroPython with the device's heap budget."""

from pathlib import Path

import mpy_runner
import pytest

GOLDEN = sorted((Path(__file__).parent / "golden" / "score").glob("*.json"))
MPY = Path(__file__).parent / "mpy"


@pytest.mark.micropython
def test_score_golden_cases_on_micropython_with_the_budget_heap():
    result = mpy_runner.run(
        MPY / "score_golden.py", *GOLDEN, heap="128K", path=(mpy_runner.FIRMWARE, MPY)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{len(GOLDEN)} passed, 0 failed" in result.stdout


SCRIPT = """
from potager.core.games import arboretum, diced_tomatoes, diced_tomatoes_score, horticolor, hortis
from potager.core.games import arboretum_score
assert horticolor.pairings([4, 6, 3, 5]) == [(10, 8), (7, 11), (9, 9)]
assert [diced_tomatoes_score.karma_gain(v) for v in range(1, 7)] == [1, 1, 2, 2, 3, 3]
assert diced_tomatoes_score.slot_bonus(3, 3) == 4
assert hortis.band("automne", 50)["title_fr"] == "Bravo ! Vous êtes im-Baie-ttable !!!"
assert hortis.recipe_final(40, 5, 1, 45) == (45, True)
assert arboretum.hand_values([[8], [1]]) == [0, 1]
assert arboretum.may_score([[], []]) == [True, True]
perfect = {(v, 0): "oak" + str(v) for v in range(1, 9)}
assert arboretum_score.best_path(perfect, "oak") == (19, ["oak" + str(v) for v in range(1, 9)])
for bad in (True, 1.0, "1", None):
    try:
        diced_tomatoes_score.score({"players": [{"name": "A", "harvests": [bad], "karma": 0,
                                           "dice_on_vines": 0, "triggered_end": False}] * 1,
                              "mode": "solo"})
        raise SystemExit("accepted " + repr(bad))
    except ValueError as e:
        assert str(e).startswith("players[0].harvests[0]: must be an integer 1-6, got "), str(e)
print("ok")
"""


@pytest.mark.micropython
def test_rule_functions_and_type_checks_on_micropython(tmp_path):
    script = tmp_path / "check.py"
    script.write_text(SCRIPT, "utf-8")
    result = mpy_runner.run(script, heap="128K")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"
