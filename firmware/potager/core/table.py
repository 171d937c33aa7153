"""Table services shared by every mode: seats, the active player, rounds, the ring map.

Every game state carries the same table fields:
  "n": players (seat order = player order, clockwise), "col": a colour index per player,
  "act": the active player, "first": who starts each round, "rnd": the round (from 1).
Table ops are the action codes below 16; a game's reduce() hands them to reduce_table().
"""

from potager.core.compat import const


NEXT = const(1)  # the active player hands over to the next seat
PREV = const(2)  # back to the previous seat (a handover made by mistake)
ROUND = const(3)  # a: +1 or -1 round, set by hand

MAX_PLAYERS = const(6)
MAX_ROUND = const(999)
RING = const(12)


def new_table(players, colours, first=0):
    return {"n": players, "col": list(colours), "act": first, "first": first, "rnd": 1}


def check_setup(players, colours, first, lo=1, hi=MAX_PLAYERS):
    """Reason key when a setup is not playable, else None."""
    if not lo <= players <= hi:
        return "bad_players"
    if len(colours) != players or len(set(colours)) != players:
        return "colour_twice"
    if not 0 <= first < players:
        return "bad_player"
    return None


def reduce_table(state, op, a):
    n = state["n"]
    if op == NEXT:
        state["act"] = (state["act"] + 1) % n
        if state["act"] == state["first"]:
            if state["rnd"] >= MAX_ROUND:
                state["act"] = (state["act"] - 1) % n
                return "round_limit"
            state["rnd"] += 1
        return None
    if op == PREV:
        if state["act"] == state["first"]:
            if state["rnd"] <= 1:
                return "no_previous"
            state["rnd"] -= 1
        state["act"] = (state["act"] - 1) % n
        return None
    if op == ROUND:
        if a not in (1, -1):
            return "bad_action"
        rnd = state["rnd"] + a
        if not 1 <= rnd <= MAX_ROUND:
            return "round_limit"
        state["rnd"] = rnd
        return None
    return "bad_action"


def seat_pixel(seat, players):
    """Ring pixel of a seat: seats spread evenly, seat 0 at pixel 0 (the top)."""
    return (seat * RING + players // 2) // players if players else 0


def check_table(state):
    """Invariant check used by tests and the fuzzer: raises AssertionError."""
    n = state["n"]
    assert 1 <= n <= MAX_PLAYERS
    assert 0 <= state["act"] < n and 0 <= state["first"] < n
    assert 1 <= state["rnd"] <= MAX_ROUND
    assert len(state["col"]) == n and len(set(state["col"])) == n
