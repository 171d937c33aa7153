# HORTIS counter: the actions (hortis, the rules module, takes them from here), the reducer and
# the invariants behind hortis.reduce and hortis.check (apart from the scoring so that the
# board compiles two small modules rather than one big one). Every change is validated before
# anything is written; a refusal is a reason key (11+ characters: shorter strings would stay
# in RAM as qstrs on MicroPython). A live die: 0 in the reserve, 1-5 a face, 6 the mouse face,
# + 8 on a split zone.

from potager.core import table
from potager.core.compat import const

# Actions (op, a, b). Live count: a = player, b = die slot (colour * 5 + die).
NEW = const(16)  # a die showing 1, in the colour's first free slot (b free past it: refused)
MOUSE_FACE = const(17)  # a mouse-face die, likewise; b + 16: on a split zone
UPGRADE = const(18)  # the die moves onto a matching food zone: one face up (15 stays 15)
SPLIT = const(19)  # the die moves onto a matching split zone, unchanged
RESERVE = const(20)  # the die is overlapped by another type: back to the reserve
PAWN = const(21)  # the mouse pawn replaces the mouse-face die in slot b
PAWN_OUT = const(22)  # b = colour: the pawn instead of a mouse-face die, none of them left
MAX_DICE = const(15)  # 5 per colour: a live count's slots
FIELD = const(23)  # a = player * 32 + field: a quick-count index, or 16 + 0 bonus, 1 multiplier,
#                   2 target (the recipe challenge; the target is every player's)


def problem(g, q):
    # The reason a quick count cannot stand, else None: 15 dice, penalties within the dice;
    # the mouse pawn (Automne), the wheelbarrow and the squirrel (Grove) are 0/1.
    for i, v in enumerate(q):
        if v < 0:
            return "hortis_below_zero"
        if v > 1 and (i == 7 or (g and i == 8)):
            return "bad_action"
    if sum(q[: 7 if g else 6]) > MAX_DICE:
        return "hortis_too_many_dice"
    if not g:
        return "hortis_split_over" if q[6] > sum(q[:6]) else None
    if q[9] and not q[8]:
        return "hortis_no_squirrel"
    if q[9] > 4:
        return "hortis_adjacent_max"
    return "hortis_adjacent_over" if q[9] > sum(q[:6]) else None


def field(state, a, value):
    p, i = a // 32, a % 32
    if not 0 <= p < state["n"]:
        return "bad_action"
    if i >= 16:  # the recipe challenge: bonus, multiplier, target
        i -= 16
        if not state["rc"] or i > 2:
            return "bad_action"
        if not (i == 1) <= value <= (99, 9, 199)[i]:  # bonus, multiplier, target
            return "hortis_below_zero" if value < 0 else "hortis_recipe_limit"
        if i == 2:
            state["tg"] = value
        else:
            state["mu" if i else "bo"][p] = value
        return None
    if state["lv"] or i >= len(state["q"][p]):
        return "bad_action"
    q = list(state["q"][p])
    q[i] = value
    reason = problem(state["g"], q)
    if reason == "hortis_no_squirrel" and i == 8:
        reason = "hortis_squirrel_dice"  # the squirrel goes off: its neighbours first
    if reason is None:
        state["q"][p][i] = value
    return reason


def free(values, slot):
    # Where a new die of slot's colour goes: the colour's first free slot, or -1 (never past
    # a free slot; one that a die back to the reserve left is filled first).
    for i in range(slot - slot % 5, slot - slot % 5 + 5):
        if not values[i]:
            return i
    return -1


def apply(state, op, p, b):
    # The live count's dice moves (op NEW...PAWN_OUT) for player p.
    if state["end"]:
        return "hortis_count_done"
    values = state["d"][p]
    if op == PAWN_OUT:
        if not 0 <= b < 3:
            return "bad_action"
        if state["pw"][p]:
            return "hortis_pawn_used"
        if free(values, b * 5) >= 0:
            return "hortis_dice_left"
        state["pw"][p] = 1
        return None
    slot = b & 15
    if slot >= MAX_DICE or b >> (5 if op == MOUSE_FACE else 4) or b < 0:
        return "bad_action"
    if op in (NEW, MOUSE_FACE):
        v = free(values, slot)
        if v < 0:
            return "hortis_colour_out"
        if v < slot and not values[slot]:
            return "hortis_die_gap"  # a free slot before it: the die goes there, not past it
        slot = v
        values[slot] = 1 if op == NEW else 6 + (8 if b >> 4 else 0)
        return None
    v = values[slot] & 7
    if not v:
        return "hortis_no_die"
    if op == PAWN:
        if state["pw"][p]:
            return "hortis_pawn_used"
        if v != 6:
            return "hortis_not_mouse"
        state["pw"][p] = 1
        values[slot] = 0
    elif v == 6:
        return "hortis_mouse_stays"  # a mouse-face zone is never overlapped again but by the pawn
    elif op == UPGRADE:
        values[slot] = min(v + 1, 5)  # and off the split zone
    elif op == SPLIT:
        if values[slot] & 8:
            return "hortis_on_split"
        values[slot] += 8
    elif op == RESERVE:
        values[slot] = 0
    return None


def reduce(state, action):
    op, a, b = action
    if op == FIELD:
        return field(state, a, b)
    if op >= 16:
        if not state["lv"] or not NEW <= op <= PAWN_OUT or not 0 <= a < state["n"]:
            return "bad_action"
        return apply(state, op, a, b)
    # the table's ops. Live count: a round is a card, and the 9th card done ends the count
    if state["lv"]:
        if state["end"]:
            return "hortis_count_done"
        if op == table.SET and a == table.S_LAP and not b:
            return "hortis_card_a_lap"  # a card ends when every forest has had it

        if op == table.ROUND and a in (1, -1) and not 2 <= state["rnd"] + a <= 9:
            return "hortis_card_limit"
    elif op == table.ROUND:
        return "hortis_no_rounds"
    elif op in (table.NEXT, table.PASS, table.SKIP) and state["n"] == 1:
        return "hortis_solo"
    reason = table.reduce_table(state, op, a, b)
    if reason is None and state["lv"] and state["rnd"] > 9:
        state["rnd"] = 9
        state["end"] = 1
    return reason
