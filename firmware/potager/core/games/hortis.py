"""HORTIS Automne (Forage) and HORTIS (Grove), solo 9-card games by Mark Tuck.

Rules: the shared rules reference, rules/hortis.md. ``score_automne(data)`` and
``score_grove(data)`` take the JSON of ``python -m host_tools score hortis-automne`` and
``... score hortis`` (parsed) and return its output; the small functions are what the device's
offline counter calls with plain ints and lists. Pure: no hardware, runs unchanged on CPython,
MicroPython and CircuitPython.
"""

from potager.core.compat import const
from potager.core.games import _check as ck

MAX_DICE = const(15)  # 5 per colour
AUTOMNE_FACES = (1, 3, 6, 10, 15)  # 15 = basket; the mouse face (-2) is counted apart
GROVE_FACES = (2, 3, 4, 5, 6, 10)  # 10 = basket
BASKET = const(10)  # Grove's top die face
WHEELBARROW = const(15)  # Grove: a basket upgraded again becomes the wheelbarrow token
SPLIT_COST = const(1)
MOUSE_COST = const(2)
MOUSE_PAWN_COST = const(5)

# Rating bands: (min, max, French title, English title); None = no bound.
AUTOMNE_BANDS = (
    (None, 29, "Vous foncez droit dans la Mûre…", "Straight into the brambles…"),
    (30, 34, "Vous Forêt mieux la prochaine fois.", "You'll forage better next time."),
    (35, 39, "Appuyez sur le Champignon.", "Step on the mushroom."),
    (40, 44, "Vous Châtaignez votre but !", "You nut-ed your goal!"),
    (45, 49, "La victoire vous Souris !", "Victory smiles (mice) at you!"),
    (50, None, "Bravo ! Vous êtes im-Baie-ttable !!!", "Bravo! You're un-berry-able!!!"),
)
# Grove's English titles are the printed ones; the French ones are ours (not in the seed).
GROVE_BANDS = (
    (None, 39, "Quel pépin…", "Pith-iful"),
    (40, 44, "Il va falloir presser le pas.", "You need a pip talk"),
    (45, 49, "Vous avez du jus !", "Juiced enough"),
    (50, 54, "Mandarin-fique !", "Jaffa-bulous"),
    (55, 59, "Tout simplement sub-lime !", "Sub-lime"),
    (60, None, "Vous avez le zeste gagnant !", "You're the zest!"),
)


def automne_upgrade(face):
    """Automne: a die moved onto a matching food zone goes up one step, 1-3-6-10-15 (15 stays)."""
    i = AUTOMNE_FACES.index(face)
    return AUTOMNE_FACES[min(i + 1, len(AUTOMNE_FACES) - 1)]


def grove_grow(face, fruit):
    """Grove: a die (face 0 = no die yet) after a matching overlap adding `fruit`: above 6 it
    is a basket (10); a basket grown again is the wheelbarrow (15)."""
    if face >= BASKET:
        return WHEELBARROW
    return BASKET if face + fruit > 6 else face + fruit


def automne_score(counts, split_zone_dice=0, mouse_face_dice=0, mouse_pawn=False):
    """counts[i] = dice showing AUTOMNE_FACES[i]. Sum of faces - 1 per die on a split zone -
    2 per mouse-face die - 5 for the mouse pawn."""
    total = 0
    for i, n in enumerate(counts):
        total += AUTOMNE_FACES[i] * n
    total -= SPLIT_COST * split_zone_dice + MOUSE_COST * mouse_face_dice
    return total - (MOUSE_PAWN_COST if mouse_pawn else 0)


def grove_score(counts, wheelbarrow=False, squirrel=False, squirrel_adjacent_dice=0):
    """counts[i] = scoring dice (not on glades) showing GROVE_FACES[i]. Sum + 15 for the
    wheelbarrow - (1 + 1 per die on a tree next to the squirrel) when the squirrel is out."""
    total = 0
    for i, n in enumerate(counts):
        total += GROVE_FACES[i] * n
    if wheelbarrow:
        total += WHEELBARROW
    if squirrel:
        total -= 1 + squirrel_adjacent_dice
    return total


def band(game, score):
    """The rating band of a score: {"min", "max", "title_fr", "title_en"} (None = no bound).
    game: "automne" (or "hortis-automne") or "grove" (or "hortis")."""
    table = AUTOMNE_BANDS if game in ("automne", "hortis-automne") else GROVE_BANDS
    for lo, hi, fr, en in table:
        if (lo is None or score >= lo) and (hi is None or score <= hi):
            return {"min": lo, "max": hi, "title_fr": fr, "title_en": en}
    raise ValueError("band: no band for " + str(score))  # unreachable: the table is open-ended


def recipe_final(score, bonus, multiplier, target):
    """Recipe challenge: (final, won): final = (score + bonus) x multiplier, won if >= target."""
    final = (score + bonus) * multiplier
    return final, final >= target


def winners(names, scores, dice_used):
    """Highest score; tie -> most dice used; still tied -> shared (input order)."""
    return ck.best(names, [(s, dice_used[i]) for i, s in enumerate(scores)])


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
    return _score(data, "automne", _one_automne)


def score_grove(data):
    """Score HORTIS (Grove) (one grove, or {"players": [...]}); ValueError names a bad field."""
    return _score(data, "grove", _one_grove)
