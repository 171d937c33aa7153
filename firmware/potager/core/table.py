# Table services shared by every mode: seats, turn order, passing, rounds, timers' settings
# and statistics, and where each seat sits on the ring.
#
# Every game state carries these fields (built by new_table):
# n      players; seat order = player order
# col    a colour index per player          seat  a ring pixel per player
# act    the active player                  first who starts the current round
# rnd    the round, from 1                  out   bit p set: player p has passed this round
# dir    1 clockwise, -1 counter-clockwise  rot   1: the first player moves on each round
# lap    1: a round ends when the turn comes back round; 0: when everyone has passed
# tt     turn countdown, s (0 off)          rt    round timer, s (0 off)
# tb     time bank per player, s (0 off)    inc   seconds added to a bank after each turn
# bk     each player's bank left, s (negative: overtime)
# used, turns, long: seconds played, turns taken, longest turn, per player
# log    the handovers of this round hold TURN can take back, newest last (at most
# MAX_PLAYERS): [player, used, long, bank before the handover, 1 if they passed, memo]
# (memo: the b of the action that ended the turn: what the mode keeps with it, e.g.
# Diced Tomatoes' Karma)
# Time never enters by itself: the action that ends a turn carries the seconds it used.
# Table ops are the action codes below 16; a game's reduce() hands them to reduce_table().
# The keys stay short on purpose, here and in the modes (NVM saves, golden files and the
# journal's record size hold them): spelt out ("harvests", "turn_timer"...), a 4-player
# state's snapshot record would grow by 114 (free score) to 192 bytes (Horticolor), from
# 218-458 bytes of state JSON, and the heap by 144-864 bytes at least (keys of 11+ letters
# are no qstrs: a str each in every module and each decoded save; CircuitPython's VM).

from potager.core.compat import const

NEXT = const(1)  # a: seconds the ending turn used. Hand over to the next player still in.
PREV = const(2)  # take back the last handover of this round (made by mistake): not a turn
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
    # Default ring pixel of a seat: seats spread evenly, seat 0 at pixel 0 (the top).
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
        "log": [],
    }


def next_in(state, player, step=None):
    # The next player still in after `player`, turning `step` (default: the direction).
    step = state["dir"] if step is None else step
    n = state["n"]
    for _ in range(n):
        player = (player + step) % n
        if not state["out"] >> player & 1:
            return player
    return player


def _end_turn(state, seconds, passed, memo):
    p = state["act"]
    log = state.setdefault("log", [])  # (a save made before takebacks were kept)
    log.append([p, state["used"][p], state["long"][p], state["bk"][p], passed, memo])
    if len(log) > MAX_PLAYERS:
        log.pop(0)
    state["used"][p] = min(state["used"][p] + seconds, MAX_SECONDS)
    state["turns"][p] = min(state["turns"][p] + 1, MAX_SECONDS)
    if seconds > state["long"][p]:
        state["long"][p] = seconds
    if state["tb"]:
        left = state["bk"][p] - seconds
        # the bonus rewards a turn played within the bank; a bank run out earns nothing
        state["bk"][p] = max(left + state["inc"] if left > 0 else left, -MAX_SECONDS)


def _new_round(state):
    state["rnd"] = min(state["rnd"] + 1, MAX_ROUND)
    state["out"] = 0
    state["log"] = []  # undo takes back a new round exactly
    if state["rot"]:
        state["first"] = (state["first"] + state["dir"]) % state["n"]
    state["act"] = state["first"]


def _hand_over(state, hops):
    # Move the turn on by `hops` players still in; a lap past the first player ends the
    # round, and the hops left go on in the new one (a Skip by the lap's last player skips the
    # next round's first).
    n = state["n"]
    player = state["act"]
    while True:
        player = (player + state["dir"]) % n
        if state["lap"] and player == state["first"]:
            _new_round(state)
            player = state["first"]
        if not state["out"] >> player & 1:
            hops -= 1
            if not hops:
                break
    state["act"] = player


def reduce_table(state, op, a, b=0):
    if op in (NEXT, PASS, SKIP):
        if not 0 <= a <= MAX_SECONDS:
            return "bad_action"
        if op == SKIP and state["n"] - bin(state["out"]).count("1") < 2:
            return "no_one_to_skip"
        _end_turn(state, a, 1 if op == PASS else 0, b)
        if op == PASS:
            state["out"] |= 1 << state["act"]
            if state["out"] == (1 << state["n"]) - 1:
                _new_round(state)
                return None
        _hand_over(state, 2 if op == SKIP else 1)
        return None
    if op == PREV:
        log = state.setdefault("log", [])
        if not log:
            return "no_previous"  # undo takes back a new round exactly
        p, a, b, state["bk"][p], out, _ = log.pop()
        state["turns"][p] = max(state["turns"][p] - 1, 0)
        state["used"][p] = a
        state["long"][p] = b
        if out:  # they had passed: back in
            state["out"] &= ~(1 << p)
        state["act"] = p
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
        for p in state.setdefault("log", []):
            p[3] = value
    return None


def check_table(state):
    # Invariant check used at boot, by tests and the fuzzer: raises AssertionError. (In its
    # own module: the board compiles it only to check a save, then forgets it; the limits go
    # with the call, so that it imports nothing back from here.)
    from potager.core import table_check

    table_check.check(state, MAX_PLAYERS, MAX_ROUND)
