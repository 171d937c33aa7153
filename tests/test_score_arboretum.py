"""Arboretum rule core: right to score, paths, the rulebook's example (rules/arboretum.md)."""

import contextlib
import itertools
import json
import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from potager.core.games import arboretum_score as ar

GOLDEN = Path(__file__).parent / "golden" / "score"


def layout(*rows):
    """{(x, y): card} from (card, x, y) triples."""
    return {(x, y): c for c, x, y in rows}


def arb(*rows):
    return [{"card": c, "x": x, "y": y} for c, x, y in rows]


def clark_game():
    return json.loads((GOLDEN / "arboretum-rulebook-clark.json").read_text("utf-8"))["input"]


# --- cards ------------------------------------------------------------------------------


def test_parse_card():
    assert ar.parse_card("oak3") == ("oak", 3)
    assert ar.parse_card("royal-poinciana8") == ("royal-poinciana", 8)
    assert ar.parse_card("a7") == ("a", 7)
    assert ar.parse_card("blue_spruce1") == ("blue_spruce", 1)
    assert ar.parse_card(("oak", 3)) == ("oak", 3)


@pytest.mark.parametrize(
    "card", ["oak", "oak0", "oak9", "oak10", "Oak3", "8", "-a3", "o k3", "oak3 ", "chêne3", 3, None]
)
def test_bad_cards(card):
    with pytest.raises(ValueError, match="must be a card"):
        ar.parse_card(card)


# --- right to score ---------------------------------------------------------------------

# The rulebook example's hands (Clark, Jonathan, Martha), species by species.
HANDS = {
    "jacaranda": [[7], [2, 5], []],
    "lilac": [[6, 7], [4, 5], []],
    "oak": [[3, 8], [], [2, 7]],
    "royal-poinciana": [[1, 5], [3], [8]],
    "willow": [[], [7], [1, 3, 8]],
    "cassia": [[], [6], [5]],
}


@pytest.mark.parametrize(
    ("species", "values", "rights"),
    [
        ("jacaranda", [7, 7, 0], [True, True, False]),  # tie: both score
        ("lilac", [13, 9, 0], [True, False, False]),
        ("oak", [11, 0, 9], [True, False, False]),
        ("royal-poinciana", [6, 3, 0], [True, False, False]),  # Martha's 8 counts 0
        ("willow", [0, 7, 12], [False, False, True]),  # Martha holds 1 and 8 herself
        ("cassia", [0, 6, 5], [False, True, False]),
    ],
)
def test_rulebook_rights(species, values, rights):
    assert ar.hand_values(HANDS[species]) == values
    assert ar.may_score(HANDS[species]) == rights


def test_nobody_holds_everybody_scores():
    assert ar.may_score([[], [], []]) == [True, True, True]
    assert ar.hand_values([[], []]) == [0, 0]


def test_one_against_eight_both_ways():
    assert ar.hand_values([[8], [1]]) == [0, 1]
    assert ar.may_score([[8], [1]]) == [False, True]
    assert ar.hand_values([[1], [8]]) == [1, 0]
    assert ar.may_score([[1], [8]]) == [True, False]
    assert ar.hand_values([[2, 8], [1], []]) == [2, 1, 0]


def test_holding_one_and_eight_yourself_counts_eight():
    assert ar.hand_values([[1, 8], [7]]) == [9, 7]
    assert ar.may_score([[1, 8], [7]]) == [True, False]
    assert ar.hand_values([[1, 8], []]) == [9, 0]


def test_eight_without_anyone_holding_the_one():
    assert ar.hand_values([[8], [2, 3]]) == [8, 5]


def test_everybody_tied():
    assert ar.may_score([[4], [1, 3], [2]]) == [True, True, False]
    assert ar.may_score([[4], [1, 3], [4]]) == [True, True, True]


# --- path scores ------------------------------------------------------------------------


def test_path_score_rules():
    perfect = ["oak" + str(v) for v in range(1, 9)]
    assert ar.path_score(perfect) == 8 + 8 + 1 + 2  # 19
    assert ar.path_score(["oak1", "oak4", "oak5", "oak6"]) == 4 + 4 + 1  # Clark's Oak: 9
    assert ar.path_score(["jacaranda3", "oak4", "oak5", "oak6", "jacaranda8"]) == 5 + 2  # 7
    assert ar.path_score(["oak2", "oak5", "oak7"]) == 3  # 3 cards of one species: not doubled
    assert ar.path_score(["oak2", "elm3", "elm4", "oak5"]) == 4  # mixed 4 cards: not doubled
    assert ar.path_score(["oak2", "oak3", "oak4", "oak5"]) == 8
    assert ar.path_score(["oak1", "elm2"] + ["oak8"]) == 3 + 1 + 2  # bonuses never doubled
    assert ar.path_score([("oak", 1), ("oak", 8)]) == 2 + 1 + 2


@pytest.mark.parametrize(
    "cards",
    [
        ["oak3"],  # a single card is no path
        [],
        ["oak3", "elm5"],  # ends with another species
        ["elm1", "oak3", "oak5"],  # starts with another species
        ["oak3", "oak3"],
        ["oak5", "oak3"],  # values must rise
        ["oak2", "elm4", "elm4", "oak6"],
    ],
)
def test_not_paths(cards):
    with pytest.raises(ValueError, match="path"):
        ar.path_score(cards)


# --- best path --------------------------------------------------------------------------


def test_best_path_example_oak():
    lay = layout(("oak1", 0, 0), ("oak4", 1, 0), ("oak5", 2, 0), ("oak6", 3, 0))
    assert ar.best_path(lay, "oak") == (9, ["oak1", "oak4", "oak5", "oak6"])


def test_best_path_none():
    assert ar.best_path({}, "oak") == (0, None)
    assert ar.best_path(layout(("oak3", 0, 0)), "oak") == (0, None)  # single card
    assert ar.best_path(layout(("oak3", 0, 0), ("elm5", 1, 0)), "oak") == (0, None)
    # falling values or a gap in the adjacency: no path
    assert ar.best_path(layout(("oak5", 0, 0), ("oak3", 1, 0)), "oak") == (2, ["oak3", "oak5"])
    assert ar.best_path(layout(("oak3", 0, 0), ("elm1", 1, 0), ("oak5", 2, 0)), "oak") == (0, None)
    # diagonal is not adjacent
    assert ar.best_path(layout(("oak3", 0, 0), ("elm1", 1, 0), ("oak5", 1, 1)), "oak") == (0, None)


def test_best_path_ends_must_be_the_species():
    # elm2-oak3-oak5-elm7: for oak only oak3-oak5 counts; for elm the whole chain
    lay = layout(("elm2", 0, 0), ("oak3", 1, 0), ("oak5", 2, 0), ("elm7", 3, 0))
    assert ar.best_path(lay, "oak") == (2, ["oak3", "oak5"])
    assert ar.best_path(lay, "elm") == (4, ["elm2", "oak3", "oak5", "elm7"])


def test_best_path_prefers_a_pure_long_path():
    # oak1-oak2-oak3-oak4 pure (4+4+1 = 9) beats oak1-elm2-... longer mixed chains
    lay = layout(
        ("oak1", 0, 0),
        ("oak2", 1, 0),
        ("oak3", 2, 0),
        ("oak4", 3, 0),
        ("elm2", 0, 1),
        ("elm3", 1, 1),
        ("elm4", 2, 1),
        ("elm5", 3, 1),
        ("oak6", 4, 1),
    )
    assert ar.best_path(lay, "oak") == (9, ["oak1", "oak2", "oak3", "oak4"])
    # oak5 between oak4 and oak6: a pure 6-card path, 6 + 6 + 1
    lay[(4, 0)] = "oak5"
    assert ar.best_path(lay, "oak") == (13, ["oak1", "oak2", "oak3", "oak4", "oak5", "oak6"])
    # oak6 becomes elm6: oak1..oak5 pure (5 + 5 + 1) beats the 6-card mixed oak1-elm2..elm5-oak6
    lay[(4, 1)] = "elm6"
    lay[(5, 1)] = "oak7"
    assert ar.best_path(lay, "oak") == (11, ["oak1", "oak2", "oak3", "oak4", "oak5"])


def test_a_card_serves_several_species():
    lay = layout(("oak1", 0, 0), ("elm2", 1, 0), ("oak3", 2, 0), ("elm4", 3, 0))
    assert ar.best_path(lay, "oak") == (4, ["oak1", "elm2", "oak3"])
    assert ar.best_path(lay, "elm") == (3, ["elm2", "oak3", "elm4"])


def test_best_path_keeps_the_callers_card_objects():
    lay = {(0, 0): ("oak", 1), (0, 1): ("oak", 8)}
    assert ar.best_path(lay, "oak") == (5, [("oak", 1), ("oak", 8)])


def test_connected():
    assert ar.connected([]) is None
    assert ar.connected([(0, 0), (0, 1), (1, 1)]) is None
    assert ar.connected([(0, 0), (1, 1)]) == (1, 1)


# --- the rulebook example ---------------------------------------------------------------


def test_rulebook_example_clark_scores_19():
    out = ar.score(clark_game())
    clark, jonathan, martha = out["players"]
    assert clark["name"] == "Clark"
    sp = clark["species"]
    assert (sp["oak"]["score"], sp["jacaranda"]["score"], sp["royal-poinciana"]["score"]) == (
        9,
        7,
        3,
    )
    assert sp["oak"]["path"] == ["oak1", "oak4", "oak5", "oak6"]
    assert len(sp["jacaranda"]["path"]) == 5 and sp["jacaranda"]["path"][-1] == "jacaranda8"
    assert len(sp["royal-poinciana"]["path"]) == 3
    assert sp["lilac"] == {"hand_value": 13, "may_score": True, "score": 0, "path": None}
    assert clark["total"] == 19
    # Lilac: Clark has no path but still blocks Jonathan
    assert jonathan["species"]["lilac"]["may_score"] is False
    assert jonathan["species"]["jacaranda"]["may_score"] is True  # the 7 = 7 tie
    assert martha["species"]["royal-poinciana"]["hand_value"] == 0  # her 8 against Clark's 1
    assert clark["species"]["royal-poinciana"]["hand_value"] == 6
    assert martha["species"]["willow"] == {
        "hand_value": 12,
        "may_score": True,
        "score": 8,
        "path": ["willow2", "willow4", "willow5", "willow6"],
    }
    # nobody holds dogwood or maple: everyone may score them
    for p in out["players"]:
        assert p["species"]["dogwood"]["may_score"] and p["species"]["maple"]["may_score"]
        assert set(p["species"]) == {
            "cassia",
            "dogwood",
            "jacaranda",
            "lilac",
            "maple",
            "oak",
            "royal-poinciana",
            "willow",
        }
    assert out["winners"] == ["Clark"]


def two_players(a_hand, a_arb, b_hand, b_arb, **top):
    data = {
        "players": [
            {"name": "Ann", "hand": a_hand, "arboretum": arb(*a_arb)},
            {"name": "Ben", "hand": b_hand, "arboretum": arb(*b_arb)},
        ]
    }
    data.update(top)
    return data


def test_blocking_with_no_path():
    # Ann holds more oak but has no oak path: nobody scores oak
    data = two_players(["oak7"], [("oak1", 0, 0)], ["oak2"], [("oak3", 0, 0), ("oak4", 1, 0)])
    out = ar.score(data)
    assert [p["species"]["oak"]["score"] for p in out["players"]] == [0, 0]
    assert out["players"][1]["species"]["oak"]["may_score"] is False
    assert out["players"][0]["species"]["oak"]["may_score"] is True
    assert out["winners"] == ["Ann", "Ben"]  # 0 = 0 and one species each: shared


def test_winner_tie_breaks_on_species_in_arboretum():
    # both score 2 (nobody holds), Ben has 2 species in his arboretum
    data = two_players(
        [], [("oak3", 0, 0), ("oak4", 1, 0)], [], [("elm3", 0, 0), ("elm4", 1, 0), ("ash2", 0, 1)]
    )
    out = ar.score(data)
    assert [p["total"] for p in out["players"]] == [2, 2]
    assert [p["species_in_arboretum"] for p in out["players"]] == [1, 2]
    assert out["winners"] == ["Ben"]
    data["players"][0]["arboretum"] += arb(("ash5", 0, 1))
    out = ar.score(data)
    assert [p["total"] for p in out["players"]] == [2, 2]
    assert out["winners"] == ["Ann", "Ben"]


def test_one_against_eight_in_score():
    data = two_players(
        ["oak8"],
        [("oak2", 0, 0), ("oak5", 1, 0)],
        ["oak1"],
        [("oak3", 0, 0), ("oak4", 1, 0)],
    )
    out = ar.score(data)
    ann, ben = out["players"]
    assert (ann["species"]["oak"]["hand_value"], ben["species"]["oak"]["hand_value"]) == (0, 1)
    assert (ann["species"]["oak"]["score"], ben["species"]["oak"]["score"]) == (0, 2)


def test_species_in_play_default_and_explicit():
    data = two_players(["elm1"], [("oak3", 0, 0)], [], [("ash3", 0, 0)])
    assert set(ar.score(data)["players"][0]["species"]) == {"ash", "elm", "oak"}
    data["species"] = ["ash", "elm", "oak", "yew"]
    out = ar.score(data)
    assert out["players"][1]["species"]["yew"] == {
        "hand_value": 0,
        "may_score": True,
        "score": 0,
        "path": None,
    }


# --- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            two_players([], [("oak1", 0, 0), ("oak2", 0, 0)], [], []),
            "players[0].arboretum[1]: square (0, 0) already holds oak1",
        ),
        (
            two_players(["oak1"], [("oak1", 0, 0)], [], []),
            "players[0].arboretum[0].card: card oak1 appears twice (also at players[0].hand[0])",
        ),
        (
            two_players([], [("oak1", 0, 0)], ["oak1"], []),
            "players[1].hand[0]: card oak1 appears twice (also at players[0].arboretum[0].card)",
        ),
        (
            two_players([], [("oak1", 0, 0), ("oak2", 2, 0)], [], []),
            "players[0].arboretum: not orthogonally connected: oak2 at (2, 0) is cut off",
        ),
        (
            two_players([], [("oak1", 0, 0), ("oak2", 1, 1)], [], []),
            "players[0].arboretum: not orthogonally connected",
        ),
        (
            two_players(["s" + c + "1" for c in "abcdefghijk"], [], [], []),
            "species: 11 species in play, at most 10",
        ),
        (
            two_players([], [], [], [], species=["s" + c for c in "abcdefghijk"]),
            "species: must hold 0-10 species, got 11",
        ),
        (two_players(["oak9"], [], [], []), 'players[0].hand[0]: must be a card, got "oak9"'),
        (two_players([3], [], [], []), "players[0].hand[0]: must be a card, got 3"),
        (two_players("oak3", [], [], []), "players[0].hand: must be a list"),
        (
            two_players([], [("oak3", 0.0, 0)], [], []),
            "players[0].arboretum[0].x: must be an integer",
        ),
        (
            two_players([], [("oak3", 0, True)], [], []),
            "players[0].arboretum[0].y: must be an integer",
        ),
        (two_players([], [(None, 0, 0)], [], []), "players[0].arboretum[0].card: must be a card"),
        (
            two_players(["elm3"], [], [], [], species=["oak"]),
            'players[0].hand[0]: species "elm" is not in play',
        ),
        (two_players([], [], [], [], species=["oak", "oak"]), 'species[1]: "oak" is listed twice'),
        (two_players([], [], [], [], species=["Oak"]), "species[0]: must be a species name"),
        (two_players([], [], [], [], species="oak"), "species: must be a list"),
        (
            {"players": [{"name": "A", "hand": [], "arboretum": []}]},
            "players: must hold 2-4 players",
        ),
        (
            {"players": [{"name": str(i), "hand": [], "arboretum": []} for i in range(5)]},
            "players: must hold 2-4 players, got 5",
        ),
        ({"players": [{"name": "A", "hand": []}, {"name": "B"}]}, "players[0].arboretum: missing"),
        ({"players": [{"name": "A", "arboretum": []}, {"name": "B"}]}, "players[0].hand: missing"),
        (
            {
                "players": [
                    {"name": "A", "hand": [], "arboretum": [{"card": "oak1", "x": 0}]},
                    {"name": "B"},
                ]
            },
            "players[0].arboretum[0].y: missing",
        ),
        (
            {"players": [{"name": "A", "hand": [], "arboretum": ["oak1"]}, {"name": "B"}]},
            "players[0].arboretum[0]: must be an object",
        ),
    ],
)
def test_refusals(data, message):
    with pytest.raises(ValueError) as err:
        ar.score(data)
    assert message in str(err.value)


# --- properties -------------------------------------------------------------------------


def brute_best(lay, species):
    """The best path score by trying every simple chain of adjacent squares."""
    best = 0

    def extend(chain):
        nonlocal best
        cards = [lay[p] for p in chain]
        if ar.parse_card(cards[0])[0] == species:
            with contextlib.suppress(ValueError):
                best = max(best, ar.path_score(cards))
        x, y = chain[-1]
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in lay and n not in chain:
                extend([*chain, n])

    for p in lay:
        extend([p])
    return best


@st.composite
def layouts(draw):
    n = draw(st.integers(1, 8))
    pool = [s + str(v) for s in ("a", "b", "c") for v in range(1, 9)]
    cards = draw(st.permutations(pool))[:n]
    squares = [(0, 0)]
    while len(squares) < n:
        x, y = draw(st.sampled_from(squares))
        dx, dy = draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]))
        if (x + dx, y + dy) not in squares:
            squares.append((x + dx, y + dy))
    return dict(zip(squares, cards, strict=True))


@settings(max_examples=300, deadline=None)
@given(layouts(), st.sampled_from(["a", "b", "c"]))
def test_best_path_matches_brute_force(lay, species):
    score, path = ar.best_path(lay, species)
    assert score == brute_best(lay, species)
    if path is None:
        assert score == 0
    else:
        assert ar.path_score(path) == score
        squares = {c: p for p, c in lay.items()}
        for a, b in itertools.pairwise(path):
            (ax, ay), (bx, by) = squares[a], squares[b]
            assert abs(ax - bx) + abs(ay - by) == 1


@st.composite
def games(draw):
    """2-4 players sharing the 24 cards of species a, b, c: a connected arboretum and a hand
    each, no card twice."""
    deck = list(draw(st.permutations([s + str(v) for s in "abc" for v in range(1, 9)])))
    players = []
    for i in range(draw(st.integers(2, 4))):
        n = draw(st.integers(0, min(5, len(deck))))
        cards, deck = deck[:n], deck[n:]
        squares = [(0, 0)]
        while len(squares) < n:
            x, y = draw(st.sampled_from(squares))
            dx, dy = draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1)]))
            if (x + dx, y + dy) not in squares:
                squares.append((x + dx, y + dy))
        k = draw(st.integers(0, min(3, len(deck))))
        hand, deck = deck[:k], deck[k:]
        rows = [{"card": c, "x": x, "y": y} for c, (x, y) in zip(cards, squares, strict=False)]
        players.append({"name": "p" + str(i), "hand": hand, "arboretum": rows})
    return {"players": players}


@settings(max_examples=100, deadline=None)
@given(games())
def test_score_properties(data):
    out = ar.score(data)
    for p, given_p in zip(out["players"], data["players"], strict=True):
        assert p["total"] == sum(s["score"] for s in p["species"].values()) >= 0
        lay = {(r["x"], r["y"]): r["card"] for r in given_p["arboretum"]}
        for sp, s in p["species"].items():
            assert (s["path"] is None) == (s["score"] == 0)
            if s["may_score"]:
                assert s["score"] == ar.best_path(lay, sp)[0]
            else:
                assert s["score"] == 0
    for sp in {c[:-1] for p in data["players"] for c in p["hand"]}:
        rights = [p["species"][sp]["may_score"] for p in out["players"]]
        values = [p["species"][sp]["hand_value"] for p in out["players"]]
        assert any(rights)
        assert rights == [v == max(values) for v in values]
    totals = [(p["total"], p["species_in_arboretum"]) for p in out["players"]]
    assert out["winners"] == [
        p["name"] for p, t in zip(out["players"], totals, strict=True) if t == max(totals)
    ]


def test_dense_four_player_end_state_is_fast():
    species = ["sp" + c for c in "abcdefghij"]
    rnd = random.Random(7)
    worst = 0.0
    for trial in range(20):
        deck = [s + str(v) for s in species for v in range(1, 9)]
        rnd.shuffle(deck)
        hands = [deck[i * 7 : i * 7 + 7] for i in range(4)]
        rest = deck[28:]
        # one crowded arboretum with rising diagonals, the others share what is left
        rest.sort(key=lambda c: int(c[-1]))
        players = []
        for i in range(4):
            share = rest[i::4] if trial % 2 else (rest if i == 0 else [])
            share = sorted(share, key=lambda c: int(c[-1]) + rnd.random())
            w = 6
            rows = [{"card": c, "x": k % w, "y": k // w} for k, c in enumerate(share)]
            players.append({"name": "p" + str(i), "hand": hands[i], "arboretum": rows})
        data = {"players": players}
        t = time.perf_counter()
        ar.score(data)
        worst = max(worst, time.perf_counter() - t)
    assert worst < 0.5
