# HORTIS Automne (Forage) and HORTIS (Grove), solo 9-card games by Mark Tuck: the device's
# offline counter, and the scoring functions it shares with the host's `python -m host_tools
# score hortis-automne` / `... score hortis` (their JSON side, hortis_score, never loaded by the
# device). Rules: the shared rules reference, rules/hortis.md. Pure: no hardware, runs unchanged
# on CPython, MicroPython and CircuitPython.
#
# The device's state, on top of the table's fields (core/table.py); a forest per player:
#   g   0 HORTIS Automne, 1 HORTIS (Grove)     lv  1 live count (Automne only), 0 quick count
#   rc  1 with the recipe challenge            tg  its target (the two recipe numbers added)
#   bo, mu  per player, the recipe bonus points and multiplier
#   q   quick count, per player. Automne: dice showing 1, 3, 6, 10, 15, mouse-face dice, dice
#       on split zones, mouse pawn (0/1). Grove: scoring dice showing 2, 3, 4, 5, 6, 10, dice
#       on glades, wheelbarrow (0/1), squirrel (0/1), dice next to the squirrel.
#   d   live count, per player: the 15 dice, 5 per colour (green, yellow, brown); a die is 0 in
#       the reserve, 1-5 a face of AUTOMNE_FACES, 6 the mouse face; +8 on a split zone
#   pw  live count, per player: the mouse pawn is in the forest (it is placed once per game)
#   end live count: 1 once the 9th card is done (TURN on the last player of card 9)
#   rnd live count: the card being played, 2-9 (card 1 starts the forest: no dice come with it)
# The reducer is hortis_count, and the actions it takes are defined there; they are imported
# here, for the screens and the golden scenarios take a mode's actions from its rules module
# (ints only: the reducer can still be forgotten at the game's end). The board compiles .py in
# RAM, a small module at a time: comments rather than docstrings. Names say what they hold:
# the framework's names reused (`n` a bound, `g` the game then a row) and 15 written out saved
# 64 bytes of heap (1 qstr; CircuitPython's 32-bit VM, .mpy), not worth it with the board's
# 60 KB free at the lowest.

from potager.core import table
from potager.core.games.hortis_count import (  # noqa: F401  (re-exported; ints only)
    FIELD,
    MAX_DICE,
    MOUSE_FACE,
    NEW,
    PAWN,
    PAWN_OUT,
    RESERVE,
    SPLIT,
    UPGRADE,
)

AUTOMNE_FACES = (1, 3, 6, 10, 15)  # 15 = basket; the mouse face (-2) is counted apart
GROVE_FACES = (2, 3, 4, 5, 6, 10)  # 10 = basket, and the wheelbarrow token is 15
# Rating bands, Automne then Grove: the lowest score of each band but the first, the titles in
# French (Automne: as printed; Grove: ours, not in our sources), then in English (Automne:
# ours; Grove: as printed).
BANDS = (  # type: tuple
    (30, 35, 40, 45, 50),
    (
        "Vous foncez droit dans la Mûre…",
        "Vous Forêt mieux la prochaine fois.",
        "Appuyez sur le Champignon.",
        "Vous Châtaignez votre but !",
        "La victoire vous Souris !",
        "Bravo ! Vous êtes im-Baie-ttable !!!",
    ),
    (
        "Straight into the brambles…",
        "You'll forage better next time.",
        "Step on the mushroom.",
        "You nut-ed your goal!",
        "Victory smiles (mice) at you!",
        "Bravo! You're un-berry-able!!!",
    ),
    (40, 45, 50, 55, 60),
    (
        "Quel pépin…",
        "Il va falloir presser le pas.",
        "Vous avez du jus !",
        "Mandarin-fique !",
        "Tout simplement sub-lime !",
        "Vous avez le zeste gagnant !",
    ),
    (
        "Pith-iful",
        "You need a pip talk",
        "Juiced enough",
        "Jaffa-bulous",
        "Sub-lime",
        "You're the zest!",
    ),
)


def automne_score(values, split=0, mouse=0, pawn=False):
    # values[i] = dice showing AUTOMNE_FACES[i]. Sum of faces - 1 per die on a split zone -
    # 2 per mouse-face die - 5 for the mouse pawn.
    total = 0
    for i, n in enumerate(values):
        total += AUTOMNE_FACES[i] * n
    return total - split - 2 * mouse - (5 if pawn else 0)


def grove_score(values, wheel=False, squirrel=False, near=0):
    # values[i] = scoring dice (not on glades) showing GROVE_FACES[i]. Sum + 15 for the
    # wheelbarrow - (1 + 1 per die `near`, on a tree next to the squirrel) when the squirrel is
    # out.
    total = 15 if wheel else 0
    for i, n in enumerate(values):
        total += GROVE_FACES[i] * n
    return total - (1 + near if squirrel else 0)


def band(g, score):
    # The rating band of a score: {"min", "max", "title_fr", "title_en"} (None = no bound);
    # g: 0 for Automne (or "hortis-automne"), 1 for Grove (or "hortis").
    row = 3 if g in (1, "hortis") else 0  # the game's rows in BANDS: lows, French, English
    i = 0
    while i < 5 and score >= BANDS[row][i]:
        i += 1
    low = BANDS[row][i - 1] if i else None
    high = BANDS[row][i] - 1 if i < 5 else None
    return {"min": low, "max": high, "title_fr": BANDS[row + 1][i], "title_en": BANDS[row + 2][i]}


def recipe_final(score, bonus, multiplier, target):
    # Recipe challenge: (final, won): final = (score + bonus) x multiplier, won if >= target.
    total = (score + bonus) * multiplier
    return total, total >= target


def winners(names, scores, dice_used):
    # Highest score; tie -> most dice used; still tied -> shared (input order).
    keys = [(s, dice_used[i]) for i, s in enumerate(scores)]
    top = max(keys) if keys else None
    return [n for i, n in enumerate(names) if keys[i] == top]


# --- the device's counter ---------------------------------------------------------------
def new(players, colours, first=0, g=0, lv=0, rc=0):
    # g: 1 for Grove; lv: 1 for a live count (Automne only); rc: 1 with the recipe challenge.
    state = table.new_table(players, colours, first)
    g = 1 if g else 0
    lv = 1 if lv and not g else 0
    state.update({"g": g, "lv": lv, "rc": 1 if rc else 0, "tg": 0})
    state["bo"] = [0] * players
    state["mu"] = [1] * players
    if lv:
        state["d"] = [[0] * MAX_DICE for _ in range(players)]
        state["pw"] = [0] * players
        state["end"] = 0
        state["rnd"] = 2  # card 1 starts the forest
    else:
        state["q"] = [[0] * (10 if g else 8) for _ in range(players)]
    return state


def score(state, p):
    # Player p's score as counted so far.
    if state["g"]:
        q = state["q"][p]
        return grove_score(q[:6], q[7], q[8], q[9])
    if not state["lv"]:
        q = state["q"][p]
        return automne_score(q[:5], q[6], q[5], q[7])
    values = [0] * 6  # the live dice: faces, then mouse faces
    split = 0
    for v in state["d"][p]:
        if v:
            values[(v & 7) - 1] += 1
        if v & 8:  # on a split zone
            split += 1
    return automne_score(values[:5], split, values[5], state["pw"][p])


def dice_used(state, p):
    # Dice in player p's forest or grove (the tie-break), mouse-face and glade dice included.
    if state["lv"]:
        return MAX_DICE - state["d"][p].count(0)
    return sum(state["q"][p][: 7 if state["g"] else 6])


def final(state, p):
    # (final, won): the recipe challenge's verdict; (score, None) without it.
    if not state["rc"]:
        return score(state, p), None
    return recipe_final(score(state, p), state["bo"][p], state["mu"][p], state["tg"])


def reduce(state, action):
    from potager.core.games import hortis_count

    return hortis_count.reduce(state, action)


def check(state):
    from potager.core.games import hortis_check

    hortis_check.check(state)
