"""Horticolor (Julk, Betula 2024): the device's game state and reducer, and the rules."""
# Rounds and phases, the active player, compost tokens, validated cards, the dice mixes and
# the final scoring. (Comments, not docstrings: the board lexes a docstring into RAM.)
#
# Rules: the shared rules reference, rules/horticolor.md. The device's state and reducer
# (``new``, ``reduce``, ``check``) and the rule functions both the device and ``python -m
# host_tools score horticolor`` (``horticolor_score.score``) call. Pure: no hardware, runs
# unchanged on CPython, MicroPython and CircuitPython.
#
# The game's numbers are named below (the shared supply of 24 compost tokens is the screens':
# shown, a gain beyond it warned, not refused); private ones are folded by the compiler.
# Written as literals, with names reused from the framework, they saved one qstr (CARDS, which
# the host shares) and 0 bytes of heap (CircuitPython's 32-bit VM, .mpy).
#
# State fields beyond the table's (``lap`` 0: the game runs the rounds; TURN ends a phase):
#   ph  phase: DRAFT, MIXES, ROUND_END (discards), FINAL (points entry)
#   mx  mixes phase of the round, from 1       quick  1: the quick draft (draw 6, keep 4)
#   sh  1: a shortage was taken this mixes phase
#   cp  compost tokens per player              vc  validated cards per player (the game)
#   vr  validated this round                   nc  cards in play this round (kept + 4)
#   dc  discarded at the round end (all left)  dice  the 4 dice: blue, yellow, red, green
#   fp  final points: card points, Synergy, Earthworms of each player in turn

from potager.core import table
from potager.core.compat import const

# The three ways to pair 4 dice (indices into the roll) into 2 mixes.
PAIRS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))

# phases
DRAFT = const(0)
MIXES = const(1)
ROUND_END = const(2)
FINAL = const(3)

_ROUNDS = const(3)
CARDS = const(72)  # in the box
_START_COMPOST = const(2)  # tokens each at the start
_DRAFTED = const(4)  # cards drafted each round
_MAX_COMPOST = const(99)  # tokens a player
_MAX_GAIN = const(9)  # tokens from one card bonus
_MAX_POINTS = const(999)  # points a field
_MAX_MIXES = const(999)  # mixes phases a round

# actions (op, a, b)
VALID = const(16)  # a: player, b: +1 a card validated, -1 one taken back
GAIN = const(17)  # a: player, b: 1..9 compost tokens (a card bonus)
SPEND = const(18)  # a: player, b: colours ignored + 16 * values shifted + 256 * marbles
SHORTAGE = const(19)  # a: the active player takes 1 compost (the others agreed)
DICE = const(20)  # a: the 4 dice, 3 bits each (0: not entered), blue first
DISCARD = const(21)  # a: player, b: cards discarded at the round end (+1 compost each)
POINTS = const(22)  # a: player * 4 + field (0 cards, 1 Synergy, 2 Earthworms), b: points
SCORING = const(23)  # to the final scoring now (the game ends early)


# The 3 ways to pair 4 dice into 2 mixes: 4, 6, 3, 5 -> [(10, 8), (7, 11), (9, 9)].
# (Loops rather than comprehensions here and below: on the board each comprehension is one
# more function in RAM.)
def pairings(dice):
    out = []
    for pair in PAIRS:
        out.append((dice[pair[0]] + dice[pair[1]], dice[pair[2]] + dice[pair[3]]))
    return out


# Tokens a spend costs: a colours ignored (1 each), b values changed by +-1 (2 each), n free
# marbles (4 each). 3 = colour + value; 10 = two marbles + one value. (The keyword form the
# host tools use: horticolor_score.compost_cost.)
def compost_cost(a, b, n):
    return a + 2 * b + 4 * n


# Final score: (card points, Synergy, Earthworm points) -> their sum.
def final_total(*values):
    return sum(values)


# Highest total; tie -> fewer validated cards (values); still tied -> shared (input order).
def winners(names, totals, values):
    keys = []
    for i in range(len(totals)):
        keys.append((totals[i], -values[i]))
    out = []
    for i in range(len(keys)):
        if keys[i] == max(keys):
            out.append(names[i])
    return out


def totals(state):
    values = state["fp"]
    out = []
    for p in range(state["n"]):
        out.append(final_total(values[3 * p], values[3 * p + 1], values[3 * p + 2]))
    return out


def new(players, colours, first=0, quick=False):
    state = table.new_table(players, colours, first)
    state["lap"] = 0  # TURN ends a mixes phase; the rounds follow the game, not the laps
    state.update(ph=DRAFT, mx=0, sh=0, quick=int(quick), dice=[0, 0, 0, 0], fp=[0] * 3 * players)
    state.update(cp=[_START_COMPOST] * players, nc=[_DRAFTED] * players)
    state.update(vc=[0] * players, vr=[0] * players, dc=[0] * players)
    return state


# TURN: the draft is over; a mixes phase is over (the active role passes on; when someone
# has validated all their visible cards the round stops, each card not validated set to be
# discarded, the players keep some back); the discards are done.
def turn(state, seconds):
    n = state["n"]
    if state["ph"] == DRAFT:
        state.update(ph=MIXES, mx=1)
    elif state["ph"] == MIXES:
        table.reduce_table(state, table.NEXT, seconds)  # seconds checked, lap 0: cannot fail
        state.update(sh=0, dice=[0, 0, 0, 0])
        state["mx"] = min(state["mx"] + 1, _MAX_MIXES)
        for p in range(n):
            if state["vr"][p] == state["nc"][p]:
                state["ph"] = ROUND_END if state["rnd"] < _ROUNDS else FINAL
                state["mx"] -= 1
                break
        if state["ph"] == ROUND_END:  # the usual choice first: every card left discarded
            for p in range(n):
                state["dc"][p] = state["nc"][p] - state["vr"][p]
    elif state["ph"] == ROUND_END:
        for p in range(n):
            state["cp"][p] = min(state["cp"][p] + state["dc"][p], _MAX_COMPOST)
            state["nc"][p] += _DRAFTED - state["vr"][p] - state["dc"][p]  # the kept cards stay
        state.update(ph=DRAFT, mx=0, rnd=state["rnd"] + 1, vr=[0] * n, dc=[0] * n)
    else:
        return "hc_at_scoring"
    return None


# A player's action: validate a card, take compost, spend, shortage, discards.
def act(state, op, p, b):
    ph = state["ph"]
    cp = state["cp"]
    if op == VALID:
        # in play, the round's count moves too; at the final scoring only the game's
        validated = (state["vr"] if ph == MIXES else state["vc"])[p]
        if b not in (1, -1):
            return "bad_action"
        if ph in (DRAFT, ROUND_END):
            return "hc_in_draft" if ph == DRAFT else "hc_round_over"
        if b == 1 and (sum(state["vc"]) >= CARDS or (ph == MIXES and validated >= state["nc"][p])):
            return "hc_all_valid"
        if b == -1 and not validated:
            return "hc_none_valid"
        if b == -1 and state["vc"][p] == 1 and sum(state["fp"][3 * p : 3 * p + 3]):
            return "hc_points_need_cards"  # the last validated card: its points go first
        state["vc"][p] += b
        if ph == MIXES:
            state["vr"][p] += b
    elif ph == FINAL:
        return "hc_game_over"  # unspent tokens score nothing
    elif op == GAIN:
        if not 1 <= b <= _MAX_GAIN:
            return "bad_action"
        if cp[p] + b > _MAX_COMPOST:
            return "hc_compost_limit"
        cp[p] += b
    elif op == SPEND:
        cost = compost_cost(b & 15, b >> 4 & 15, b >> 8 & 15)
        if b < 0 or b >> 12 or not cost:
            return "bad_action"
        if cost > cp[p]:
            return "hc_not_enough"
        cp[p] -= cost
    elif op == SHORTAGE:
        if ph != MIXES:
            return "hc_not_mixes"
        if p != state["act"]:
            return "hc_not_active"
        if state["sh"]:
            return "hc_shortage_done"
        if b or cp[p] >= _MAX_COMPOST:
            return "bad_action"
        cp[p] += 1
        state["sh"] = 1
    elif op == DISCARD:
        if ph != ROUND_END:
            return "hc_not_round_end"
        if not 0 <= b <= state["nc"][p] - state["vr"][p]:
            return "hc_discard_range"
        state["dc"][p] = b
    else:
        return "bad_action"
    return None


def reduce(state, action):
    op, a, b = action
    if op == table.NEXT:
        return turn(state, a) if 0 <= a <= table.MAX_SECONDS else "bad_action"
    if op == table.SET and a == table.S_DIR and b != 1:
        return "hc_clockwise"  # the active role passes clockwise
    if op == table.SET and a not in (table.S_LAP, table.S_ROT):
        return table.reduce_table(state, op, a, b)
    if op < 16:
        return "hc_use_undo" if op == table.PREV else "hc_table_op"  # the game runs rounds
    if op == DICE:
        if a < 0 or a >> 12 or b:
            return "bad_action"
        values = [a & 7, a >> 3 & 7, a >> 6 & 7, a >> 9 & 7]
        if 7 in values:
            return "bad_action"
        if state["ph"] != MIXES:
            return "hc_not_mixes"
        state["dice"] = values
    elif op == POINTS:
        if state["ph"] != FINAL:
            return "hc_not_final"
        if a < 0 or a >> 2 >= state["n"] or a & 3 == 3 or not 0 <= b <= _MAX_POINTS:
            return "bad_action"
        if b and not state["vc"][a >> 2]:
            return "hc_points_need_cards"  # only validated cards score
        state["fp"][3 * (a >> 2) + (a & 3)] = b
    elif op == SCORING:
        if a or b or state["ph"] == FINAL:
            return "bad_action"
        state.update(ph=FINAL, sh=0, dice=[0, 0, 0, 0], dc=[0] * state["n"])
    elif 0 <= a < state["n"]:
        return act(state, op, a, b)
    else:
        return "bad_player"
    return None


def check(state):
    table.check_table(state)
    n = state["n"]
    ph = state["ph"]
    assert 2 <= n <= 4 and state["lap"] == state["out"] == state["rot"] == 0
    assert 1 <= state["rnd"] <= _ROUNDS and DRAFT <= ph <= FINAL and state["quick"] in (0, 1)
    assert ph != ROUND_END or state["rnd"] < _ROUNDS
    assert (
        0 <= state["mx"] <= _MAX_MIXES and (ph != MIXES or state["mx"]) and (ph or not state["mx"])
    )
    assert state["sh"] in (0, 1) and (ph == MIXES or not (state["sh"] or sum(state["dice"])))
    assert len(state["dice"]) == 4 and len(state["fp"]) == 3 * n and sum(state["vc"]) <= CARDS
    for die in state["dice"]:
        assert 0 <= die <= 6
    for points in state["fp"]:
        assert 0 <= points <= _MAX_POINTS
    for p in range(n):
        validated, in_play = state["vr"][p], state["nc"][p]
        assert 0 <= state["cp"][p] <= _MAX_COMPOST and in_play >= _DRAFTED
        assert 0 <= validated <= in_play
        assert 0 <= state["dc"][p] <= in_play - validated and (
            ph == ROUND_END or not state["dc"][p]
        )
        assert ph == FINAL or validated <= state["vc"][p]
        assert state["vc"][p] or not sum(state["fp"][3 * p : 3 * p + 3])
