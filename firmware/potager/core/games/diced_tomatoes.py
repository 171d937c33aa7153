# Diced Tomatoes (Arkadiusz Greniuk, Agrypelago Games): Karma tracks, harvest slots, the last
# round, the final score, solo. Rules: the shared rules reference, rules/diced-tomatoes.md.
#
# The device's state, on top of the table's fields (core/table.py):
#   ka     Karma per player: 0-6, up to 12 for the active player during their turn
#   th     thirds of a Karma heart per player (Karma Overdose), 0-2
#   hv     per player, the harvested values (1-6) in slot order: hv[p][0] is slot 1
#   dv     per player, the dice left on their unfinished vines (asked at the end); with the
#          per-vine dice bonus, their vines holding exactly 3 dice
#   extra  dice carried over to the active player: they roll 3 + extra
#   held   dice the active player could not place: the next player's extra at TURN
#   mark   who holds the last-player marker: the player before the starting player in turn
#          order (it moves when the direction changes)
#   full   the player whose 6th harvest (a full score track) started the last round, -1 before
#   end    0 playing, 1 the last round is over, 2 the basket is empty, 3 ended from the menu
#   opt    the options, bits: 1 Tomato Dice, 2 Karma Overdose, 4 Golden Sun, 8 per-vine bonus
# Karma is gained and spent by the active player: only they place dice. The final score's
# parts (``parts``) are shared with ``python -m host_tools score diced-tomatoes``, whose JSON
# checks and named helpers live in diced_tomatoes_score (which the device never loads).
#
# RAM: the reason keys are longer than 10 characters (a shorter string stays a qstr for good
# on the board). The rule's numbers are named: those the host's checks share are public (3
# qstrs, 192 bytes of heap on CircuitPython's 32-bit VM from .mpy, which the board's 60 KB at
# the lowest can spare), the others private (_NAME = const(n): folded, they cost nothing).

from potager.core import table
from potager.core.compat import const

HARVEST = const(16)  # a: the vine's owner, b: its value (seed die - black dice + gold dice)
THIRD = const(17)  # the active player put a die on an opponent's vine (Karma Overdose)
SPEND = const(18)  # a: the cost (1-6) of the Karma effect the active player buys
CARRY = const(19)  # a: dice the active player could not place (at most 3 + their extra)
END = const(20)  # a: 2 the basket is empty, 3 from the menu: the game ends at once
DICE = const(21)  # a: player, b: dice left on their unfinished vines (after the end)

SLOTS = const(6)  # slots on a score track: a 6th harvest triggers the last round
_KARMA_START = const(3)
KARMA_MAX = const(6)  # the track; also the cap outside one's own turn and at the end
KARMA_TURN_MAX = const(12)  # during one's own turn; the excess is lost when it ends
_TRIGGER_BONUS = const(2)  # for the 6th harvest that started the last round
# the option bits (state["opt"])
_TOMATO_DICE = const(1)
_OVERDOSE = const(2)  # Karma Overdose
# 4: Golden Sun
_PER_VINE = const(8)  # the dice bonus per vine of 3 dice, not per 3 dice


def parts(h, k, c, t, opt):
    # A final score's parts: [harvests, Tomato Dice stars, Karma pairs, dice bonus, 2 for the
    # 6th harvest that started the last round] and, last, the slots matching their number.
    # h: the harvests, k: Karma left, c: dice on unfinished vines (per-vine: vines of 3 dice),
    # t: whether this player started the last round.
    matched = 0
    star = 0
    for i in range(len(h)):
        if h[i] == i + 1:
            matched += 1
            star += SLOTS - i  # the slot is worth 7: 7 - slot number
    return [
        sum(h),
        star if opt & _TOMATO_DICE else 0,
        k // 2,
        c if opt & _PER_VINE else c // 3,
        _TRIGGER_BONUS if t else 0,
        matched,
    ]


def new(players, colours, first=0, opt=0):
    # opt: the option bits above; Karma Overdose needs opponents, so solo never has it
    state = table.new_table(players, colours, first)
    state["ka"] = [_KARMA_START] * players
    state["th"] = [0] * players
    state["hv"] = [[] for _ in range(players)]
    state["dv"] = [0] * players
    state["extra"] = state["held"] = state["end"] = 0
    state["mark"] = (first - 1) % players
    state["full"] = -1
    state["opt"] = opt & (15 if players > 1 else 15 - _OVERDOSE)
    return state


def reduce(state, action):
    op, a, b = action
    p = state["act"]
    k = state["ka"]
    if op == DICE:
        if not state["end"]:
            return "dt_not_over_yet"
        if not 0 <= a < state["n"]:
            return "bad_player"
        if not 0 <= b <= (3 if state["opt"] & _PER_VINE else 9):  # 3 vines of 3 dice at most
            return "dt_dice_out_of_range"
        state["dv"][a] = b
        return None
    if state["end"]:
        return "dt_game_is_over"
    if op < 16:
        if op in (table.PASS, table.SKIP):
            return "dt_nobody_passes"
        if op == table.NEXT:
            return step(state, a)
        log = state.get("log")
        kept = log[-1][5] if log else 0  # what the handover hold TURN takes back kept (step)
        v = state["dir"]
        reason = table.reduce_table(state, op, a, b)
        if reason is None and op == table.PREV:
            # the turn handed over by mistake ends (its Karma above 6 too); the previous
            # player's turn comes back as it stood: their Karma, the dice they received, and
            # those they pass on (what this player had received)
            k[p] = min(k[p], KARMA_MAX)
            p = state["act"]
            k[p] = max(k[p], kept >> 4)
            state["held"] = state["extra"]
            state["extra"] = kept & 15
        if reason is None and op == table.SET and a == table.S_DIR:
            # the marker stays with the player before the starting player in turn order
            state["mark"] = (state["mark"] + v - b) % state["n"]
        return reason
    if op == HARVEST:
        return add(state, a, b)
    if op == THIRD:
        if not state["opt"] & _OVERDOSE:
            return "dt_overdose_is_off"
        state["th"][p] += 1
        if state["th"][p] == 3:  # three thirds make a heart
            state["th"][p] = 0
            k[p] = min(k[p] + 1, KARMA_TURN_MAX)
        return None
    if op == SPEND:
        if not 1 <= a <= KARMA_MAX:
            return "bad_action"
        if a > k[p]:
            return "dt_not_enough_karma"
        k[p] -= a
        return None
    if op == CARRY:
        if not 0 <= a <= min(3 + state["extra"], 15):
            return "dt_more_than_rolled"
        state["held"] = a
        return None
    if op == END and a in (2, 3):
        k[p] = min(k[p], KARMA_MAX)
        state["end"] = a
        return None
    return "bad_action"


def step(state, seconds):
    # TURN: Karma above 6 is lost, the dice not placed go on; the last player's turn ends it
    p = state["act"]
    before = (p, state["rnd"], state["first"], state["out"])
    # kept with the handover, for hold TURN: this player's Karma and the dice they received
    reason = table.reduce_table(state, table.NEXT, seconds, state["ka"][p] * 16 + state["extra"])
    if reason is not None:
        return reason
    state["ka"][p] = min(state["ka"][p], KARMA_MAX)
    state["extra"] = state["held"]
    state["held"] = 0
    if state["full"] >= 0 and p == state["mark"]:
        state["end"] = 1
        state["act"], state["rnd"], state["first"], state["out"] = before
    return None


def add(state, a, v):
    # a harvests a vine of value v into their next slot; completing an opponent's vine (one's
    # own in solo) gains the active player Karma: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3, or v itself
    # under Karma Overdose
    n = state["n"]
    if not 0 <= a < n:
        return "bad_player"
    if v < 1:
        return "dt_rotten_uprooted"
    if v > 6:
        return "dt_overripe_uprooted"
    h = state["hv"][a]
    if len(h) == SLOTS:
        return "dt_six_slots_full"
    h.append(v)
    p = state["act"]
    if a != p or n == 1:
        k = state["ka"]
        k[p] = min(k[p] + (v if state["opt"] & _OVERDOSE else (v + 1) // 2), KARMA_TURN_MAX)
    if len(h) == SLOTS and state["full"] < 0:
        state["full"] = a
    return None


def check(state):
    table.check_table(state)
    n = state["n"]
    for p in range(n):
        top = KARMA_TURN_MAX if p == state["act"] and not state["end"] else KARMA_MAX
        assert 0 <= state["ka"][p] <= top and 0 <= state["th"][p] <= 2
        assert len(state["hv"][p]) <= SLOTS and all(1 <= v <= 6 for v in state["hv"][p])
        assert 0 <= state["dv"][p] <= (3 if state["opt"] & _PER_VINE else 9)
    for key in ("ka", "th", "hv", "dv"):
        assert len(state[key]) == n
    assert state["opt"] & _OVERDOSE or not any(state["th"])
    assert 0 <= state["opt"] <= 15 and (n > 1 or not state["opt"] & _OVERDOSE)
    full = state["full"]
    assert -1 <= full < n and (full < 0 or len(state["hv"][full]) == SLOTS)
    assert 0 <= state["mark"] < n and state["end"] in (0, 1, 2, 3)
    assert state["end"] != 1 or state["full"] >= 0
    assert 0 <= state["extra"] <= 15 and 0 <= state["held"] <= min(3 + state["extra"], 15)
