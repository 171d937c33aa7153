"""HORTIS Automne and HORTIS (Grove): ``score_automne(data)`` and ``score_grove(data)`` for
``python -m host_tools score hortis-automne`` and ``... score hortis``.

They take the CLI's input JSON (parsed) and return its output, with the same rule functions
the device's counter calls (``potager.core.games.hortis``). Kept apart so the device never
loads the JSON validation. Pure: runs unchanged on CPython, MicroPython and CircuitPython.
"""

from potager.core.games import _check as ck
from potager.core.games.hortis import (
    AUTOMNE_FACES,
    GROVE_FACES,
    MAX_DICE,
    automne_score,
    band,
    grove_score,
    recipe_final,
    winners,
)


def automne_upgrade(face):
    # Automne: a die moved onto a matching food zone goes up one step, 1-3-6-10-15 (15 stays).
    return AUTOMNE_FACES[min(AUTOMNE_FACES.index(face) + 1, 4)]


def grove_grow(face, fruit):
    # Grove: a die (face 0 = no die yet) after a matching overlap adding `fruit`: above 6 it is
    # a basket (10); a basket grown again is the wheelbarrow (15).
    if face >= 10:
        return 15
    return 10 if face + fruit > 6 else face + fruit


def _counts(d, path, faces):
    dpath = ck.key(path, "dice")
    dice = ck.obj(ck.need(d, path, "dice"), dpath)
    names = [str(f) for f in faces]
    for k in dice:
        if k not in names:
            ck.fail(ck.key(dpath, k), "not a die face (faces: " + ", ".join(names) + ")")
    return [ck.integer(dice.get(n, 0), ck.key(dpath, n), 0, MAX_DICE) for n in names]


def _int(d, path, name, lo, hi, default=None):
    v = d.get(name, default) if default is not None else ck.need(d, path, name)
    return ck.integer(v, ck.key(path, name), lo, hi)


def _recipe(d, path, score):
    rpath = ck.key(path, "recipes")
    r = ck.obj(d["recipes"], rpath)
    target = _int(r, rpath, "target", 0, None)
    final, won = recipe_final(
        score, _int(r, rpath, "bonus", 0, None, 0), _int(r, rpath, "multiplier", 1, None, 1), target
    )
    return {"final": final, "target": target, "won": won}


def _one_automne(d, path):
    ck.obj(d, path)
    counts = _counts(d, path, AUTOMNE_FACES)
    mouse = _int(d, path, "mouse_face_dice", 0, MAX_DICE)
    used = sum(counts) + mouse
    if used > MAX_DICE:
        ck.fail(
            ck.key(path, "dice"),
            str(used) + " dice in all with mouse_face_dice, the game has " + str(MAX_DICE),
        )
    split = _int(d, path, "split_zone_dice", 0, MAX_DICE)
    if split > used:
        ck.fail(
            ck.key(path, "split_zone_dice"),
            str(split) + " dice on split zones but only " + str(used) + " dice in the forest",
        )
    pawn = ck.boolean(ck.need(d, path, "mouse_pawn"), ck.key(path, "mouse_pawn"))
    return automne_score(counts, split, mouse, pawn), used


def _one_grove(d, path):
    ck.obj(d, path)
    counts = _counts(d, path, GROVE_FACES)
    scoring = sum(counts)
    used = scoring + _int(d, path, "glade_dice", 0, MAX_DICE, 0)
    if used > MAX_DICE:
        ck.fail(
            ck.key(path, "dice"),
            str(used) + " dice in all with glade_dice, the game has " + str(MAX_DICE),
        )
    wheel = ck.boolean(ck.need(d, path, "wheelbarrow"), ck.key(path, "wheelbarrow"))
    squirrel = ck.boolean(ck.need(d, path, "squirrel"), ck.key(path, "squirrel"))
    apath = ck.key(path, "squirrel_adjacent_dice")
    adjacent = _int(d, path, "squirrel_adjacent_dice", 0, 4, 0)
    if adjacent and not squirrel:
        ck.fail(apath, "must be 0 (or left out) when the squirrel is not in the grove")
    if adjacent > scoring:
        ck.fail(
            apath,
            str(adjacent) + " dice next to the squirrel but only " + str(scoring) + " scoring dice",
        )
    return grove_score(counts, wheel, squirrel, adjacent), used


def _score(data, game, one):
    ck.obj(data, "")
    if "players" not in data:
        s, used = one(data, "")
        out = {"score": s, "dice_used": used, "band": band(game, s)}  # type: dict
        if "recipes" in data:
            out["recipe"] = _recipe(data, "", s)
        return out
    ps = ck.players(data, 1, None)
    rows, keys, dice, target = [], [], [], None
    for i, p in enumerate(ps):
        path = ck.item("players", i)
        s, used = one(p, path)
        row = {"name": p["name"], "score": s, "dice_used": used, "band": band(game, s)}  # type: dict
        if ("recipes" in p) != ("recipes" in ps[0]):
            ck.fail(ck.key(path, "recipes"), "give recipes for every player or for none")
        if "recipes" in p:
            row["recipe"] = _recipe(p, path, s)
            if target is not None and row["recipe"]["target"] != target:
                ck.fail(
                    ck.key(path, "recipes.target"),
                    "every player sets aside the same 2 recipes: the target must be " + str(target),
                )
            target = row["recipe"]["target"]
        rows.append(row)
        keys.append(row["recipe"]["final"] if "recipe" in row else s)
        dice.append(used)
    return {"players": rows, "winners": winners([r["name"] for r in rows], keys, dice)}


def score_automne(data):
    """Score HORTIS Automne (one forest, or {"players": [...]}); ValueError names a bad field."""
    return _score(data, 0, _one_automne)


def score_grove(data):
    """Score HORTIS (Grove) (one grove, or {"players": [...]}); ValueError names a bad field."""
    return _score(data, 1, _one_grove)
