"""Horticolor (Julk, Betula 2024): dice mixes, compost tokens, final scoring.

Rules: the shared rules reference, rules/horticolor.md. ``score(data)`` takes the JSON of
``python -m host_tools score horticolor`` (parsed) and returns its output; the small
functions are what the device's Horticolor mode calls with plain ints and lists.
Pure: no hardware, runs unchanged on CPython, MicroPython and CircuitPython.
"""

from potager.core.compat import const
from potager.core.games import _check as ck

ROUNDS = const(3)
CARDS = const(72)
COMPOST_START = const(2)  # per player
COMPOST_SUPPLY = const(24)
COST_COLOUR = const(1)  # ignore a receptacle's colour
COST_SHIFT = const(2)  # change a receptacle's value by +1 or -1
COST_MARBLE = const(4)  # a free marble
# The three ways to pair 4 dice (indices into the roll) into 2 mixes.
PAIRS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 3, 1, 2))
EXACT = const(0)  # a receptacle asking for its value exactly
AT_LEAST = const(1)  # "N+"
AT_MOST = const(-1)  # "N-"


def pairings(dice):
    """The 3 ways to pair 4 dice into 2 mixes: 4, 6, 3, 5 -> [(10, 8), (7, 11), (9, 9)]."""
    return [(dice[a] + dice[b], dice[c] + dice[d]) for a, b, c, d in PAIRS]


def meets(mix, value, kind=EXACT):
    """Does a mix meet a receptacle: its value (EXACT), N+ (AT_LEAST) or N- (AT_MOST)?"""
    if kind == AT_LEAST:
        return mix >= value
    if kind == AT_MOST:
        return mix <= value
    return mix == value


def compost_cost(ignore_colour=False, shift=0, free_marbles=0):
    """Compost tokens for a spend: 1 to ignore a colour, 2 per +-1 on a value, 4 per free marble."""
    return (
        (COST_COLOUR if ignore_colour else 0) + COST_SHIFT * abs(shift) + COST_MARBLE * free_marbles
    )


def spend_compost(held, cost):
    """Tokens left after spending cost; ValueError when more than held."""
    if cost > held:
        ck.fail(
            "compost", "not enough compost tokens: " + str(held) + " held, " + str(cost) + " needed"
        )
    return held - cost


def final_total(card_points, synergy, earthworm):
    """Final score: printed points of validated cards + Synergy + Earthworm points."""
    return card_points + synergy + earthworm


def winners(names, totals, validated):
    """Highest total; tie -> fewer validated cards; still tied -> shared (input order)."""
    return ck.best(names, [(t, -validated[i]) for i, t in enumerate(totals)])


def score(data):
    """Score a finished game given as the CLI's input JSON; ValueError names a bad field."""
    ps = ck.players(data, 2, 4)
    names, totals, validated = [], [], []
    for i, p in enumerate(ps):
        path = ck.item("players", i)
        nums = []
        for name in ("card_points", "synergy", "earthworm"):
            nums.append(ck.integer(ck.need(p, path, name), ck.key(path, name), 0))
        vpath = ck.key(path, "validated_cards")
        cards = ck.integer(ck.need(p, path, "validated_cards"), vpath, 0, CARDS)
        if cards == 0 and sum(nums) > 0:
            ck.fail(
                vpath,
                "is 0, so card_points, synergy and earthworm must be 0: only validated cards score",
            )
        names.append(p["name"])
        totals.append(final_total(nums[0], nums[1], nums[2]))
        validated.append(cards)
    if sum(validated) > CARDS:
        ck.fail(
            "players", str(sum(validated)) + " validated cards in all, the game has " + str(CARDS)
        )
    rows = [{"name": n, "total": totals[i]} for i, n in enumerate(names)]
    return {"players": rows, "winners": winners(names, totals, validated)}
