"""Table services shared by every mode: seats, turn order, passing, rounds, timers' settings
and statistics, and where each seat sits on the ring.

Every game state carries these fields (built by new_table):
  n      players; seat order = player order
  col    a colour index per player          seat  a ring pixel per player
  act    the active player                  first who starts the current round
  rnd    the round, from 1                  out   bit p set: player p has passed this round
  dir    1 clockwise, -1 counter-clockwise  rot   1: the first player moves on each round
  lap    1: a round ends when the turn comes back round; 0: when everyone has passed
  tt     turn countdown, s (0 off)          rt    round timer, s (0 off)
  tb     time bank per player, s (0 off)    inc   seconds added to a bank after each turn
  bk     each player's bank left, s (negative: overtime)
  used, turns, long: seconds played, turns taken, longest turn, per player
Time never enters by itself: the action that ends a turn carries the seconds it used.
Table ops are the action codes below 16; a game's reduce() hands them to reduce_table().
"""

from potager.core.compat import const

NEXT = const(1)  # a: seconds the ending turn used. Hand over to the next player still in.
PREV = const(2)  # back to the previous player of this round (a handover made by mistake)
ROUND = const(3)  # a: +1 or -1, set the round by hand
PASS = const(4)  # a: seconds. The active player is out for the rest of the round.
SKIP = const(5)  # a: seconds. Hand over past the next player (who loses this turn).
SET = const(6)  # a: setting (S_*), b: value

S_DIR = const(0)
S_ROT = const(1)
S_LAP = const(2)
S_TT = const(3)
S_TB = const(4)
S_INC = const(5)
S_RT = const(6)
S_SEAT = const(16)  # + player: b = ring pixel

MAX_PLAYERS = const(6)
MAX_ROUND = const(999)
MAX_SECONDS = const(32767)
RING = const(12)

# setting -> (field, lowest, highest)
_LIMITS = {
    S_DIR: ("dir", -1, 1),
    S_ROT: ("rot", 0, 1),
    S_LAP: ("lap", 0, 1),
    S_TT: ("tt", 0, 3600),
    S_TB: ("tb", 0, 7200),
    S_INC: ("inc", 0, 600),
    S_RT: ("rt", 0, 7200),
}


def seat_pixel(seat, players):
    """Default ring pixel of a seat: seats spread evenly, seat 0 at pixel 0 (the top)."""
    return (seat * RING + players // 2) // players if players else 0


def new_table(players, colours, first=0):
    return {
        "n": players,
        "col": list(colours),
        "seat": [seat_pixel(p, players) for p in range(players)],
        "act": first,
        "first": first,
        "rnd": 1,
        "out": 0,
        "dir": 1,
        "rot": 0,
        "lap": 1,
        "tt": 0,
        "tb": 0,
        "inc": 0,
        "rt": 0,
        "bk": [0] * players,
        "used": [0] * players,
        "turns": [0] * players,
        "long": [0] * players,
    }


def next_in(state, player, step=None):
    """The next player still in after `player`, turning `step` (default: the direction)."""
    step = state["dir"] if step is None else step
    n = state["n"]
    for _ in range(n):
        player = (player + step) % n
        if not state["out"] >> player & 1:
            return player
    return player


def _end_turn(state, seconds):
    p = state["act"]
    state["used"][p] = min(state["used"][p] + seconds, MAX_SECONDS)
    state["turns"][p] = min(state["turns"][p] + 1, MAX_SECONDS)
    if seconds > state["long"][p]:
        state["long"][p] = seconds
    if state["tb"]:
        state["bk"][p] = max(state["bk"][p] - seconds + state["inc"], -MAX_SECONDS)


def _new_round(state):
    state["rnd"] = min(state["rnd"] + 1, MAX_ROUND)
    state["out"] = 0
    if state["rot"]:
        state["first"] = (state["first"] + state["dir"]) % state["n"]
    state["act"] = state["first"]


def _hand_over(state, hops):
    """Move the turn on by `hops` players still in; a lap past the first player ends the round."""
    n = state["n"]
    player = state["act"]
    while hops:
        player = (player + state["dir"]) % n
        if state["lap"] and player == state["first"]:
            _new_round(state)
            return
        if not state["out"] >> player & 1:
            hops -= 1
    state["act"] = player


def reduce_table(state, op, a, b=0):
    if op in (NEXT, PASS, SKIP):
        if not 0 <= a <= MAX_SECONDS:
            return "bad_action"
        _end_turn(state, a)
        if op == PASS:
            state["out"] |= 1 << state["act"]
            if state["out"] == (1 << state["n"]) - 1:
                _new_round(state)
                return None
        _hand_over(state, 2 if op == SKIP else 1)
        return None
    if op == PREV:
        back = next_in(state, state["act"], -state["dir"])
        if state["act"] == state["first"] or back == state["act"]:
            return "no_previous"  # undo takes back a new round exactly
        state["act"] = back
        return None
    if op == ROUND:
        rnd = state["rnd"] + a
        if a not in (1, -1):
            return "bad_action"
        if not 1 <= rnd <= MAX_ROUND:
            return "round_limit"
        state["rnd"] = rnd
        return None
    if op == SET:
        return _set(state, a, b)
    return "bad_action"


def _set(state, setting, value):
    if S_SEAT <= setting < S_SEAT + state["n"]:
        if not 0 <= value < RING:
            return "bad_action"
        seats = state["seat"]
        if value in seats and seats.index(value) != setting - S_SEAT:
            return "pixel_taken"
        seats[setting - S_SEAT] = value
        return None
    limits = _LIMITS.get(setting)
    if limits is None or not limits[1] <= value <= limits[2] or (setting == S_DIR and not value):
        return "bad_action"
    state[limits[0]] = value
    if setting == S_TB:  # a new bank size refills every bank
        state["bk"] = [value] * state["n"]
    return None


def check_table(state):
    """Invariant check used by tests and the fuzzer: raises AssertionError."""
    n = state["n"]
    assert 1 <= n <= MAX_PLAYERS
    assert 0 <= state["act"] < n and 0 <= state["first"] < n
    assert 1 <= state["rnd"] <= MAX_ROUND
    assert len(state["col"]) == n and len(set(state["col"])) == n
    assert len(state["seat"]) == n and len(set(state["seat"])) == n
    assert 0 <= state["out"] <= max(0, (1 << n) - 2)  # everyone out starts the next round
    assert not state["out"] >> state["act"] & 1
    assert state["dir"] in (1, -1)
    names = state.get("names")
    if names is not None:  # chosen at setup: "" keeps the seat number
        assert len(names) == n
        for name in names:
            assert type(name) is str and len(name) <= 10
            assert not name or names.count(name) == 1
    for key in ("bk", "used", "turns", "long"):
        assert len(state[key]) == n
