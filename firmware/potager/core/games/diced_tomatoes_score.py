"""Diced Tomatoes on the host: ``score(data)`` for ``python -m host_tools score diced-tomatoes``
and the rules as small named functions (tests, tools).

The final score's parts come from the device's own ``diced_tomatoes.parts``; the Karma rules
below are the ones the device's reducer applies (tests check that they agree). Kept apart from
the device's module: the board never loads the JSON checks. Pure: runs unchanged on CPython,
MicroPython and CircuitPython.
"""

from potager.core.games import _check as ck
from potager.core.games.diced_tomatoes import (
    KARMA_MAX,
    KARMA_TURN_MAX,
    SLOTS,
    parts,
)

MAX_DICE_ON_VINES = 12
VARIANTS = ("tomato_dice", "karma_overdose", "golden_sun")
DICE_BONUS = ("per-3-dice", "per-vine")
MODES = ("multi", "solo")

UPROOTED_0 = "(value 0 means the vine was uprooted, not harvested)"
UPROOTED_7 = "(a value above 6 means the vine was overripe and uprooted, not harvested)"


def harvest_value(seed, black=0, gold=0):
    """Value of a harvested vine: seed die - black dice + gold dice."""
    return seed - black + gold


def uprooted(value):
    """A vine of this value at the end of a turn is uprooted (rotten 0 or overripe 7+)."""
    return value < 1 or value > 6


def karma_gain(value, overdose=False):
    """Karma for completing an opponent's vine of this value (1-6): 1-2 -> 1, 3-4 -> 2,
    5-6 -> 3; the value itself under Karma Overdose."""
    ck.integer(value, "value", 1, 6)
    return value if overdose else (value + 1) // 2


def karma_add(karma, gain, own_turn=False):
    """Karma after a gain: capped at 12 during one's own turn, at 6 otherwise."""
    return min(karma + gain, KARMA_TURN_MAX if own_turn else KARMA_MAX)


def karma_end_turn(karma):
    """Karma kept when one's turn ends: anything above 6 is lost."""
    return min(karma, KARMA_MAX)


def karma_third(karma, thirds, own_turn=False):
    """Karma Overdose: one more 1/3 heart; three make 1 Karma. Returns (karma, thirds)."""
    thirds += 1
    if thirds >= 3:
        return karma_add(karma, 1, own_turn), 0
    return karma, thirds


def spend_karma(karma, cost):
    """Karma left after paying cost (1-6); ValueError when more than held."""
    ck.integer(cost, "cost", 1, 6)
    if cost > karma:
        ck.fail("karma", "not enough Karma: " + str(karma) + " held, " + str(cost) + " needed")
    return karma - cost


def slot_bonus(slot, value):
    """Tomato Dice star bonus of slot (1-6) holding value: the slot becomes worth 7."""
    return 7 - slot if value == slot else 0


def karma_points(karma):
    """+1 per pair of unused Karma (1/3 pieces do not count)."""
    return karma // 2


def dice_bonus(count, per_vine=False):
    """count = dice on own unharvested vines ("per-3-dice": +1 per 3), or with per_vine the
    number of own vines holding exactly 3 dice (+1 each)."""
    return count if per_vine else count // 3


def breakdown(harvests, karma, dice, triggered_end=False, tomato_dice=False, per_vine=False):
    """The parts of a final score (the device's ``parts``); `dice` as for dice_bonus()."""
    p = parts(
        harvests, karma, dice, triggered_end, (1 if tomato_dice else 0) | (8 if per_vine else 0)
    )
    return {"harvests": p[0], "stars": p[1], "karma": p[2], "dice": p[3], "end_trigger": p[4]}


def final_total(harvests, karma, dice, triggered_end=False, tomato_dice=False, per_vine=False):
    """Final score: slots + stars + Karma pairs + dice bonus + 2 for triggering the end."""
    return sum(breakdown(harvests, karma, dice, triggered_end, tomato_dice, per_vine).values())


def solo_result(harvests):
    """Solo: (slots whose value equals their number, won = all 6 slots filled)."""
    return parts(harvests, 0, 0, False, 0)[5], len(harvests) == SLOTS


def _variants(data):
    vs = ck.obj(data.get("variants", {}), "variants")
    out = {"tomato_dice": False, "karma_overdose": False, "golden_sun": False}  # type: dict
    out["dice_bonus"] = "per-3-dice"
    for name in vs:
        path = ck.key("variants", name)
        if name in VARIANTS:
            out[name] = ck.boolean(vs[name], path)
        elif name == "dice_bonus":
            out[name] = ck.choice(vs[name], path, DICE_BONUS)
        else:
            ck.fail(path, "unknown variant (known: " + ", ".join(VARIANTS) + ", dice_bonus)")
    return out


def _harvests(p, path):
    hpath = ck.key(path, "harvests")
    hs = ck.array(ck.need(p, path, "harvests"), hpath, 0, SLOTS, "harvests")
    for i, v in enumerate(hs):
        hint = None
        if type(v) is int:
            hint = UPROOTED_0 if v == 0 else UPROOTED_7 if v > 6 else None
        ck.integer(v, ck.item(hpath, i), 1, 6, hint)
    return hs


def score(data):
    """Score a finished game given as the CLI's input JSON; ValueError names a bad field."""
    ck.obj(data, "")
    mode = ck.choice(data.get("mode", "multi"), "mode", MODES)
    var = _variants(data)
    if mode == "solo":
        ps = ck.players(data, 1, 1)
    else:
        ps = ck.players(data, 2, 6)
    per_vine = var["dice_bonus"] == "per-vine"
    dice_key = "vines_with_3_dice" if per_vine else "dice_on_vines"
    rows = []
    trigger = None
    for i, p in enumerate(ps):
        path = ck.item("players", i)
        hs = _harvests(p, path)
        karma = ck.integer(ck.need(p, path, "karma"), ck.key(path, "karma"), 0, KARMA_MAX)
        dpath = ck.key(path, dice_key)
        dice = ck.integer(
            ck.need(p, path, dice_key), dpath, 0, 3 if per_vine else MAX_DICE_ON_VINES
        )
        tpath = ck.key(path, "triggered_end")
        trig = ck.boolean(ck.need(p, path, "triggered_end"), tpath)
        if trig and len(hs) < SLOTS:
            ck.fail(tpath, "only a 6th harvest triggers the end, this player has " + str(len(hs)))
        if trig and trigger is not None:
            ck.fail(
                tpath, "players[" + str(trigger) + "] already triggered the end: one player at most"
            )
        if trig:
            trigger = i
        parts = breakdown(hs, karma, dice, trig, var["tomato_dice"], per_vine)
        rows.append({"name": p["name"], "total": sum(parts.values()), "breakdown": parts})
    out = {"players": rows}  # type: dict
    if mode == "solo":
        matches, won = solo_result(ps[0]["harvests"])
        out["solo"] = {"matches": matches, "won": won}
        out["winners"] = [rows[0]["name"]] if won else []
    else:
        out["winners"] = ck.best([r["name"] for r in rows], [r["total"] for r in rows])
    return out
