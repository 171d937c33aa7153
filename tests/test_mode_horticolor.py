"""Horticolor on the device: every rule and option at the reducer, the screens through the
real App on pure fakes, a whole 3-player, 3-round game (CPython, the real MicroPython with the
heap budget, the simulator), refusals, undo, a power cut, and every row in 21 characters in
both languages. The scoring CLI's tests are tests/test_score_horticolor*.py."""

import copy
import json
import random
import sys
from pathlib import Path

import mpy_runner
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools.mpy import pureboard
from host_tools.mpy.pureboard import PureBoard
from potager import lang
from potager.core import table
from potager.core.engine import Engine
from potager.core.games import horticolor as hc
from potager.lang import en_horticolor, fr_horticolor
from potager.ui import horticolor as ui
from potager.ui.horticolor_dice import roll
from potager.ui.view import COLOURS, COLS, dim

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "docs" / "scripts" / "horticolor.txt"

# first boot: English (French is offered first), then Horticolor for 3
SETUP_3 = """
wait 300
press DOWN
press OK         # English
press DOWN
press DOWN
press OK         # Horticolor
press LEFT       # 3 players
press OK         # start: round 1, the draft
"""

# A whole game for 3: three rounds, each rule on the way, the final points, the tie-break.
GAME = (
    SETUP_3
    + """
press TURN       # the draft is done: mixes phase 1, P1 active
hold LEFT 600    # the mix helper: dice 4 6 3 5, one key each
press LEFT
press TURN
press DOWN
press OK
wait 2000        # the pairings read
press BACK       # the dice saved
hold RIGHT 600   # P1 validates a card, its bonus: 1 compost; the cursor on P2
press RIGHT      # P2 validates a card, no bonus
press TURN       # mixes phase 2, P2 active
hold TURN 600    # P2 declares a shortage
press OK         # the others agree: +1 compost
hold TURN 600    # refused: once a phase
press DOWN
press LEFT       # P3 spends compost
press DOWN
press DOWN
press OK         # refused: not enough compost
press UP
press UP
press OK         # the colour only: 1 token
press UP
press UP
press RIGHT      # P1 validates a second card
press UP
press RIGHT      # a third
press UP
press RIGHT      # a fourth: all 4
press UP
press RIGHT      # refused: all validated
press TURN       # the round stops: the discards (P3 active)
press LEFT
press LEFT       # P3 drops 2 of 4 (keeps 2)
press UP
press LEFT
press LEFT       # P2 drops 1 of 3
press UP
press RIGHT      # refused: P1 has no card left
press TURN       # round 2: the draft
wait 3000
power-cut
wait 500
boot
wait 500
press TURN       # mixes phase 1, P3 active
hold LEFT 600
hold TURN 600    # the device rolls the dice
press BACK
press UP
press RIGHT      # P2 validates 3 of 6
press UP
press RIGHT
press UP
press RIGHT
press TURN       # mixes phase 2, P1 active
press DOWN
press RIGHT      # P2 validates the last 3
press UP
press RIGHT
press UP
hold RIGHT 1000  # the last with a bonus of 2 compost
press DOWN
press RIGHT      # P1 validates one
press TURN       # the round stops: the discards (P2 active), P1 drops 3 of 3
press DOWN
press LEFT
press LEFT
press LEFT
press LEFT       # P3 drops 2 of 6
press TURN       # round 3: the draft
press TURN       # mixes phase 1, P2 active
press DOWN
hold RIGHT 1400  # P3 validates, bonus 3 compost, three times
press UP
hold RIGHT 1400
press UP
hold RIGHT 1400  # over the 24 tokens: a warning
press UP
press LEFT       # P3 spends 10: a value +-1 and two free marbles
press DOWN
press DOWN
press DOWN
press DOWN
press OK         # any other mix
press DOWN
press RIGHT
press DOWN
press RIGHT
press RIGHT
press OK
press TURN       # mixes phase 2, P3 active
press UP
press UP
press RIGHT      # P1 validates all 4
press UP
press RIGHT
press UP
press RIGHT
press UP
press RIGHT
press TURN       # round 3 stops: the final scoring
hold RIGHT 1000  # P1's points: 24 + 3 + 1
press RIGHT
press RIGHT
press RIGHT
press RIGHT
press OK
press RIGHT
press RIGHT
press RIGHT
press OK
press RIGHT
press OK         # P2's points: 20 + 5 + 3
hold RIGHT 1000
press OK
press RIGHT
press RIGHT
press RIGHT
press RIGHT
press RIGHT
press OK
press RIGHT
press RIGHT
press RIGHT
press OK         # P3's points: 15
hold RIGHT 600
press RIGHT
press RIGHT
press RIGHT
press RIGHT
press RIGHT
press BACK       # back to the final scoring
"""
)
FINISH = """
press TURN       # finish: 28 = 28, P2 has fewer validated cards (7 to 9)
press OK
"""

# A shorter whole game for the heap budget (the harness keeps the script in RAM): three
# rounds, dice rolled, a bonus, a shortage, a spend, discards, a power cut, the final points.
# It stops on the final scoring, winner marked; a test goes on to record it.
MICRO = """press DOWN
press OK
press DOWN
press DOWN
press OK
press LEFT
press OK
press TURN
hold LEFT 600
hold TURN 600
press BACK
hold RIGHT 600
hold TURN 600
press OK
press UP
press LEFT
press DOWN
press DOWN
press OK
press TURN
press RIGHT
press TURN
press UP
press UP
press RIGHT
press UP
press RIGHT
press UP
press RIGHT
press TURN
press DOWN
press RIGHT
press TURN
wait 3000
power-cut
boot
press TURN
press RIGHT
press UP
press RIGHT
press UP
press RIGHT
press UP
press RIGHT
press TURN
press RIGHT
press RIGHT
press DOWN
press RIGHT
press RIGHT
press RIGHT
press RIGHT
press TURN
press TURN
press UP
press RIGHT
press UP
press RIGHT
press UP
press RIGHT
press UP
press RIGHT
press TURN
hold RIGHT 1000
press OK
press OK
press OK
hold RIGHT 1000
press RIGHT
press BACK
press UP
"""


def started(script=SETUP_3):
    board = PureBoard()
    board.script(script)
    return board


def state_of(board):
    return board.app.engine.state


def game(players=3, **options):
    return Engine(hc, hc.new(players, list(range(players)), **options))


def do(engine, op, a=0, b=0):
    return engine.apply((op, a, b))


def to_mixes(engine):
    assert do(engine, table.NEXT) is None
    assert engine.state["ph"] == hc.MIXES


def hue(colour):
    """'#rrggbb' -> which of r, g, b is strongest (0, 1, 2)."""
    rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return rgb.index(max(rgb))


# ------------------------------------------------------------------ the rules (reducer)
def test_a_new_game_is_json_with_two_compost_each_and_valid():
    state = hc.new(4, [3, 1, 0, 2], first=2, quick=True)
    assert json.loads(json.dumps(state)) == state
    assert state["cp"] == [2, 2, 2, 2] and state["act"] == 2 and state["quick"] == 1
    assert state["ph"] == hc.DRAFT and state["rnd"] == 1 and state["nc"] == [4] * 4
    hc.check(state)
    with pytest.raises(AssertionError):
        hc.check(hc.new(5, [0, 1, 2, 3, 4]))  # 2-4 players


def test_the_pairings_of_4_6_3_5():
    engine = game()
    to_mixes(engine)
    assert do(engine, hc.DICE, 4 | 6 << 3 | 3 << 6 | 5 << 9) is None
    assert engine.state["dice"] == [4, 6, 3, 5]
    assert [set(p) for p in hc.pairings(engine.state["dice"])] == [{10, 8}, {7, 11}, {9}]
    assert hc.pairings([4, 6, 3, 5]) == [(10, 8), (7, 11), (9, 9)]


@pytest.mark.parametrize(
    ("colours", "shifts", "marbles", "cost"),
    [(1, 0, 0, 1), (0, 1, 0, 2), (0, 0, 1, 4), (1, 1, 0, 3), (0, 1, 2, 10), (2, 0, 0, 2)],
    ids=["colour", "value", "marble", "3=colour+value", "10=4+4+2", "two colours"],
)
def test_spends_named_by_their_effect_and_combined(colours, shifts, marbles, cost):
    engine = game()
    assert do(engine, hc.GAIN, 1, 9) is None
    assert do(engine, hc.SPEND, 1, colours | shifts << 4 | marbles << 8) is None
    assert engine.state["cp"][1] == 11 - cost
    assert hc.compost_cost(colours, shifts, marbles) == cost


def test_spending_more_than_held_is_refused_and_changes_nothing():
    engine = game()
    before = copy.deepcopy(engine.state)
    assert do(engine, hc.SPEND, 0, 1 | 1 << 4) == "hc_not_enough"  # 3 of 2
    assert do(engine, hc.SPEND, 0, 0) == "bad_action"  # nothing to spend
    assert engine.state == before and engine.log == []
    assert lang.load("en", "horticolor").get("r.hc_not_enough") == "Not enough compost"


def test_gains_up_to_99_and_beyond_the_supply_of_24():
    engine = game(2)
    for _ in range(3):
        assert do(engine, hc.GAIN, 0, 9) is None
    assert engine.state["cp"] == [29, 2]
    assert 24 - sum(engine.state["cp"]) == -7  # the supply: shown, warned, not blocked
    for _ in range(7):
        do(engine, hc.GAIN, 0, 9)
    assert engine.state["cp"][0] == 92
    assert do(engine, hc.GAIN, 0, 8) == "hc_compost_limit"


def test_the_shortage_is_the_active_players_once_a_mixes_phase():
    engine = game()
    assert do(engine, hc.SHORTAGE, 0) == "hc_not_mixes"
    to_mixes(engine)
    assert do(engine, hc.SHORTAGE, 1) == "hc_not_active"
    assert do(engine, hc.SHORTAGE, 0) is None
    assert do(engine, hc.SHORTAGE, 0) == "hc_shortage_done"
    assert do(engine, table.NEXT) is None
    assert do(engine, hc.SHORTAGE, 1) is None
    assert engine.state["cp"] == [3, 3, 2]


def test_turn_passes_the_active_role_clockwise_after_each_mixes_phase():
    engine = game(4)
    to_mixes(engine)  # the draft's end hands nothing over
    assert engine.state["act"] == 0
    actives = []
    for _ in range(5):
        do(engine, table.NEXT, 7)
        actives.append(engine.state["act"])
    assert actives == [1, 2, 3, 0, 1]
    assert engine.state["mx"] == 6 and engine.state["rnd"] == 1
    assert engine.state["turns"] == [2, 1, 1, 1] and engine.state["used"] == [14, 7, 7, 7]


def test_the_round_stops_after_the_phase_someone_validated_all_their_cards():
    engine = game()
    to_mixes(engine)
    for _ in range(4):
        do(engine, hc.VALID, 2, 1)
    for _ in range(4):
        do(engine, hc.VALID, 1, 1)  # several players may finish in the same phase
    assert engine.state["ph"] == hc.MIXES  # the others finish the phase first
    assert do(engine, hc.VALID, 0, 1) is None
    assert do(engine, table.NEXT) is None
    assert engine.state["ph"] == hc.ROUND_END and engine.state["act"] == 1


def test_discards_give_compost_and_the_kept_cards_carry_over():
    engine = game()
    to_mixes(engine)
    for _ in range(4):
        do(engine, hc.VALID, 0, 1)
    do(engine, hc.VALID, 1, 1)
    do(engine, table.NEXT)
    assert engine.state["dc"] == [0, 3, 4]  # at first every card left is to be discarded
    assert do(engine, hc.DISCARD, 1, 0) is None  # P2 keeps them all
    assert do(engine, hc.DISCARD, 1, 3) is None  # no: all 3 of P2's others
    assert do(engine, hc.DISCARD, 2, 1) is None  # 1 of P3's 4; 3 kept
    assert do(engine, hc.DISCARD, 2, 5) == "hc_discard_range"
    assert do(engine, table.NEXT) is None
    state = engine.state
    assert state["rnd"] == 2 and state["ph"] == hc.DRAFT
    assert state["cp"] == [2, 5, 3]  # compost carries over; +1 a card dropped
    assert state["nc"] == [4, 4, 7] and state["vr"] == [0, 0, 0] and state["vc"] == [4, 1, 0]


def test_after_round_three_the_final_scoring_without_discards():
    engine = game(2)
    for _ in range(3):
        to_mixes(engine)
        for _ in range(engine.state["nc"][0]):
            do(engine, hc.VALID, 0, 1)
        do(engine, table.NEXT)
        if engine.state["ph"] == hc.ROUND_END:
            do(engine, table.NEXT)
    assert engine.state["ph"] == hc.FINAL and engine.state["rnd"] == 3
    assert engine.state["vc"] == [12, 0]
    assert do(engine, table.NEXT) == "hc_at_scoring"


def test_totals_and_the_tie_break_fewer_validated_cards():
    engine = game()
    to_mixes(engine)
    for p, cards in ((0, 3), (1, 2), (2, 2)):
        for _ in range(cards):
            do(engine, hc.VALID, p, 1)
    assert do(engine, hc.SCORING) is None
    for p, points in ((0, (24, 5, 2)), (1, (25, 4, 2)), (2, (20, 3, 1))):
        for field in range(3):
            assert do(engine, hc.POINTS, p * 4 + field, points[field]) is None
    totals = hc.totals(engine.state)
    assert totals == [31, 31, 24]
    assert hc.winners([0, 1, 2], totals, engine.state["vc"]) == [1]  # 2 cards beat 3
    assert hc.winners(["a", "b"], [9, 9], [2, 2]) == ["a", "b"]  # still tied: shared


def test_table_services_the_game_runs_are_refused():
    engine = game()
    for op, a, b, reason in (
        (table.PASS, 0, 0, "hc_table_op"),
        (table.SKIP, 0, 0, "hc_table_op"),
        (table.ROUND, 1, 0, "hc_table_op"),
        (table.SET, table.S_LAP, 1, "hc_table_op"),
        (table.PREV, 0, 0, "hc_use_undo"),
        (99, 0, 0, "bad_action"),
    ):
        assert do(engine, op, a, b) == reason
    assert do(engine, table.SET, table.S_TT, 60) is None


ACTIONS = st.tuples(
    st.sampled_from(
        [table.NEXT, table.NEXT, table.NEXT, table.PREV, table.PASS]
        + [hc.VALID] * 6
        + [hc.GAIN, hc.SPEND, hc.SHORTAGE, hc.DICE, hc.DISCARD, hc.POINTS, hc.SCORING]
    ),
    st.integers(-2, 20),
    st.integers(-2, 20),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(ACTIONS, max_size=80), st.integers(2, 4), st.booleans())
def test_any_actions_keep_the_invariants_and_refusals_change_nothing(actions, players, quick):
    engine = Engine(hc, hc.new(players, list(range(players)), 0, quick))
    for op, a, b in actions:
        if op == hc.VALID:
            b = 1 if b % 3 else -1
        before = copy.deepcopy(engine.state)
        reason = engine.apply((op, a, b))
        if reason is not None:
            assert engine.state == before
            assert type(reason) is str
        hc.check(engine.state)
    assert engine.replay() == engine.state
    assert json.loads(json.dumps(engine.state)) == engine.state


# ------------------------------------------------------------------ the device (App)
def test_setup_players_2_to_4_first_player_and_the_quick_draft():
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress DOWN\npress OK")
    assert board.rows()[0].startswith("Horticolor")
    board.script("press RIGHT")
    assert board.rows()[4].startswith("Players: out of range")
    board.script("press LEFT\npress LEFT\npress LEFT")
    assert board.rows()[1].endswith("2 ") and board.rows()[4].startswith("Players: out")
    board.script("wait 3000\npress DOWN\npress RIGHT\npress DOWN\npress DOWN\npress DOWN")
    board.script("press RIGHT")
    assert board.rows()[4] == "▶Quick draft      on "
    board.script("press OK")
    state = state_of(board)
    assert state["n"] == 2 and state["act"] == 1 and state["quick"] == 1
    assert board.rows() == [
        "R1 Draft          ●P2",
        "Quick draft: each    ",
        "player draws 6 cards ",
        "and keeps 4.         ",
        "TURN: mixes ▶        ",
    ]


def test_two_players_have_a_blank_row_and_messages_still_show():
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress DOWN\npress OK\npress LEFT\npress LEFT")
    board.script("press OK\npress TURN\npress RIGHT\npress UP\npress LEFT")
    board.script("press DOWN\n" * 5 + "press OK\npress BACK")  # take the card back, undone
    assert board.rows() == [
        "R1 Mix 1 Sup20    ♥P1",
        "▶♥P1* C 2  V 1  1/4  ",
        " ●P2  C 2  V 0  0/4  ",
        "                     ",
        "Undone: ♥P1 card -1  ",
    ]
    board.script("press DOWN\npress LEFT\n" + "press DOWN\n" * 5 + "press OK")
    assert board.rows()[0].startswith("No validated card")  # the cursor is on the bottom row
    board.script("press BACK")
    for phase in (
        "press TURN",
        "press OK\n" + "press DOWN\n" * 7 + "press OK\npress OK",
    ):  # End game
        board.script("wait 3000\n" + phase)
        assert len(board.rows()) == 5 and board.rows()[3] == " " * COLS


def test_the_draft_screen_then_the_mixes_table():
    board = started()
    assert board.rows()[1:4] == [
        "Deal 5 cards each.   ",
        "Keep 1, pass the rest",
        "left, until 4 kept.  ",
    ]
    board.script("press RIGHT")
    assert board.rows()[4].startswith("Draft first: TURN ▶")
    board.script("wait 3000\npress TURN")
    assert board.rows() == [
        "R1 Mix 1 Sup18    ♥P1",
        "▶♥P1* C 2  V 0  0/4  ",
        " ●P2  C 2  V 0  0/4  ",
        " ♣P3  C 2  V 0  0/4  ",
        "→card →~+compost ←pay",
    ]
    # the seats, and the pixel before the first player's (the round's first)
    assert [i for i, c in enumerate(board.pixels.leds) if c] == [0, 4, 8, 11]


def test_a_card_validated_in_one_press_its_bonus_by_holding():
    board = started(SETUP_3 + "press TURN\npress RIGHT")  # P1: a card, no bonus
    assert state_of(board)["vr"] == [1, 0, 0] and state_of(board)["cp"] == [2, 2, 2]
    assert board.rows()[4].startswith("♥P1 1/4")
    assert board.rows()[2].startswith("▶●P2")  # the cursor on to the next player
    board.script("hold RIGHT 1000")  # P2: a card with 2 compost, one undo step
    assert state_of(board)["vr"] == [1, 1, 0] and state_of(board)["cp"] == [2, 4, 2]
    assert board.rows()[4].startswith("●P2 1/4 +2 compost")
    board.script("press BACK")
    assert state_of(board)["vr"] == [1, 0, 0] and state_of(board)["cp"] == [2, 2, 2]
    assert board.rows()[4].startswith("Undone: ●P2 card +1")
    board.script("press UP\npress UP\npress RIGHT\npress UP\npress RIGHT\npress UP\npress RIGHT")
    assert board.rows()[4].startswith("♥P1 all validated!")
    board.script("wait 3000\npress UP\npress RIGHT")
    assert board.rows()[4].startswith("All cards validated")  # refused: 4 of 4


def test_the_spend_list_and_any_other_mix_refused_when_short():
    board = started(SETUP_3 + "press TURN\npress LEFT")
    assert board.rows() == [
        "♥P1 compost: 2       ",
        "▶1 Ignore colour     ",
        " 2 Value ±1          ",
        " 3 Colour+value      ",
        " 4 Free marble       ",
    ]
    board.script("press DOWN\npress DOWN\npress OK")
    assert board.rows()[4].startswith("Not enough compost")
    assert state_of(board)["cp"] == [2, 2, 2]
    board.script("wait 3000\npress DOWN\npress DOWN\npress OK\npress DOWN\npress RIGHT")
    assert board.rows() == [
        "♥P1 compost: 2       ",
        " 1 Ignore colour    0",
        "▶2 Value ±1         1",
        " 4 Free marble      0",
        " Cost 2: 0 left      ",
    ]
    board.script("press DOWN\npress RIGHT")
    assert board.rows()[4] == " Cost 6 > 2 held!    "
    board.script("press OK")
    assert board.rows()[4].startswith("Not enough compost")
    assert board.pixels.leds == [0x3C0000] * 12  # the red flash
    assert state_of(board)["cp"] == [2, 2, 2]
    board.script("wait 3000\npress LEFT\npress OK")
    assert state_of(board)["cp"] == [0, 2, 2] and board.rows()[0].startswith("R1 Mix 1")


def test_the_mix_helper_shows_the_pairings_and_the_dice_on_the_ring():
    board = started(SETUP_3 + "press TURN\nhold LEFT 600")
    assert board.rows()[4] == "↑1 →2 ↓3 ←4 OK5 TURN6"  # the keys of the six faces
    board.script("press LEFT\npress TURN\npress DOWN")  # one key a die: 4, 6, 3
    assert board.rows()[0] == "Dice ●4 ▲6 ♥3▶♣-     "  # the cursor went on by itself
    board.script("press OK")  # 5: the last die, the cursor back on the first
    assert board.rows()[:4] == [
        "Dice▶●4 ▲6 ♥3 ♣5     ",
        " 10=●4+▲6    8=♥3+♣5 ",
        "  7=●4+♥3   11=▲6+♣5 ",
        "  9=●4+♣5    9=▲6+♥3 ",
    ]
    board.script("hold LEFT 600")  # held: the cursor back, on the die to fix
    assert board.rows()[0] == "Dice ●4 ▲6 ♥3▶♣5     "
    leds = board.pixels.leds
    for die, colour in enumerate((1, 3, 0, 2)):  # blue, yellow, red, green: a quarter each
        level = 160 if die == 3 else 40
        assert leds[3 * die : 3 * die + 3] == [dim(COLOURS[colour][0], level)] * 3
    board.script("press RIGHT\nhold LEFT 600")  # a 2 for green, then back on green
    assert board.rows()[0] == "Dice ●4 ▲6 ♥3▶♣2     "
    assert state_of(board)["dice"] == [0, 0, 0, 0]  # typed: kept here until BACK
    board.script("hold TURN 600")  # the device rolls: dice from the time of the press
    dice = state_of(board)["dice"]
    rolls = [roll(t) for t in range(board.now - 200, board.now + 1)]
    assert dice[0] | dice[1] << 3 | dice[2] << 6 | dice[3] << 9 in rolls
    board.script("press BACK\npress TURN")
    assert state_of(board)["dice"] == [0, 0, 0, 0]  # a new phase, new dice


def test_a_long_hold_opening_the_mix_helper_leaves_the_cursor_on_the_first_die():
    board = started(SETUP_3 + "press TURN\nhold LEFT 1800")  # its repeats come here
    assert board.rows()[0] == "Dice▶●- ▲- ♥- ♣-     "


def test_the_dice_typed_are_saved_as_one_undo_step():
    board = started(SETUP_3 + "press TURN\nhold LEFT 600\npress UP\npress RIGHT\npress BACK")
    assert state_of(board)["dice"] == [1, 2, 0, 0]  # two dice typed, the others not yet
    board.script("hold LEFT 600\npress OK\npress OK\npress BACK")  # on from the first die
    assert state_of(board)["dice"] == [5, 5, 0, 0]
    board.script("press BACK")
    assert state_of(board)["dice"] == [1, 2, 0, 0] and board.rows()[4].startswith("Undone: dice")


def test_a_roll_depends_only_on_the_time_of_the_press():
    values = {roll(now) for now in range(0, 60000, 7)}
    for value in values:
        dice = [value >> 3 * i & 7 for i in range(4)]
        assert all(1 <= d <= 6 for d in dice)
    faces = [value & 7 for value in values]
    assert all(faces.count(face) > len(faces) / 9 for face in range(1, 7))  # all faces come
    assert roll(12345) == roll(12345)


def test_the_shortage_asks_the_others_then_gives_one_compost():
    board = started(SETUP_3 + "hold TURN 600")
    assert board.rows()[4].startswith("Only in a mixes phase")
    board.script("wait 3000\npress TURN\nhold TURN 600")
    assert board.rows()[:2] == ["Shortage: the others ", "agree? (+1 compost)  "]
    board.script("press BACK")  # no: nothing happens
    assert state_of(board)["cp"] == [2, 2, 2]
    board.script("hold TURN 600\npress OK")
    assert state_of(board)["cp"] == [3, 2, 2] and board.rows()[0].startswith("R1 Mix 1 Sup17")


TAKE_3 = "hold RIGHT 1400\npress UP\n"  # a card with 3 compost, the cursor back


def test_going_beyond_the_supply_warns_and_keeps_the_gain():
    board = started(SETUP_3 + "press TURN\n" + TAKE_3 * 4)
    assert state_of(board)["cp"] == [14, 2, 2]
    assert board.rows()[0].startswith("R1 Mix 1! Sup6")  # !: P1 validated all 4
    board.script("press DOWN\n" + TAKE_3 * 3)  # (3 compost each)
    assert state_of(board)["cp"] == [14, 11, 2]
    assert board.rows()[0].startswith("R1 Mix 1! Sup-3")
    assert board.rows()[4].startswith("Over the 24 tokens!")


def test_undo_and_redo_of_a_validation_and_of_a_handover():
    board = started(SETUP_3 + "press TURN\npress RIGHT\npress TURN")
    assert state_of(board)["act"] == 1 and board.rows()[2].startswith("▶●P2*")
    board.script("press BACK")
    assert state_of(board)["act"] == 0 and board.rows()[1].startswith("▶♥P1*")
    assert board.rows()[4].startswith("Undone: TURN ♥P1")
    board.script("press BACK")
    assert state_of(board)["vc"] == [0, 0, 0]
    board.script("hold BACK 600\nhold BACK 600")
    assert state_of(board)["vc"] == [1, 0, 0] and state_of(board)["act"] == 1


def test_a_power_cut_in_the_middle_restores_the_game():
    script = SETUP_3 + "press TURN\npress RIGHT\npress TURN\npress UP\npress RIGHT\n"
    board = started(script + "wait 3000")
    before = copy.deepcopy(state_of(board))
    rows = board.rows()
    board.script("power-cut\nwait 1000\nboot\nwait 1000")  # (BACK at boot: the safe menu)
    assert state_of(board) == before and board.rows() == rows
    board.script("press BACK")  # the undo history came back too
    assert state_of(board)["vc"] == [1, 0, 0]


def test_end_game_from_the_menu_goes_to_the_final_scoring_first():
    board = started(SETUP_3 + "press TURN\npress RIGHT\npress OK")
    board.script("press DOWN\n" * 7 + "press OK\npress OK")  # menu: End game, yes
    assert state_of(board)["ph"] == hc.FINAL
    assert board.rows()[0] == "Final scoring        "
    assert board.rows()[4].startswith("Enter the points")
    board.script("wait 3000\npress DOWN\npress RIGHT\npress RIGHT")
    assert board.rows()[4].startswith("No card: no points")  # P2 validated nothing
    board.script("wait 3000\npress BACK\npress UP\npress RIGHT\npress RIGHT\npress BACK")
    assert board.rows()[1] == "▶♥P1 V 1  1+0+0    1*"


def test_help_lists_the_keys_of_each_phase():
    board = started(SETUP_3 + "hold OK 600")
    assert board.rows()[1] == "▶TURN start mixes    "
    board.script("press OK\npress TURN\nhold OK 600")
    items = board.app.screen().items(board.app)
    assert items[:9] == [
        "↑↓   choose player",
        "→    validate a card",
        "→~   card+1 compost",
        "←    spend / undo",
        "←~   dice & mixes",
        "TURN end of phase",
        "TURN~shortage +1",
        "C    compost tokens",
        "V    validated cards",
    ]
    assert [item[:5] for item in items[9:]] == ["BACK ", "BACK~", "OK   ", "OK~  ", "*×»  "]


def test_a_whole_three_player_game_from_setup_to_the_winner():
    board = started(GAME)
    state = state_of(board)
    assert state["ph"] == hc.FINAL and state["rnd"] == 3
    assert state["vc"] == [9, 7, 3] and state["fp"] == [24, 3, 1, 20, 5, 3, 15, 0, 0]
    assert board.rows() == [
        "Final scoring        ",
        "▶♥P1 V 9  24+3+1  28 ",
        " ●P2 V 7  20+5+3  28*",
        " ♣P3 V 3  15+0+0  15 ",
        "→ points  TURN: done ",
    ]
    board.script(FINISH)
    assert board.app.engine is None
    assert board.app.history[-1][1:5] == ["horticolor", [0, 1, 2], [28, 28, 15], [1]]
    rows = board.rows()
    assert rows[:2] == ["Results              ", "▶ 1 ●P2*          28 "]
    assert rows[2] == "  20+5 syn+3 worm    "  # where the points came from
    assert "♥P1 " in rows[3] and rows[3].endswith(" 28 ") and rows[4] == "  24+3 syn+1 worm    "


def test_the_whole_game_passes_each_rule_on_the_way():
    board = PureBoard()
    seen = {}
    for line in GAME.split("\n"):
        board.script(line)
        if "#" in line and board.app is not None and board.app.engine is not None:
            seen[line.split("#")[1].strip()] = (copy.deepcopy(state_of(board)), board.rows())
    state, rows = seen["refused: once a phase"]
    assert state["cp"] == [3, 3, 2] and rows[4].startswith("Shortage: once only")
    state, rows = seen["refused: not enough compost"]
    assert state["cp"][2] == 2 and rows[4].startswith("Not enough compost")
    state, rows = seen["the round stops: the discards (P3 active)"]
    assert state["ph"] == hc.ROUND_END and rows[0] == "R1 over: discards    "
    assert rows[3] == "▶♣P3 drop 4/4     C 5"  # every card left to discard at first
    state, rows = seen["round 2: the draft"]
    assert state["nc"] == [4, 6, 6] and state["cp"] == [3, 4, 3]  # 2 + 1 dropped, kept carry
    state, rows = seen["over the 24 tokens: a warning"]
    assert sum(state["cp"]) == 26 and rows[4].startswith("Over the 24 tokens!")
    assert rows[0].startswith("R3 Mix 1 Sup-2")
    state, rows = seen["round 3 stops: the final scoring"]
    assert state["ph"] == hc.FINAL and state["cp"] == [6, 6, 4]


def test_french_screens():
    board = PureBoard()
    board.script("wait 300\npress OK\npress DOWN\npress DOWN\npress OK\npress LEFT")
    board.script("press OK\npress TURN")
    assert board.rows() == [
        "M1 Mél. 1 Rés18   ♥P1",
        "▶♥P1* C 2  V 0  0/4  ",
        " ●P2  C 2  V 0  0/4  ",
        " ♣P3  C 2  V 0  0/4  ",
        "→val. →~+1 ←dép ←~dés",
    ]
    board.script("hold TURN 600")
    assert board.rows()[:2] == ["Pénurie : les autres ", "confirment ? (+1)    "]


# ------------------------------------------------------------- rows and texts fit
@pytest.fixture
def frames(monkeypatch):
    shown = []
    original = pureboard.Display.show

    def show(self, rows):
        shown.append(list(rows))
        original(self, rows)

    monkeypatch.setattr(pureboard.Display, "show", show)
    return shown


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_row_of_a_whole_game_fits_in_21_characters(frames, language):
    script = GAME
    if language == "fr":  # French is offered first
        script = GAME.replace("press DOWN\npress OK         # English\n", "press OK\n")
    board = PureBoard()
    board.script(script)
    # and the help of each phase, the menu, the spend and points screens
    board.script("hold OK 600\npress OK\npress OK\n" + "press DOWN\n" * 20 + "press BACK")
    board.script(FINISH)
    assert board.app.language == language
    assert len(frames) > 150
    for rows in frames:
        assert len(rows) == 5
        for row in rows:
            assert len(row) == COLS, (language, row)


@pytest.fixture
def strict(monkeypatch):
    """The layout helpers fail instead of cutting a text that does not fit."""
    from potager.ui import view

    def strict_of(helper):
        def wrapped(text, width=COLS, *args):
            assert len(text) <= width, f"clipped to {width}: {text!r}"
            return helper(text, width, *args)

        return wrapped

    for name in ("fit", "right", "centre"):
        helper = strict_of(getattr(view, name))
        for module in list(sys.modules.values()):
            ours = getattr(module, "__name__", "").startswith("potager.ui")
            if ours and getattr(module, name, None) is getattr(view, name):
                monkeypatch.setattr(module, name, helper)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_random_keys_in_a_game_clip_nothing_and_crash_nothing(language, seed, strict):
    rng = random.Random(seed)
    board = PureBoard()
    board.script("press OK" if language == "fr" else "press DOWN\npress OK")
    for _ in range(3000):
        if board.app.mode != "horticolor":  # left the game (home, results...): a new one
            from potager.ui.screens import HomeScreen

            board.app.reset_to(HomeScreen())
            board.script("press DOWN\n" * (2 + (board.app.engine is not None)) + "press OK")
            board.script(rng.choice(["", "press LEFT\n", "press LEFT\npress LEFT\n"]))
            board.script("press OK\npress OK")
        key = rng.choice(["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN", "RIGHT", "TURN"])
        board.key(key, 80 if rng.random() < 0.85 else 700)
        assert len(board.rows()) == 5 and all(len(row) <= COLS for row in board.rows())
        if board.app.mode == "horticolor":
            hc.check(state_of(board))


def texts(module):
    return dict(line.split("=", 1) for line in module.T.split("\n") if "=" in line)


def test_texts_same_keys_and_fit_in_both_languages():
    en, fr = texts(en_horticolor), texts(fr_horticolor)
    assert sorted(en) == sorted(fr)
    parts = {"hc.row_words": 10, "hc.draft_lines": 5, "hc.quick_lines": 5, "hc.hint_lines": 4}
    parts.update({"hc.effect_lines": 3, "hc.cost_lines": 2, "hc.spend_lines": 6})
    parts.update({"hc.points_lines": 4})
    for table_ in (en, fr):
        for key, text in table_.items():
            # MicroPython keeps every string of up to 10 characters of the code in RAM for
            # good: the keys (the reasons, for r.*) stay longer
            assert len(key[2:] if key.startswith("r.") else key) > 10, key
            assert text == text.strip(), key
            limit = 15 if key.startswith("hc.help_") else 21
            for part in text.split("|"):
                if key != "hc.shortage_ask":
                    assert len(part) <= limit, (key, part)
        for key, count in parts.items():
            assert len(table_[key].split("|")) == count, key
        ask = table_["hc.shortage_ask"]  # a ConfirmScreen shows it at 21 a row
        assert len(ask) <= 2 * COLS and ask[COLS - 1] == " "


def test_the_setup_fields_come_from_the_table_with_the_quick_draft():
    from potager.ui import table_setup

    values = table_setup.default_setup(ui.SETUP)
    assert values["players"] == 4 and values["quick"] == 0
    rows = table_setup.rows(ui.SETUP, values)
    assert [field[0] for field, _ in rows] == ["players", "first"] + ["col"] * 4 + ["quick"]

    def change(name, delta):
        field = next(field for field in ui.SETUP if field[0] == name)
        return table_setup.change(ui, "horticolor", values, field, 0, delta)

    assert change("players", 1) == "bad_players"
    assert change("quick", 1) is None and values["quick"] == 1
    for _ in range(2):
        assert change("players", -1) is None
    assert change("players", -1) == "bad_players"
    assert change("first", 1) is None
    state = ui.new_state(values)
    assert state["n"] == 2 and state["first"] == 1 and state["quick"] == 1
    assert len(state["col"]) == 2


# ------------------------------------------------------------------- MicroPython
@pytest.mark.micropython
def test_whole_game_under_micropython_with_the_budget_heap(tmp_path):
    # The heap the mode leaves free: each of the mode's modules is compiled before play and
    # keeps to few names (see potager/ui/horticolor.py). The script stops on the final
    # scoring with the winner marked; the next test records the result.
    out = mpy_runner.run_app(MICRO, tmp_path)
    board = started(MICRO)
    assert out["snapshot"]["state"] == board.app.snapshot()["state"]
    assert out["rows"] == board.rows()
    assert out["rows"][2] == "▶●P2 V 1  21+0+0  21*"
    assert out["idle_growth_bytes"] == 0


@pytest.mark.micropython
def test_the_game_recorded_and_its_results_under_micropython(tmp_path):
    script = MICRO + "press TURN\npress OK\n"  # record the result, confirm
    out = mpy_runner.run_app(script, tmp_path)
    board = started(script)
    assert board.app.history[-1][1:5] == ["horticolor", [0, 1, 2], [20, 21, 0], [1]]
    assert out["rows"] == board.rows() and out["rows"][1] == "▶ 1 ●P2*          21 "


@pytest.mark.micropython
def test_the_mix_helper_idles_without_allocating_under_micropython(tmp_path):
    out = mpy_runner.run_app(
        SETUP_3 + "press TURN\nhold LEFT 600\npress OK\nhold TURN 600\n", tmp_path
    )
    assert out["rows"][0].startswith("Dice ●") and out["idle_growth_bytes"] == 0


# --------------------------------------------------------------------- simulator
def test_a_whole_game_in_the_simulator():
    from host_tools.sim import SimBoard

    # the board takes a few seconds to start up, at power-on and after the power cut
    script = "wait 2700\n" + GAME.replace("boot\nwait 500\n", "boot\nwait 4000\n") + FINISH
    result = SimBoard().run_script(script)
    assert not result.crashes and not result.warnings
    rows = result.frames[-1]["screen"]
    assert rows[:2] == ["Results              ", "▶ 1 ●P2*          28 "]
    assert rows[2] == "  20+5 syn+3 worm    "  # where the points came from
    assert "♥P1 " in rows[3] and rows[3].endswith(" 28 ") and rows[4] == "  24+3 syn+1 worm    "
    assert result.state["mode"] is None and result.state["screen"] == "ResultsScreen"
    # the mix helper: the dice in their colours, a quarter of the ring each
    dice = [f for f in result.frames if f["screen"][1] == " 10=●4+▲6    8=♥3+♣5 "]
    leds = dice[-1]["leds"]
    assert [hue(leds[3 * k]) for k in range(4)] == [2, 0, 0, 1]  # blue, yellow (r>g), red, green
    # mixes phase 2 of round 1: ●P2 active, its seat (pixel 4) blinking blue
    turn = [f for f in result.frames if f["screen"][0].startswith("R1 Mix 2")]
    turn = [f for f in turn if f["leds"][1] == "#000000"]  # not the red flash of a refusal
    lit = {f["leds"][4] for f in turn}
    assert len(lit) >= 2 and all(hue(c) == 2 for c in lit)
    assert all(f["leds"][0] != "#000000" and hue(f["leds"][0]) == 0 for f in turn)  # ♥P1


def test_the_demo_script_in_the_simulator():
    from host_tools.sim import SimBoard

    result = SimBoard().run_script(DEMO.read_text())
    assert not result.crashes
    assert result.frames[-1]["screen"] == [
        "R1 Mix 2 Sup18    ●P2",
        " ♥P1  C 3  V 1  1/4  ",
        "▶●P2* C 2  V 0  0/4  ",
        " ♣P3  C 1  V 1  1/4  ",
        "→card →~+compost ←pay",
    ]
    seats = [i for i, c in enumerate(result.leds) if c != "#000000"]
    assert seats == [0, 4, 8, 11]  # and the first player's marker
    assert [hue(result.leds[i]) for i in seats] == [0, 2, 1, 0]  # red, blue, green; red P1


def test_a_confirmed_shortage_past_the_supply_warns():
    board = started()
    board.script("press TURN")  # the mixes
    for p in range(3):
        assert board.app.act((hc.GAIN, p, 6))  # 8 each: the 24 tokens are all out
    board.script("wait 3000\nhold TURN 600\npress OK")  # the shortage, agreed
    assert state_of(board)["cp"][0] == 9
    assert board.rows()[4].startswith("Over the 24 tokens!")


def test_the_table_keeps_horticolor_clockwise_and_its_menu_lists_what_it_allows():
    engine = game()
    assert do(engine, table.SET, table.S_DIR, -1) == "hc_clockwise"
    assert lang.load("fr", "horticolor").get("r.hc_clockwise") == "On joue en horaire"
    board = started()
    board.script("press OK")
    items = board.app.screen().items(board.app)
    assert not {"Pass (out for round)", "Skip the next player", "Round +1"} & set(items)


def test_the_rows_kept_in_the_mixes_are_those_laid_out_afresh():
    board = started(SETUP_3 + "press TURN\n")  # round 1's mixes
    steps = ["press RIGHT", "press DOWN", "hold RIGHT 600", "press TURN", "press BACK"]
    steps += ["press UP\npress RIGHT", "hold BACK 600", "press TURN\npress TURN", "fr"]
    steps += ["press DOWN\npress RIGHT", "press TURN"]
    for step in steps:
        if step == "fr":  # another language: the rows' words with it
            board.app.set_language("fr")
            board.app.changed()
        else:
            board.script(step)
        screen = board.app.screen()
        assert type(screen).__name__ == "GameScreen", step
        kept = screen.rows(board.app)
        screen.laid = [None] * state_of(board)["n"]  # nothing kept
        assert screen.rows(board.app) == kept, step
    assert board.rows()[0].startswith("M1 Mél.")  # the French words, not the English kept
