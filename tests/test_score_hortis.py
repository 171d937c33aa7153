"""HORTIS Automne (Forage) and HORTIS (Grove) rule core: docs/rules/hortis.md."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from potager.core.games import hortis as h
from potager.core.games import hortis_score as hs

AUTOMNE = {
    "dice": {"1": 1, "3": 2, "6": 2, "10": 1, "15": 1},
    "split_zone_dice": 1,
    "mouse_face_dice": 2,
    "mouse_pawn": True,
}
GROVE = {
    "dice": {"2": 1, "3": 0, "4": 2, "5": 1, "6": 1, "10": 2},
    "wheelbarrow": True,
    "squirrel": True,
    "squirrel_adjacent_dice": 2,
}


def with_(base, **changes):
    d = dict(base)
    d.update(changes)
    return d


# --- bands ------------------------------------------------------------------------------

AUTOMNE_EDGES = [
    (-20, None, 29, "Vous foncez droit dans la Mûre…"),
    (29, None, 29, "Vous foncez droit dans la Mûre…"),
    (30, 30, 34, "Vous Forêt mieux la prochaine fois."),
    (34, 30, 34, "Vous Forêt mieux la prochaine fois."),
    (35, 35, 39, "Appuyez sur le Champignon."),
    (39, 35, 39, "Appuyez sur le Champignon."),
    (40, 40, 44, "Vous Châtaignez votre but !"),
    (44, 40, 44, "Vous Châtaignez votre but !"),
    (45, 45, 49, "La victoire vous Souris !"),
    (49, 45, 49, "La victoire vous Souris !"),
    (50, 50, None, "Bravo ! Vous êtes im-Baie-ttable !!!"),
    (150, 50, None, "Bravo ! Vous êtes im-Baie-ttable !!!"),
]


@pytest.mark.parametrize(("score", "lo", "hi", "title"), AUTOMNE_EDGES)
def test_automne_band_boundaries(score, lo, hi, title):
    b = h.band("automne", score)
    assert (b["min"], b["max"], b["title_fr"]) == (lo, hi, title)
    assert h.band("hortis-automne", score) == b


GROVE_EDGES = [
    (0, None, 39, "Pith-iful"),
    (39, None, 39, "Pith-iful"),
    (40, 40, 44, "You need a pip talk"),
    (44, 40, 44, "You need a pip talk"),
    (45, 45, 49, "Juiced enough"),
    (49, 45, 49, "Juiced enough"),
    (50, 50, 54, "Jaffa-bulous"),
    (54, 50, 54, "Jaffa-bulous"),
    (55, 55, 59, "Sub-lime"),
    (59, 55, 59, "Sub-lime"),
    (60, 60, None, "You're the zest!"),
    (165, 60, None, "You're the zest!"),
]


@pytest.mark.parametrize(("score", "lo", "hi", "title"), GROVE_EDGES)
def test_grove_band_boundaries(score, lo, hi, title):
    b = h.band(1, score)
    assert (b["min"], b["max"], b["title_en"]) == (lo, hi, title)
    assert h.band("hortis", score) == b
    assert b["title_fr"]


def test_band_tables_are_complete_and_contiguous():
    for g in (0, 1):
        bounds = h.BANDS[3 * g]
        assert list(bounds) == sorted(set(bounds)) and len(bounds) == 5
        assert len(h.BANDS[3 * g + 1]) == len(h.BANDS[3 * g + 2]) == 6
        bands = [h.band(g, s) for s in range(-20, 120)]
        for lower, upper in itertools.pairwise(bands):
            if lower != upper:
                assert upper["min"] == lower["max"] + 1
        assert bands[0]["min"] is None and bands[-1]["max"] is None
        assert all(b["title_fr"] and b["title_en"] for b in bands)
    assert [h.band(0, s)["title_en"] for s in (0, 30, 35, 40, 45, 50)] == [
        "Straight into the brambles…",
        "You'll forage better next time.",
        "Step on the mushroom.",
        "You nut-ed your goal!",
        "Victory smiles (mice) at you!",
        "Bravo! You're un-berry-able!!!",
    ]


# --- dice -------------------------------------------------------------------------------


def test_automne_upgrades():
    assert [hs.automne_upgrade(f) for f in (1, 3, 6, 10, 15)] == [3, 6, 10, 15, 15]


def test_grove_growth():
    assert hs.grove_grow(0, 2) == 2  # a new die shows the fruit of both trees
    assert hs.grove_grow(0, 4) == 4
    assert hs.grove_grow(3, 3) == 6
    assert hs.grove_grow(4, 3) == 10  # above 6: basket
    assert hs.grove_grow(10, 1) == 15  # a basket grown again: wheelbarrow
    assert hs.grove_grow(15, 2) == 15


def test_automne_score_formula():
    # faces 1+3+3+6+6+10+15 = 44, -1 split, -2x2 mouse faces, -5 pawn
    assert h.automne_score([1, 2, 2, 1, 1], 1, 2, True) == 34
    assert h.automne_score([0, 0, 0, 0, 0]) == 0
    assert h.automne_score([0, 0, 0, 0, 0], 0, 1) == -2
    assert h.automne_score([0, 0, 0, 0, 0], 1, 1) == -3  # a mouse face on a split zone: both


def test_grove_score_formula():
    assert h.grove_score([1, 0, 2, 1, 1, 2], True, True, 2) == 53
    assert h.grove_score([0, 0, 0, 0, 0, 0], squirrel=True) == -1
    assert h.grove_score([0, 0, 0, 0, 0, 1], squirrel=True, near=4) == 5


# --- recipe -----------------------------------------------------------------------------


def test_recipe_verdict():
    assert h.recipe_final(34, 5, 1, 45) == (39, False)
    assert h.recipe_final(40, 5, 1, 45) == (45, True)  # equal to the target wins
    assert h.recipe_final(20, 2, 2, 45) == (44, False)
    assert h.recipe_final(20, 3, 2, 45) == (46, True)  # bonuses before multipliers


# --- score_automne / score_grove ---------------------------------------------------------


def test_score_automne_spec_example():
    out = hs.score_automne(with_(AUTOMNE, recipes={"target": 45, "bonus": 5, "multiplier": 1}))
    assert out == {
        "score": 34,
        "dice_used": 9,
        "band": {
            "min": 30,
            "max": 34,
            "title_fr": "Vous Forêt mieux la prochaine fois.",
            "title_en": "You'll forage better next time.",
        },
        "recipe": {"final": 39, "target": 45, "won": False},
    }
    assert "recipe" not in hs.score_automne(AUTOMNE)


def test_recipe_bonus_and_multiplier_default():
    out = hs.score_automne(with_(AUTOMNE, recipes={"target": 34}))
    assert out["recipe"] == {"final": 34, "target": 34, "won": True}


def test_missing_faces_count_zero():
    out = hs.score_automne(with_(AUTOMNE, dice={"15": 3}, mouse_face_dice=0, split_zone_dice=0))
    assert out["score"] == 45 - 5
    assert out["dice_used"] == 3


def test_score_grove_spec_example():
    out = hs.score_grove(GROVE)
    assert out["score"] == 53
    assert out["dice_used"] == 7
    assert (out["band"]["min"], out["band"]["max"], out["band"]["title_en"]) == (
        50,
        54,
        "Jaffa-bulous",
    )


def test_grove_squirrel_adjacent_is_optional():
    out = hs.score_grove(with_(GROVE, squirrel_adjacent_dice=0))
    assert out["score"] == 55
    g = dict(GROVE, squirrel=False)
    del g["squirrel_adjacent_dice"]
    assert hs.score_grove(g)["score"] == 56


def test_grove_glade_dice_count_as_used_not_scored():
    out = hs.score_grove(with_(GROVE, glade_dice=3))
    assert (out["score"], out["dice_used"]) == (53, 10)


def test_multiplayer_tie_goes_to_most_dice():
    a = with_(AUTOMNE, name="Ann")  # 34 with 9 dice
    b = with_(AUTOMNE, name="Bea", dice={"15": 2, "6": 1}, mouse_face_dice=0)  # 36 - 1 - 5 = 30
    c = with_(AUTOMNE, name="Cat", dice={"10": 3, "6": 1, "1": 3}, mouse_face_dice=0)  # 39 - 6
    d = with_(AUTOMNE, name="Dan", dice={"15": 2, "3": 1, "1": 2}, mouse_face_dice=0)  # 35 - 6
    out = hs.score_automne({"players": [a, b, c, d]})
    assert [p["score"] for p in out["players"]] == [34, 30, 33, 29]
    assert out["winners"] == ["Ann"]
    e = with_(AUTOMNE, name="Eve", dice={"15": 2, "6": 1}, mouse_face_dice=0, split_zone_dice=0)
    e["mouse_pawn"] = False
    out = hs.score_automne({"players": [e, a]})  # 36 with 3 dice vs 34 with 9
    assert out["winners"] == ["Eve"]
    f = with_(AUTOMNE, name="Fay", dice={"15": 2, "10": 1}, mouse_face_dice=0)  # 40-6 = 34, 3 dice
    out = hs.score_automne({"players": [f, a]})
    assert out["winners"] == ["Ann"]  # mouse-face dice count as used
    out = hs.score_automne({"players": [with_(a, name="X"), a]})
    assert out["winners"] == ["X", "Ann"]
    assert set(out["players"][0]) >= {"name", "score", "dice_used", "band"}


def test_multiplayer_grove():
    out = hs.score_grove(
        {"players": [with_(GROVE, name="A"), with_(GROVE, name="B", glade_dice=1)]}
    )
    assert out["winners"] == ["B"]


def test_multiplayer_recipes_rank_by_final():
    r = {"target": 45, "bonus": 0, "multiplier": 1}
    a = with_(AUTOMNE, name="A", recipes=r)  # 34
    b = with_(AUTOMNE, name="B", recipes=dict(r, multiplier=2), dice={"15": 1, "6": 1})  # 21-10
    out = hs.score_automne({"players": [a, b]})
    assert [p["score"] for p in out["players"]] == [34, 11]
    assert [p["recipe"]["final"] for p in out["players"]] == [34, 22]
    assert out["winners"] == ["A"]
    b["recipes"] = dict(r, bonus=6, multiplier=2)  # (11 + 6) x 2 = 34: tie, A used more dice
    assert hs.score_automne({"players": [a, b]})["winners"] == ["A"]
    b["recipes"] = dict(r, bonus=7, multiplier=2)  # 36
    out = hs.score_automne({"players": [a, b]})
    assert out["winners"] == ["B"]
    assert out["players"][1]["recipe"] == {"final": 36, "target": 45, "won": False}


def refused(fn, data, message):
    with pytest.raises(ValueError) as err:
        fn(data)
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dice": {"2": 1}}, "dice.2: not a die face (faces: 1, 3, 6, 10, 15)"),
        ({"dice": {"15": 14}}, "dice: 16 dice in all with mouse_face_dice, the game has 15"),
        ({"dice": {"3": 16}}, "dice.3: must be an integer 0-15, got 16"),
        ({"dice": {"3": -1}}, "dice.3: must be an integer 0-15"),
        ({"dice": {"3": True}}, "dice.3: must be an integer 0-15, got true"),
        ({"dice": [1, 3]}, "dice: must be an object, got a list"),
        ({"split_zone_dice": 10}, "split_zone_dice: 10 dice on split zones but only 9 dice"),
        ({"mouse_face_dice": "2"}, 'mouse_face_dice: must be an integer 0-15, got "2"'),
        ({"mouse_pawn": 1}, "mouse_pawn: must be true or false, got 1"),
        ({"recipes": {"bonus": 5}}, "recipes.target: missing"),
        (
            {"recipes": {"target": 45, "multiplier": 0}},
            "recipes.multiplier: must be an integer >= 1",
        ),
        ({"recipes": {"target": 45, "bonus": -1}}, "recipes.bonus: must be an integer >= 0"),
        ({"recipes": 45}, "recipes: must be an object"),
    ],
)
def test_automne_refusals(changes, message):
    refused(hs.score_automne, with_(AUTOMNE, **changes), message)


@pytest.mark.parametrize("field", ["dice", "split_zone_dice", "mouse_face_dice", "mouse_pawn"])
def test_automne_missing(field):
    d = dict(AUTOMNE)
    del d[field]
    refused(hs.score_automne, d, field + ": missing")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dice": {"1": 1}}, "dice.1: not a die face (faces: 2, 3, 4, 5, 6, 10)"),
        ({"dice": {"15": 1}}, "dice.15: not a die face"),
        ({"dice": {"10": 16}}, "dice.10: must be an integer 0-15"),
        ({"dice": {"10": 8, "2": 8}}, "dice: 16 dice in all"),
        ({"glade_dice": 9}, "dice: 16 dice in all with glade_dice"),
        ({"squirrel_adjacent_dice": 5}, "squirrel_adjacent_dice: must be an integer 0-4"),
        ({"squirrel": False}, "squirrel_adjacent_dice: must be 0 (or left out) when the squirrel"),
        (
            {"dice": {"10": 1}, "squirrel_adjacent_dice": 2},
            "squirrel_adjacent_dice: 2 dice next to the squirrel but only 1 scoring dice",
        ),
        ({"wheelbarrow": "yes"}, "wheelbarrow: must be true or false"),
    ],
)
def test_grove_refusals(changes, message):
    refused(hs.score_grove, with_(GROVE, **changes), message)


@pytest.mark.parametrize("field", ["dice", "wheelbarrow", "squirrel"])
def test_grove_missing(field):
    d = dict(GROVE)
    del d[field]
    refused(hs.score_grove, d, field + ": missing")


def test_multiplayer_refusals():
    refused(hs.score_automne, {"players": []}, "players: must hold >= 1 players, got 0")
    refused(hs.score_automne, {"players": [AUTOMNE]}, "players[0].name: missing")
    a = with_(AUTOMNE, name="A")
    refused(
        hs.score_automne,
        {"players": [a, with_(a, name="B", dice={"2": 1})]},
        "players[1].dice.2: not a die face",
    )
    refused(
        hs.score_automne,
        {"players": [a, with_(a, name="B", recipes={"target": 3})]},
        "players[1].recipes: give recipes for every player or for none",
    )
    ra = with_(a, recipes={"target": 40})
    refused(
        hs.score_automne,
        {"players": [ra, with_(a, name="B", recipes={"target": 41})]},
        "players[1].recipes.target: every player sets aside the same 2 recipes",
    )
    refused(
        hs.score_grove, {"players": [with_(GROVE, name="A"), with_(GROVE, name="A")]}, "already"
    )


@given(
    st.lists(st.integers(0, 15), min_size=5, max_size=5),
    st.integers(0, 15),
    st.integers(0, 15),
    st.booleans(),
)
def test_automne_score_is_bounded(counts, mouse, split, pawn):
    data = {
        "dice": {str(f): n for f, n in zip(h.AUTOMNE_FACES, counts, strict=True)},
        "mouse_face_dice": mouse,
        "split_zone_dice": split,
        "mouse_pawn": pawn,
    }
    used = sum(counts) + mouse
    if used > 15 or split > used:
        with pytest.raises(ValueError):
            hs.score_automne(data)
        return
    out = hs.score_automne(data)
    assert out["dice_used"] == used
    assert -3 * 15 - 5 <= out["score"] <= 15 * 15
    assert out["band"] == h.band("automne", out["score"])
