"""Horticolor on the host: ``score(data)`` for ``python -m host_tools score horticolor``, and
the receptacle and spending rules the device does not need (it does not see the cards).

Takes the CLI's input JSON (parsed) and returns its output, with the same rule functions the
device's mode calls (``potager.core.games.horticolor``). Kept apart so the device never
loads the JSON validation. Pure: runs unchanged on CPython, MicroPython and CircuitPython.
"""

from potager.core.games import _check as ck
from potager.core.games import horticolor as rules
from potager.core.games.horticolor import CARDS, final_total, winners

EXACT = 0  # a receptacle asking for its value exactly
AT_LEAST = 1  # "N+"
AT_MOST = -1  # "N-"


def meets(mix, value, kind=EXACT):
    """Does a mix meet a receptacle: its value (EXACT), N+ (AT_LEAST) or N- (AT_MOST)?"""
    if kind == AT_LEAST:
        return mix >= value
    if kind == AT_MOST:
        return mix <= value
    return mix == value


def compost_cost(ignore_colour=False, shift=0, free_marbles=0):
    """Compost tokens for a spend: 1 to ignore a colour (True; or how many colours), 2 per
    +-1 on a value, 4 per free marble. The device's rules count the same."""
    return rules.compost_cost(int(ignore_colour), abs(shift), free_marbles)


def spend_compost(held, cost):
    """Tokens left after spending cost; ValueError when more than held (the device refuses
    the same spend with the reason hc_short)."""
    if cost > held:
        ck.fail(
            "compost", "not enough compost tokens: " + str(held) + " held, " + str(cost) + " needed"
        )
    return held - cost


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
