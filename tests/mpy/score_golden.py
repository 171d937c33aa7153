"""Golden scoring cases: the rule-core score functions against expected outputs.

A case file (tests/golden/score/<game>-<case>.json):
  {"game": "arboretum", "about": "...", "input": {... the CLI's input ...},
   "output": {... expected: only the keys named are compared, lists item by item ...}}
  or, for an input that must be refused, "error": "a substring of the ValueError message".
Runs on CPython (pytest imports run_case) and on MicroPython (this file as a script, the case
paths as arguments: prints one line per case, exits 1 on any failure).
"""

import sys

from golden import compare, main

from potager.core.games import arboretum_score, diced_tomatoes_score, horticolor_score, hortis_score

SCORERS = {
    "diced-tomatoes": diced_tomatoes_score.score,
    "horticolor": horticolor_score.score,
    "hortis-automne": hortis_score.score_automne,
    "hortis": hortis_score.score_grove,
    "arboretum": arboretum_score.score,
}


def run_case(case):
    """Failures as strings; empty when the case holds."""
    score = SCORERS[case["game"]]
    failures = []
    try:
        got = score(case["input"])
    except ValueError as e:
        if "error" not in case:
            return ["refused: " + str(e)]
        if case["error"] not in str(e):
            return ["message " + repr(str(e)) + " lacks " + repr(case["error"])]
        return []
    if "error" in case:
        return ["accepted, expected a refusal: " + case["error"]]
    compare(got, case["output"], "output", failures)
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], run_case))
