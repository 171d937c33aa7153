# Radish race (a mode of the test suite): each player pulls radishes; the first to the target
# wins. State: the table's fields, "pulled" a count per player, "target", "over" (1 once a
# player reached the target: no more pulls).

from potager.core import table
from potager.core.compat import const

PULL = const(16)  # a: player, b: radishes (negative: put back)

PLAYERS = (1, 4)
TARGETS = (10, 20, 30)


def new(players, colours, first=0, target=10):
    state = table.new_table(players, colours, first)
    state["pulled"] = [0] * players
    state["target"] = target
    state["over"] = 0
    return state


def reduce(state, action):
    op, a, b = action
    if op < 16:
        return table.reduce_table(state, op, a, b)
    if op != PULL or not 0 <= a < state["n"] or b not in (-1, 1):
        return "bad_action"
    if state["over"]:
        return "rd_race_is_over"
    pulled = state["pulled"][a] + b
    if pulled < 0:
        return "rd_none_to_put_back"
    state["pulled"][a] = pulled
    state["over"] = 1 if pulled >= state["target"] else 0
    return None


def check(state):
    table.check_table(state)
    assert state["target"] in TARGETS
    assert len(state["pulled"]) == state["n"]
    assert all(0 <= p <= state["target"] for p in state["pulled"])
    assert state["over"] == (1 if max(state["pulled"]) >= state["target"] else 0)


def winners(state):
    best = max(state["pulled"])
    return [p for p in range(state["n"]) if state["pulled"][p] == best]
