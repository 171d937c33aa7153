"""Horticolor rule core: every rule and decision of docs/rules/horticolor.md."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from potager.core.games import horticolor as hc
from potager.core.games import horticolor_score as hs
from potager.core.games.horticolor_score import score


def player(name, card_points=24, synergy=5, earthworm=2, validated_cards=9):
    return {
        "name": name,
        "card_points": card_points,
        "synergy": synergy,
        "earthworm": earthworm,
        "validated_cards": validated_cards,
    }


def test_pairings_printed_example():
    assert hc.pairings([4, 6, 3, 5]) == [(10, 8), (7, 11), (9, 9)]
    assert [sorted(p) for p in hc.pairings((4, 6, 3, 5))] == [[8, 10], [7, 11], [9, 9]]


@given(st.lists(st.integers(1, 6), min_size=4, max_size=4))
def test_pairings_are_every_way_to_split_4_dice(dice):
    expected = set()
    for a, b in itertools.combinations(range(4), 2):
        c, d = (i for i in range(4) if i not in (a, b))
        expected.add(tuple(sorted((dice[a] + dice[b], dice[c] + dice[d]))))
    got = hc.pairings(dice)
    assert len(got) == 3
    assert {tuple(sorted(p)) for p in got} == expected
    assert all(sum(p) == sum(dice) for p in got)


def test_pairs_name_the_dice_of_each_mix():
    dice = [4, 6, 3, 5]
    for (a, b, c, d), mixes in zip(hc.PAIRS, hc.pairings(dice), strict=True):
        assert mixes == (dice[a] + dice[b], dice[c] + dice[d])
        assert sorted((a, b, c, d)) == [0, 1, 2, 3]


def test_receptacle_criteria():
    assert hs.meets(7, 7) and not hs.meets(8, 7)
    assert hs.meets(9, 8, hs.AT_LEAST) and hs.meets(8, 8, hs.AT_LEAST)
    assert not hs.meets(7, 8, hs.AT_LEAST)
    assert hs.meets(4, 5, hs.AT_MOST) and hs.meets(5, 5, hs.AT_MOST)
    assert not hs.meets(6, 5, hs.AT_MOST)


def test_compost_costs_combine():
    assert hs.compost_cost(ignore_colour=True) == 1
    assert hs.compost_cost(shift=-1) == 2
    assert hs.compost_cost(free_marbles=1) == 4
    assert hs.compost_cost(True, 1) == 3  # colour ignored + value +-1
    assert hs.compost_cost(shift=1, free_marbles=2) == 10  # the rulebook's 10
    assert hs.spend_compost(5, 4) == 1
    with pytest.raises(ValueError, match="not enough compost tokens: 2 held, 3 needed"):
        hs.spend_compost(2, 3)


def test_final_total_synergy_example():
    # an apple tree worth 6 with two matching symbols = 8
    assert hc.final_total(6, 2, 0) == 8
    assert hc.final_total(24, 5, 2) == 31


def test_score_spec_example():
    out = score({"players": [player("Zoé"), player("Max", 20, 3, 1, 7)]})
    assert out == {
        "players": [{"name": "Zoé", "total": 31}, {"name": "Max", "total": 24}],
        "winners": ["Zoé"],
    }


def test_tie_goes_to_fewer_validated_cards():
    out = score({"players": [player("A"), player("B", 25, 4, 2, 8), player("C", 31, 0, 0, 10)]})
    assert [p["total"] for p in out["players"]] == [31, 31, 31]
    assert out["winners"] == ["B"]


def test_still_tied_is_shared_in_input_order():
    out = score({"players": [player("Zed"), player("Ana"), player("Bob", 1, 0, 0, 1)]})
    assert out["winners"] == ["Zed", "Ana"]
    assert hc.winners(["a", "b"], [3, 3], [2, 2]) == ["a", "b"]


def test_nothing_validated_scores_nothing():
    out = score({"players": [player("A", 0, 0, 0, 0), player("B", 0, 0, 0, 0)]})
    assert out["winners"] == ["A", "B"]


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([player("A")], "players: must hold 2-4 players, got 1"),
        ([player(str(i)) for i in range(5)], "players: must hold 2-4 players, got 5"),
        ([player("A"), player("B", synergy=-1)], "players[1].synergy: must be an integer >= 0"),
        ([player("A"), player("B", card_points="3")], "players[1].card_points: must be an integer"),
        ([player("A"), player("B", earthworm=1.5)], "players[1].earthworm: must be an integer"),
        ([player("A"), player("B", earthworm=None)], "got null"),
        ([player("A", validated_cards=True), player("B")], "players[0].validated_cards:"),
        ([player("A", validated_cards=73), player("B")], "players[0].validated_cards: must be"),
        ([player("A", 1, 0, 0, 0), player("B")], "players[0].validated_cards: is 0, so"),
        ([player("A", 0, 0, 1, 0), player("B")], "players[0].validated_cards: is 0, so"),
        (
            [player("A", validated_cards=40), player("B", validated_cards=33)],
            "players: 73 validated cards in all, the game has 72",
        ),
        ([player("A"), player("A")], 'players[1].name: "A" is already used'),
        ([player("A"), {"name": "B"}], "players[1].card_points: missing"),
        ([player("A"), "B"], "players[1]: must be an object"),
    ],
)
def test_refusals(players, message):
    with pytest.raises(ValueError) as err:
        score({"players": players})
    assert message in str(err.value)


@pytest.mark.parametrize(
    "field", ["name", "card_points", "synergy", "earthworm", "validated_cards"]
)
def test_missing_fields(field):
    p = player("B")
    del p[field]
    with pytest.raises(ValueError, match=r"players\[1\]\." + field + ": missing"):
        score({"players": [player("A"), p]})


@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 20), st.integers(0, 10), st.integers(1, 18)),
        min_size=2,
        max_size=4,
    )
)
def test_winners_property(rows):
    out = score({"players": [player("p" + str(i), *r) for i, r in enumerate(rows)]})
    totals = [p["total"] for p in out["players"]]
    assert all(t >= 0 for t in totals)
    best = max((t, -r[3]) for t, r in zip(totals, rows, strict=True))
    expected = ["p" + str(i) for i, r in enumerate(rows) if (totals[i], -r[3]) == best]
    assert out["winners"] == expected
