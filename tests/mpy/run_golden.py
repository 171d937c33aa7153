"""Golden scenarios: actions through the real reducer, then the expected state.

A scenario file (tests/golden/*.json):
  {"name": "...", "mode": "free", "setup": {keyword arguments of the mode's new()},
   "steps": [{"do": ["add", 0, 5]},                  # action by name: table or game op
             {"do": ["add", 9, 1], "refused": "bad_action"},
             {"undo": true}, {"redo": false},        # expected return value
             {"expect": {"sc": [5, 0]}}],            # a subset of the state
   "expect": {...}}                                  # the state at the end (subset)
Runs on CPython (pytest imports run_case) and on MicroPython (this file as a script, the
scenario paths as arguments: prints one line per scenario, exits 1 on any failure).
"""

import sys

from golden import compare, main

from potager.core import registry, table
from potager.core.engine import Engine


def action(rules, spec):
    name = spec[0].upper()
    op = getattr(table, name, None)
    if op is None:
        op = getattr(rules, name)
    args = list(spec[1:]) + [0, 0]
    return (op, args[0], args[1])


def run_case(case):
    """Failures as strings; empty when the scenario holds."""
    rules = registry.rules(case["mode"])
    engine = Engine(rules, rules.new(**case["setup"]))
    failures = []
    for i, step in enumerate(case["steps"]):
        where = "step " + str(i + 1)
        if "do" in step:
            got = engine.apply(action(rules, step["do"]))
            expected = step.get("refused")
            if got != expected:
                failures.append(where + ": got " + str(got) + ", expected " + str(expected))
        elif "undo" in step and engine.undo() != step["undo"]:
            failures.append(where + ": undo did not return " + str(step["undo"]))
        elif "redo" in step and engine.redo() != step["redo"]:
            failures.append(where + ": redo did not return " + str(step["redo"]))
        if "expect" in step:
            compare(engine.state, step["expect"], where, failures)
        rules.check(engine.state)
    compare(engine.state, case.get("expect", {}), "end", failures)
    # the log replays to the same state: what a reboot restores
    if engine.replay() != engine.state:
        failures.append("end: replaying the log gives another state")
    return failures


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], run_case))
