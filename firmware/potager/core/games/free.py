"""Free score + table: a score per player for any game, with the table services."""

from potager.core import table
from potager.core.compat import const

ADD = const(16)  # a: player, b: points (negative to take away)

MIN_SCORE = const(-999)
MAX_SCORE = const(9999)
MAX_STEP = const(100)


def new(players, colours, first=0):
    state = table.new_table(players, colours, first)
    state["sc"] = [0] * players
    return state


def reduce(state, action):
    op, a, b = action
    if op < 16:
        return table.reduce_table(state, op, a, b)
    if op == ADD:
        if not 0 <= a < state["n"] or not -MAX_STEP <= b <= MAX_STEP or b == 0:
            return "bad_action"
        score = state["sc"][a] + b
        if not MIN_SCORE <= score <= MAX_SCORE:
            return "score_limit"
        state["sc"][a] = score
        return None
    return "bad_action"


def check(state):
    table.check_table(state)
    assert len(state["sc"]) == state["n"]
    for score in state["sc"]:
        assert MIN_SCORE <= score <= MAX_SCORE


def leaders(state):
    """Players with the highest score (ties shared), in seat order."""
    best = max(state["sc"])
    return [p for p in range(state["n"]) if state["sc"][p] == best]
