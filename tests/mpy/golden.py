"""What both golden runners share (scenarios of actions, and scoring cases): comparing a
result with the expected subset, and running files. MicroPython-compatible."""

import json


def compare(got, expected, where, failures):
    """Record where `got` differs from `expected` (dicts: only expected's keys)."""
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


def main(paths, run_case):
    """Run every file's case; one line each, a closing count; 1 when any failed."""
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
