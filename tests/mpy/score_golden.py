"""Golden scoring cases: the rule-core score functions against expected outputs.

A case file (tests/golden/score/<game>-<case>.json):
  {"game": "arboretum", "about": "...", "input": {... the CLI's input ...},
   "output": {... expected: only the keys named are compared, lists item by item ...}}
  or, for an input that must be refused, "error": "a substring of the ValueError message".
Runs on CPython (pytest imports run_case) and on MicroPython (this file as a script, the case
paths as arguments: prints one line per case, exits 1 on any failure).
"""

import json
import sys

from potager.core.games import arboretum_score, diced_tomatoes_score, horticolor_score, hortis_score

SCORERS = {
    "diced-tomatoes": diced_tomatoes_score.score,
    "horticolor": horticolor_score.score,
    "hortis-automne": hortis_score.score_automne,
    "hortis": hortis_score.score_grove,
    "arboretum": arboretum_score.score,
}


def compare(got, expected, where, failures):
    """Record where got differs from expected (dicts: only expected's keys)."""
    if type(expected) is dict:
        if type(got) is not dict:
            failures.append(where + ": expected an object, got " + repr(got))
            return
        for key in expected:
            if key not in got:
                failures.append(where + "." + key + ": missing")
            else:
                compare(got[key], expected[key], where + "." + key, failures)
    elif type(expected) is list:
        if type(got) is not list or len(got) != len(expected):
            failures.append(where + ": expected " + repr(expected) + ", got " + repr(got))
            return
        for i in range(len(expected)):
            compare(got[i], expected[i], where + "[" + str(i) + "]", failures)
    elif type(got) is not type(expected) or got != expected:
        failures.append(where + ": expected " + repr(expected) + ", got " + repr(got))


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


def main(paths):
    bad = 0
    for path in paths:
        with open(path) as f:
            case = json.load(f)
        failures = run_case(case)
        print(("FAIL " if failures else "ok   ") + path)
        for line in failures:
            print("    " + line)
        bad += 1 if failures else 0
    print(str(len(paths) - bad) + " passed, " + str(bad) + " failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
