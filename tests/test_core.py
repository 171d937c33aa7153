"""Rule core: CRC, engine (undo/redo/log bound), saves, gestures, table services."""

import binascii
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from potager.core import gestures, table
from potager.core.crc import crc16
from potager.core.engine import Engine, clone
from potager.core.games import free


def new_engine(players=4, limit=48):
    return Engine(free, free.new(players, list(range(players))), limit=limit)


def test_crc_matches_the_ccitt_false_reference():
    assert crc16(b"123456789") == 0x29B1
    data = bytes(random.Random(1).randrange(256) for _ in range(300))
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_clone_is_deep():
    state = free.new(2, [0, 1])
    copy = clone(state)
    copy["sc"][0] = 9
    assert state["sc"] == [0, 0]


def test_clone_copies_a_list_of_numbers_whole_and_looks_into_any_other():
    # lists of numbers alone are copied in one piece (sum() finds them); a list with anything
    # else in it, even one container among numbers, has its items copied in turn
    state = {"sc": [1, 2.5, True], "mix": [0, [1], None, "a"], "names": ["An", ""]}
    copy = clone(state)
    assert copy == state
    copy["sc"][0] = 9
    copy["mix"][1].append(2)
    assert state["sc"] == [1, 2.5, True] and state["mix"][1] == [1]
    assert copy["sc"] is not state["sc"] and copy["names"] is not state["names"]


def test_refused_action_changes_nothing_and_is_not_logged():
    engine = new_engine()
    before = clone(engine.state)
    assert engine.apply((free.ADD, 7, 1)) == "bad_action"
    assert engine.state == before and engine.log == [] and engine.revision == 0


def test_new_action_clears_redo():
    engine = new_engine()
    engine.apply((free.ADD, 0, 1))
    engine.undo()
    engine.apply((free.ADD, 1, 1))
    assert engine.redo() is False


def test_log_is_bounded_and_folds_into_the_base():
    engine = new_engine(limit=5)
    for _ in range(12):
        engine.apply((free.ADD, 0, 1))
    assert len(engine.log) == 5
    assert engine.base["sc"][0] == 7
    assert engine.replay() == engine.state
    for _ in range(5):
        assert engine.undo()
    assert not engine.undo()
    assert engine.state["sc"][0] == 7


actions = st.one_of(
    st.tuples(st.just(free.ADD), st.integers(-1, 6), st.integers(-120, 120)),
    st.tuples(st.sampled_from([table.NEXT, table.PREV]), st.just(0), st.just(0)),
    st.tuples(st.just(table.ROUND), st.integers(-2, 2), st.just(0)),
    st.tuples(st.integers(0, 40), st.integers(-5, 5), st.integers(-5, 5)),
)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.lists(st.one_of(actions, st.just("undo"), st.just("redo"))))
def test_any_sequence_keeps_invariants_and_undo_restores_exactly(players, steps):
    engine = Engine(free, free.new(players, list(range(players))), limit=8)
    history = [clone(engine.state)]
    for step in steps:
        if step == "undo":
            if engine.undo():
                history.pop()
                assert engine.state == history[-1]
        elif step == "redo":
            engine.redo()
            history = None  # redo reaches states the shadow does not track
            break
        else:
            before = clone(engine.state)
            if engine.apply(step) is None:
                history.append(clone(engine.state))
            else:
                assert engine.state == before
        free.check(engine.state)
        history = history[-9:]
    assert engine.replay() == engine.state


# -------------------------------------------------------------- gestures
def test_short_long_and_repeat():
    g = gestures.Gestures(7)
    assert g.feed(4, True, 1000) is None
    assert g.poll(1400) is None
    assert g.feed(4, False, 1450) == gestures.SHORT
    g.feed(3, True, 2000)
    assert g.poll(2499) is None
    assert g.poll(2500) == (3, gestures.LONG)
    assert g.poll(2600) is None
    assert g.poll(2900) == (3, gestures.REPEAT)
    assert g.poll(3300) == (3, gestures.REPEAT)
    assert g.feed(3, False, 3350) is None  # a hold's release is not a short press


def test_gestures_across_the_ticks_wrap():
    wrap = 1 << 29
    g = gestures.Gestures(7)
    g.feed(6, True, wrap - 200)
    assert g.poll(wrap - 1) is None
    assert g.poll(299) is None
    assert g.poll(300) == (6, gestures.LONG)  # 500 ms after the press, past the wrap
    assert gestures.ticks_diff(5, wrap - 5) == 10


def test_release_without_press_is_ignored():
    assert gestures.Gestures(7).feed(2, False, 10) is None


# ------------------------------------------------------------------ table
@pytest.mark.parametrize(
    ("players", "pixels"),
    [(1, [0]), (2, [0, 6]), (3, [0, 4, 8]), (4, [0, 3, 6, 9]), (5, [0, 2, 5, 7, 10]),
     (6, [0, 2, 4, 6, 8, 10])],
)  # fmt: skip
def test_seats_spread_evenly_around_the_ring(players, pixels):
    assert [table.seat_pixel(s, players) for s in range(players)] == pixels


def test_several_actions_make_one_undo_step_and_the_log_folds_a_step_whole():
    from potager.core.games import free

    engine = Engine(free, free.new(2, [0, 1]), limit=4)
    assert engine.apply([(free.ADD, 0, 1), (free.ADD, 1, 2), (free.ADD, 0, 3)]) is None
    assert engine.state["sc"] == [4, 2] and len(engine.log) == 3
    assert engine.apply([(free.ADD, 0, 1), (free.ADD, 0, 0)]) == "bad_action"
    assert engine.state["sc"] == [4, 2] and len(engine.log) == 3  # all or nothing
    assert engine.undo() and engine.state["sc"] == [0, 0] and engine.step == (free.ADD, 0, 1)
    assert engine.redo() and engine.state["sc"] == [4, 2]
    engine.apply((free.ADD, 1, 1))
    engine.apply([(free.ADD, 1, 1), (free.ADD, 1, 1)])  # 6 actions: the first step folds whole
    assert engine.log == [(free.ADD, 1, 1), (free.ADD, 1, 1), (free.ADD + 128, 1, 1)]
    assert engine.base["sc"] == [4, 2] and engine.replay() == engine.state
