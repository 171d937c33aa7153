"""Horticolor (Julk, Betula 2024): the device's game state and reducer, and the rules."""
# Rounds and phases, the active player, compost tokens, validated cards, the dice mixes and
# the final scoring. (Comments, not docstrings: the board lexes a docstring into RAM.)
#
# Rules: the shared rules reference, rules/horticolor.md. The device's state and reducer
# (``new``, ``reduce``, ``check``) and the rule functions both the device and ``python -m
# host_tools score horticolor`` (``horticolor_score.score``) call. Pure: no hardware, runs
# unchanged on CPython, MicroPython and CircuitPython.
#
# Lean on purpose: the board compiles this in RAM and MicroPython keeps every distinct name
# (and every string of up to 10 characters) for good, so the code reuses a few names and
# writes the game's small numbers as literals: 3 rounds, 72 cards, the shared supply of 24
# compost tokens (shown, a gain beyond it warned, not refused), 2 tokens each at the start,
# 4 cards drafted each round, and the limits 99 tokens a player, 9 from one bonus, 999 points
# a field, 999 mixes phases a round.
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
    for i in PAIRS:
        out.append((dice[i[0]] + dice[i[1]], dice[i[2]] + dice[i[3]]))
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
    state.update(cp=[2] * players, nc=[4] * players)
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
        state["mx"] = min(state["mx"] + 1, 999)
        for p in range(n):
            if state["vr"][p] == state["nc"][p]:
                state["ph"] = ROUND_END if state["rnd"] < 3 else FINAL
                state["mx"] -= 1
                break
        if state["ph"] == ROUND_END:  # the usual choice first: every card left discarded
            for p in range(n):
                state["dc"][p] = state["nc"][p] - state["vr"][p]
    elif state["ph"] == ROUND_END:
        for p in range(n):
            state["cp"][p] = min(state["cp"][p] + state["dc"][p], 99)
            state["nc"][p] += 4 - state["vr"][p] - state["dc"][p]  # the kept cards stay
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
        count = (state["vr"] if ph == MIXES else state["vc"])[p]
        if b not in (1, -1):
            return "bad_action"
        if ph in (DRAFT, ROUND_END):
            return "hc_in_draft" if ph == DRAFT else "hc_round_over"
        if b == 1 and (sum(state["vc"]) >= 72 or (ph == MIXES and count >= state["nc"][p])):
            return "hc_all_valid"
        if b == -1 and not count:
            return "hc_none_valid"
        if b == -1 and state["vc"][p] == 1 and sum(state["fp"][3 * p : 3 * p + 3]):
            return "hc_points_need_cards"  # the last validated card: its points go first
        state["vc"][p] += b
        if ph == MIXES:
            state["vr"][p] += b
    elif ph == FINAL:
        return "hc_game_over"  # unspent tokens score nothing
    elif op == GAIN:
        if not 1 <= b <= 9:
            return "bad_action"
        if cp[p] + b > 99:
            return "hc_compost_limit"
        cp[p] += b
    elif op == SPEND:
        count = compost_cost(b & 15, b >> 4 & 15, b >> 8 & 15)
        if b < 0 or b >> 12 or not count:
            return "bad_action"
        if count > cp[p]:
            return "hc_not_enough"
        cp[p] -= count
    elif op == SHORTAGE:
        if ph != MIXES:
            return "hc_not_mixes"
        if p != state["act"]:
            return "hc_not_active"
        if state["sh"]:
            return "hc_shortage_done"
        if b or cp[p] >= 99:
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
        if a < 0 or a >> 2 >= state["n"] or a & 3 == 3 or not 0 <= b <= 999:
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
    assert 1 <= state["rnd"] <= 3 and DRAFT <= ph <= FINAL and state["quick"] in (0, 1)
    assert ph != ROUND_END or state["rnd"] < 3
    assert 0 <= state["mx"] <= 999 and (ph != MIXES or state["mx"]) and (ph or not state["mx"])
    assert state["sh"] in (0, 1) and (ph == MIXES or not (state["sh"] or sum(state["dice"])))
    assert len(state["dice"]) == 4 and len(state["fp"]) == 3 * n and sum(state["vc"]) <= 72
    for i in state["dice"]:
        assert 0 <= i <= 6
    for i in state["fp"]:
        assert 0 <= i <= 999
    for p in range(n):
        a, b = state["vr"][p], state["nc"][p]
        assert 0 <= state["cp"][p] <= 99 and b >= 4 and 0 <= a <= b
        assert 0 <= state["dc"][p] <= b - a and (ph == ROUND_END or not state["dc"][p])
        assert ph == FINAL or a <= state["vc"][p]
        assert state["vc"][p] or not sum(state["fp"][3 * p : 3 * p + 3])
