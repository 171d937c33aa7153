"""Diced Tomatoes rule core: every rule and decision of docs/rules/diced-tomatoes.md."""

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from potager.core.games import diced_tomatoes_score as dt
from potager.core.games.diced_tomatoes_score import score


def player(name="Ana", harvests=(6, 2, 3, 5, 5, 4), karma=5, dice=2, trig=False, **extra):
    p = {
        "name": name,
        "harvests": list(harvests),
        "karma": karma,
        "dice_on_vines": dice,
        "triggered_end": trig,
    }
    p.update(extra)
    return p


def game(*players, **top):
    data = {"players": list(players)}
    data.update(top)
    return data


def two(**top):
    return game(player(trig=True), player("Bo", (4, 4, 1, 6, 2), 3, 7), **top)


# --- small rule functions -------------------------------------------------------------


@pytest.mark.parametrize(("value", "gain"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_karma_gain_table(value, gain):
    assert dt.karma_gain(value) == gain


@pytest.mark.parametrize("value", [1, 2, 3, 4, 5, 6])
def test_karma_overdose_gains_the_value(value):
    assert dt.karma_gain(value, overdose=True) == value


@pytest.mark.parametrize("value", [0, 7, -1, True, "3", 2.0])
def test_karma_gain_refuses_non_harvest_values(value):
    with pytest.raises(ValueError, match="value"):
        dt.karma_gain(value)


def test_karma_caps_at_12_in_own_turn_and_6_otherwise():
    assert dt.karma_add(5, 3) == 6
    assert dt.karma_add(5, 3, own_turn=True) == 8
    assert dt.karma_add(11, 3, own_turn=True) == 12
    assert dt.karma_end_turn(9) == 6
    assert dt.karma_end_turn(4) == 4


def test_karma_thirds():
    assert dt.karma_third(3, 0) == (3, 1)
    assert dt.karma_third(3, 1) == (3, 2)
    assert dt.karma_third(3, 2) == (4, 0)
    assert dt.karma_third(6, 2) == (6, 0)  # the track maximum stays 6
    assert dt.karma_third(6, 2, own_turn=True) == (7, 0)


def test_spend_karma():
    assert dt.spend_karma(5, 3) == 2
    assert dt.spend_karma(6, 6) == 0
    with pytest.raises(ValueError, match="not enough Karma: 2 held, 3 needed"):
        dt.spend_karma(2, 3)
    with pytest.raises(ValueError, match="cost"):
        dt.spend_karma(6, 7)


def test_harvest_value_and_uprooting():
    assert dt.harvest_value(5, black=2) == 3
    assert dt.harvest_value(6, gold=1) == 7
    assert dt.uprooted(0) and dt.uprooted(7)
    assert not any(dt.uprooted(v) for v in range(1, 7))


def test_slot_bonus_printed_example():
    # "a 3 in slot 3 earns +4"
    assert dt.slot_bonus(3, 3) == 4
    assert dt.slot_bonus(3, 4) == 0
    assert [dt.slot_bonus(s, s) + s for s in range(1, 7)] == [7] * 6


def test_karma_points_are_pairs():
    assert [dt.karma_points(k) for k in range(7)] == [0, 0, 1, 1, 2, 2, 3]


def test_dice_bonus_options():
    assert [dt.dice_bonus(n) for n in (0, 2, 3, 5, 6, 12)] == [0, 0, 1, 1, 2, 4]
    assert dt.dice_bonus(2, per_vine=True) == 2


def test_final_total_and_breakdown():
    assert dt.breakdown([6, 2, 3, 5, 5, 4], 5, 2, True) == {
        "harvests": 25,
        "stars": 0,
        "karma": 2,
        "dice": 0,
        "end_trigger": 2,
    }
    assert dt.final_total([6, 2, 3, 5, 5, 4], 5, 2, True) == 29
    # Tomato Dice: slots 2, 3 and 5 match -> +5 +4 +2
    assert dt.final_total([6, 2, 3, 5, 5, 4], 5, 2, True, tomato_dice=True) == 40


def test_solo_result():
    assert dt.solo_result([1, 2, 3, 4, 5, 6]) == (6, True)
    assert dt.solo_result([2, 2, 3, 1, 5, 5]) == (3, True)  # won = all 6 slots filled
    assert dt.solo_result([1, 2, 3]) == (3, False)
    assert dt.solo_result([]) == (0, False)


# --- score(data) ----------------------------------------------------------------------


def test_score_spec_example():
    out = score(two())
    ana, bo = out["players"]
    assert ana == {
        "name": "Ana",
        "total": 29,
        "breakdown": {"harvests": 25, "stars": 0, "karma": 2, "dice": 0, "end_trigger": 2},
    }
    assert bo["total"] == 17 + 1 + 2
    assert out["winners"] == ["Ana"]
    assert "solo" not in out


def test_variants_default_to_off_and_per_3_dice():
    assert score(two()) == score(
        two(
            mode="multi",
            variants={
                "tomato_dice": False,
                "karma_overdose": False,
                "golden_sun": False,
                "dice_bonus": "per-3-dice",
            },
        )
    )


def test_tomato_dice_stars():
    out = score(two(variants={"tomato_dice": True}))
    assert out["players"][0]["breakdown"]["stars"] == 11
    assert out["players"][0]["total"] == 40
    assert out["players"][1]["breakdown"]["stars"] == 0


def test_karma_overdose_and_golden_sun_change_nothing_at_the_end():
    plain = score(two())
    assert score(two(variants={"karma_overdose": True, "golden_sun": True})) == plain


def test_per_vine_dice_bonus_uses_vines_with_3_dice():
    data = game(player(vines_with_3_dice=2, dice=0), player("Bo", vines_with_3_dice=0, dice=9))
    data["variants"] = {"dice_bonus": "per-vine"}
    out = score(data)
    assert [p["breakdown"]["dice"] for p in out["players"]] == [2, 0]


def test_tie_is_a_shared_win_in_input_order():
    out = score(game(player("Zed"), player("Ana"), player("Cy", (1,), 0, 0)))
    assert out["winners"] == ["Zed", "Ana"]


def test_end_trigger_bonus_and_last_round_before_6():
    out = score(game(player("A", trig=True), player("B", (6, 6, 6, 6, 6), 0, 0)))
    assert [p["breakdown"]["end_trigger"] for p in out["players"]] == [2, 0]


def test_empty_score_track_is_allowed():
    out = score(game(player("A", (), 0, 0), player("B", (), 1, 0)))
    assert [p["total"] for p in out["players"]] == [0, 0]
    assert out["winners"] == ["A", "B"]


def test_solo():
    out = score(game(player("Sol", (1, 2, 3, 4, 5, 6), 6, 3, True), mode="solo"))
    assert out["solo"] == {"matches": 6, "won": True}
    assert out["winners"] == ["Sol"]
    assert out["players"][0]["total"] == 21 + 3 + 1 + 2
    lost = score(game(player("Sol", (1, 3, 3), 2, 0), mode="solo"))
    assert lost["solo"] == {"matches": 2, "won": False}
    assert lost["winners"] == []


# --- refusals ---------------------------------------------------------------------------


def bad(mutate, message):
    data = two(variants={})
    mutate(data)
    with pytest.raises(ValueError) as err:
        score(data)
    assert message in str(err.value)


def test_uprooted_value_message_is_exact():
    def zero(d):
        d["players"][1]["harvests"][2] = 0

    with pytest.raises(ValueError) as err:
        data = two()
        zero(data)
        score(data)
    assert str(err.value) == (
        "players[1].harvests[2]: must be an integer 1-6 "
        "(value 0 means the vine was uprooted, not harvested)"
    )


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (
            ("players", 0, "harvests", 0),
            7,
            "players[0].harvests[0]: must be an integer 1-6 (a value",
        ),
        (
            ("players", 0, "harvests", 0),
            True,
            "players[0].harvests[0]: must be an integer 1-6, got true",
        ),
        (("players", 0, "harvests", 0), 3.0, "harvests[0]: must be an integer 1-6, got 3.0"),
        (("players", 0, "harvests", 0), "3", 'harvests[0]: must be an integer 1-6, got "3"'),
        (("players", 0, "harvests", 0), None, "harvests[0]: must be an integer 1-6, got null"),
        (("players", 0, "harvests"), [1] * 7, "players[0].harvests: must hold 0-6 harvests, got 7"),
        (("players", 0, "harvests"), "123", "players[0].harvests: must be a list"),
        (("players", 0, "karma"), 7, "players[0].karma: must be an integer 0-6, got 7"),
        (("players", 0, "karma"), -1, "players[0].karma: must be an integer 0-6"),
        (("players", 0, "karma"), False, "players[0].karma: must be an integer 0-6, got false"),
        (("players", 1, "dice_on_vines"), 13, "players[1].dice_on_vines: must be an integer 0-12"),
        (("players", 1, "triggered_end"), 1, "players[1].triggered_end: must be true or false"),
        (("players", 1, "name"), 5, "players[1].name: must be a string, got 5"),
        (("players", 1, "name"), "Ana", 'players[1].name: "Ana" is already used by players[0]'),
        (("players", 1), [], "players[1]: must be an object, got a list"),
        (("mode",), "duo", 'mode: must be one of "multi", "solo", got "duo"'),
        (("variants",), [], "variants: must be an object"),
        (("variants", "tomato_dice"), "yes", "variants.tomato_dice: must be true or false"),
        (("variants", "dice_bonus"), "per-2", "variants.dice_bonus: must be one of"),
        (("variants", "tomatoes"), True, "variants.tomatoes: unknown variant"),
    ],
)
def test_refusals_name_the_field(path, value, message):
    def mutate(d):
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value

    bad(mutate, message)


@pytest.mark.parametrize("field", ["name", "harvests", "karma", "dice_on_vines", "triggered_end"])
def test_missing_player_fields(field):
    bad(lambda d: d["players"][1].pop(field), "players[1]." + field + ": missing")


def test_refused_shapes():
    for data, message in [
        ([], "input: must be an object"),
        ({}, "players: missing"),
        (game(player()), "players: must hold 2-6 players, got 1"),
        (game(*[player(str(i)) for i in range(7)]), "players: must hold 2-6 players, got 7"),
        (game(player("A"), player("B"), mode="solo"), "players: must hold 1-1 players"),
        (
            game(player("A", dice=0), player("B"), variants={"dice_bonus": "per-vine"}),
            "players[0].vines_with_3_dice: missing",
        ),
        (
            game(
                player("A", vines_with_3_dice=4),
                player("B", vines_with_3_dice=0),
                variants={"dice_bonus": "per-vine"},
            ),
            "vines_with_3_dice: must be an integer 0-3",
        ),
    ]:
        with pytest.raises(ValueError) as err:
            score(data)
        assert message in str(err.value), data


def test_end_trigger_rules():
    bad(
        lambda d: d["players"][1].update(triggered_end=True),
        "players[1].triggered_end: only a 6th harvest triggers the end, this player has 5",
    )
    data = game(player("A", trig=True), player("B", trig=True))
    with pytest.raises(ValueError, match=r"players\[1\].triggered_end: players\[0\] already"):
        score(data)


def test_input_is_not_modified():
    data = two(variants={"tomato_dice": True})
    before = copy.deepcopy(data)
    score(data)
    assert data == before


harvest_lists = st.lists(st.integers(1, 6), max_size=6)


@given(
    st.lists(
        st.tuples(harvest_lists, st.integers(0, 6), st.integers(0, 12)), min_size=2, max_size=6
    ),
    st.booleans(),
)
def test_totals_are_never_negative_and_add_up(rows, tomato):
    data = game(*[player("p" + str(i), h, k, d) for i, (h, k, d) in enumerate(rows)])
    data["variants"] = {"tomato_dice": tomato}
    out = score(data)
    for p, (h, _, _) in zip(out["players"], rows, strict=True):
        assert p["total"] == sum(p["breakdown"].values()) >= sum(h) >= 0
        assert p["total"] <= 7 * 6 + 3 + 4 + 2
    assert out["winners"]
    top = max(p["total"] for p in out["players"])
    assert out["winners"] == [p["name"] for p in out["players"] if p["total"] == top]
