"""Diced Tomatoes mode: every rule and option at the reducer level, the device flow through
the real App (setup, play, the last round, the final score, the history), refusals, undo, a
power cut, the rows in both languages, a whole game under MicroPython with the heap budget and
in the simulator."""

import json
import random
import subprocess
import sys
from pathlib import Path

import mpy_runner
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from soak import SCALE

from host_tools.mpy.pureboard import PureBoard
from potager.core import table
from potager.core.engine import Engine, clone
from potager.core.games import diced_tomatoes as dt
from potager.core.games import diced_tomatoes_score as cli
from potager.ui import view

ROOT = Path(__file__).resolve().parent.parent
TD, KO, GS, PV = 1, 2, 4, 8  # the option bits


# --------------------------------------------------------------------------- the rules
def engine(players=4, opt=0, first=0):
    return Engine(dt, dt.new(players, list(range(players)), first, opt))


def act(e, *actions):
    for action in actions:
        reason = e.apply(tuple(action) + (0,) * (3 - len(action)))
        assert reason is None, (action, reason)
    dt.check(e.state)
    return e.state


def test_new_game_karma_3_empty_tracks_last_player_before_the_first():
    state = dt.new(4, [0, 1, 2, 3], first=2, opt=TD | PV)
    assert state["ka"] == [3, 3, 3, 3] and state["hv"] == [[], [], [], []]
    assert state["mark"] == 1 and state["act"] == 2 and state["full"] == -1
    assert state["opt"] == TD | PV and state["end"] == 0
    assert json.loads(json.dumps(state)) == state  # saved as JSON
    assert dt.new(1, [0], opt=TD | KO | GS)["opt"] == TD | GS  # no Overdose in solo
    assert dt.new(3, [0, 1, 2])["mark"] == 2


@pytest.mark.parametrize("overdose", [False, True])
@pytest.mark.parametrize("value", range(1, 7))
def test_the_reducer_gains_what_the_rule_functions_say(value, overdose):
    e = engine(2, KO if overdose else 0)
    act(e, (dt.HARVEST, 1, value))
    assert e.state["ka"][0] == cli.karma_add(3, cli.karma_gain(value, overdose), own_turn=True)
    assert e.state["ka"][1] == 3  # the owner gains nothing


def test_the_gain_table_printed_in_the_rules():
    gains = []
    for value in range(1, 7):
        e = engine(2)
        act(e, (dt.HARVEST, 1, value))
        gains.append(e.state["ka"][0] - 3)
    assert gains == [1, 1, 2, 2, 3, 3]


def test_harvesting_ones_own_vine_gains_nothing_except_in_solo():
    assert act(engine(3), (dt.HARVEST, 0, 6))["ka"] == [3, 3, 3]
    assert act(engine(1), (dt.HARVEST, 0, 6))["ka"] == [6]  # solo: by the table


def test_karma_caps_12_in_own_turn_and_the_surplus_goes_at_turn():
    e = engine(2)
    act(e, (dt.HARVEST, 1, 6), (dt.HARVEST, 1, 6), (dt.HARVEST, 1, 6), (dt.HARVEST, 1, 6))
    assert e.state["ka"] == [12, 3]
    act(e, (table.NEXT, 10))
    assert e.state["ka"] == [cli.karma_end_turn(12), 3] == [6, 3]


def test_thirds_of_a_heart_as_the_rule_function():
    e = engine(2, KO)
    karma, thirds = 3, 0
    for _ in range(7):
        act(e, (dt.THIRD,))
        karma, thirds = cli.karma_third(karma, thirds, own_turn=True)
        assert (e.state["ka"][0], e.state["th"][0]) == (karma, thirds)
    assert (karma, thirds) == (5, 1)


def test_spending_each_effect_and_refusing_what_is_not_held():
    e = engine(2)
    act(e, (dt.HARVEST, 1, 6), (dt.HARVEST, 1, 6))  # 3 + 3 + 3 = 9
    for cost in (6, 3):
        before = e.state["ka"][0]
        act(e, (dt.SPEND, cost))
        assert e.state["ka"][0] == cli.spend_karma(before, cost)
    before = clone(e.state)
    assert e.apply((dt.SPEND, 1, 0)) == "dt_not_enough_karma"
    assert e.state == before  # validated first: nothing written


def test_uprooted_values_and_the_seventh_harvest_are_refused_and_change_nothing():
    e = engine(2)
    for value in range(1, 7):
        act(e, (dt.HARVEST, 0, value))
    before = clone(e.state)
    assert e.apply((dt.HARVEST, 1, 0, 0)[:3]) == "dt_rotten_uprooted"
    assert e.apply((dt.HARVEST, 1, 7)) == "dt_overripe_uprooted"
    assert e.apply((dt.HARVEST, 0, 3)) == "dt_six_slots_full"
    assert e.state == before
    # the printed example: a seed die 1 with a black die is rotten
    assert cli.harvest_value(1, black=1) == 0 and cli.uprooted(0)


def test_the_last_round_ends_with_the_last_players_turn():
    e = engine(4, first=1)  # P2 starts: P1 holds the last-player marker
    assert e.state["mark"] == 0
    act(e, (table.NEXT, 1))  # P3
    for value in (1, 2, 3, 4, 5, 6):
        act(e, (dt.HARVEST, 3, value))  # P3 completes P4's vines: P4's 6th harvest
    assert e.state["full"] == 3 and e.state["end"] == 0
    act(e, (table.NEXT, 1), (table.NEXT, 1))  # P4, then P1 (the last player) plays
    assert e.state["act"] == 0 and e.state["end"] == 0
    act(e, (dt.HARVEST, 1, 2))  # others may still harvest in the last round
    act(e, (table.NEXT, 1))
    assert e.state["end"] == 1 and e.state["act"] == 0  # the game stops at the last player
    assert e.apply((table.NEXT, 1, 0)) == "dt_game_is_over"


def test_a_sixth_harvest_of_another_player_does_not_move_the_trigger():
    e = engine(2)
    for value in (1, 2, 3, 4, 5, 6):
        act(e, (dt.HARVEST, 1, value))
    for value in (1, 2, 3, 4, 5, 6):
        act(e, (dt.HARVEST, 0, value))
    assert e.state["full"] == 1


def test_final_parts_printed_example_and_options():
    # a 3 in slot 3 earns +4 under Tomato Dice
    assert dt.parts([6, 2, 3], 0, 0, False, TD)[1] == 5 + 4
    assert dt.parts([6, 5, 3], 0, 0, False, TD)[1] == 4
    assert dt.parts([6, 5, 3], 0, 0, False, 0)[1] == 0
    assert dt.parts([1, 2, 3, 4, 5, 6], 5, 7, True, TD) == [21, 21, 2, 2, 2, 6]
    assert dt.parts([], 6, 2, False, PV)[2:4] == [3, 2]  # per vine: vines of 3 dice
    assert cli.final_total([6, 2, 3, 5, 5, 4], 5, 2, True, tomato_dice=True) == 40


def test_dice_left_only_after_the_end_and_within_the_vines():
    e = engine(2)
    assert e.apply((dt.DICE, 0, 3)) == "dt_not_over_yet"
    act(e, (dt.END, 2))
    assert e.apply((dt.DICE, 0, 10)) == "dt_dice_out_of_range"  # 3 vines of 3 dice
    act(e, (dt.DICE, 0, 9))
    e = engine(2, PV)
    act(e, (dt.END, 3))
    assert e.apply((dt.DICE, 1, 4)) == "dt_dice_out_of_range"  # 3 vines
    act(e, (dt.DICE, 1, 3))


def test_check_catches_a_broken_track():
    state = dt.new(2, [0, 1])
    state["ka"][1] = 7  # above 6 outside one's own turn
    with pytest.raises(AssertionError):
        dt.check(state)
    state = dt.new(2, [0, 1])
    state["hv"][0] = [0]
    with pytest.raises(AssertionError):
        dt.check(state)


OPS = [dt.HARVEST, dt.THIRD, dt.SPEND, dt.CARRY, dt.END, dt.DICE, table.NEXT, table.PREV]
actions = st.lists(
    st.tuples(st.sampled_from(OPS), st.integers(-2, 16), st.integers(-3, 10)), max_size=60
)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.integers(0, 15), actions)
def test_any_actions_keep_every_invariant_and_undo_replays_exactly(players, opt, steps):
    e = engine(players, opt)
    for op, a, b in steps:
        if op == table.NEXT:
            a = abs(a)
        before = clone(e.state)
        reason = e.apply((op, a, b))
        if reason is not None:
            assert e.state == before  # refused: untouched
        dt.check(e.state)
    assert e.replay() == e.state  # what a reboot restores


# ---------------------------------------------------------------------- on the device
NEW = "press DOWN\npress OK\npress DOWN\npress OK\n"  # English, Diced Tomatoes setup
FIELD = {"tomato": 1, "overdose": 2, "golden": 3, "vine": 4}  # then first, last player


def started(players=4, first=0, **options):
    """A game through the setup screen; options: tomato, overdose, golden, vine."""
    board = PureBoard()
    board.script(NEW + ("press LEFT\n" * (4 - players) if players < 4 else ""))
    board.script("press RIGHT\n" * (players - 4) if players > 4 else "")
    if first:
        board.script("press DOWN\n" * 5 + "press RIGHT\n" * first + "press UP\n" * 5)
    for name in options:
        board.script("press DOWN\n" * FIELD[name] + "press RIGHT\n" + "press UP\n" * FIELD[name])
    board.script("press OK")  # OK on any field starts
    assert board.app.snapshot()["screen"] == "GameScreen"
    return board


def state(board):
    return board.app.engine.state


def harvest(board, seed=None, black=0, gold=0):
    """→ on the player under the cursor, black dice (↓), gold dice (↑), the seed (→), OK."""
    board.script("press RIGHT\n" + "press DOWN\n" * black + "press UP\n" * gold)
    if seed is not None:  # (the dice moved the seed from its slot's number)
        board.script("press RIGHT\n" * ((seed - board.app.screen().values[0]) % 6))
    board.script("press OK")


def test_setup_lists_the_variants_and_the_last_player():
    board = PureBoard()
    board.script(NEW + "press DOWN")  # the variants first: Tomato Dice one DOWN away
    rows = board.rows()
    assert rows[0].startswith("Diced Tomatoes")
    assert [r[1:].split()[0:2] for r in board.rows()[2:5]] == [
        ["Tomato", "Dice"], ["Karma", "Overdose"], ["Golden", "Sun"]
    ]  # fmt: skip
    assert rows[2] == "▶Tomato Dice     off "
    board.script("press DOWN\npress DOWN\npress DOWN")
    assert board.rows()[4] == "▶Dice bonus    per 3 "
    board.script("press RIGHT")
    assert board.rows()[4] == "▶Dice bonus per vine "
    board.script("press DOWN\npress RIGHT")  # first player P2
    assert board.rows()[4] == "▶First player     P2 "
    board.script("press DOWN")
    assert board.rows()[4] == "▶Last player      P1 "
    board.script("press RIGHT\npress UP")  # moving the last player moves both
    assert board.rows()[4] == "▶First player     P3 "


def test_solo_refuses_karma_overdose_with_a_message():
    board = PureBoard()
    board.script(NEW + "press LEFT\npress LEFT\npress LEFT")  # 1 player
    board.script("press DOWN\npress DOWN\npress RIGHT")
    assert board.rows()[4].startswith("Solo: no Overdose")  # never over the cursor's row
    assert board.pixels.leds[0] == 0x3C0000  # the red flash


def test_the_game_screen_rows_and_the_karma_on_the_ring():
    board = started(tomato=True)
    rows = board.rows()
    assert rows[0].startswith("Round 1") and rows[0].endswith("♥P1")
    assert rows[1] == "▶♥P1*K 3 · · · · · · "
    assert rows[2] == " ●P2 K 3 · · · · · · "
    assert rows[4] == " ▲P4 K 3 · · · · · · "  # 4 players: every seat, the key hints in the help
    assert not any("→harvest" in row for row in rows), rows
    leds = board.pixels.leds
    karma = view.dim(0xFF0000, 96)
    assert leds[1:4] == [karma] * 3  # P1's 3 Karma clockwise after their seat
    assert leds[6] == view.dim(view.COLOURS[2][0], 24)  # P3's seat, dim
    rows = started(players=3, tomato=True).rows()  # 3 players: the key hints on row 4
    assert rows[3] == " ♣P3 K 3 · · · · · · "
    assert rows[4].startswith("→harvest ←Karma OK≡")


def test_with_4_players_the_four_seats_are_on_screen_at_once_wherever_the_cursor():
    # (before, rows 1-3 showed 3 players and row 4 the key hints: P4 only once scrolled to)
    board = started()
    seats = [" ♥P1 K 3 · · · · · · ", " ●P2 K 3 · · · · · · ", " ♣P3 K 3 · · · · · · "]
    seats += [" ▲P4 K 3 · · · · · · "]
    for cursor in range(4):
        rows = board.rows()
        assert rows[0].startswith("Round 1") and rows[0].endswith("♥P1")  # the header stays
        expected = [("▶" if p == cursor else " ") + seats[p][1:] for p in range(4)]
        expected[0] = expected[0][:4] + "*" + expected[0][5:]  # P1 plays
        assert rows[1:5] == expected, rows
        board.script("press DOWN")
    board.script("press TURN\npress TURN\npress TURN")  # P4 plays: still no scroll
    rows = board.rows()
    assert rows[0].endswith("▲P4") and rows[4] == "▶▲P4*K 3 · · · · · · "
    assert rows[1] == " ♥P1»K 3 · · · · · · "


def test_a_3_in_slot_3_earns_4_under_tomato_dice_on_screen():
    board = started(tomato=True)
    harvest(board, 5)
    harvest(board, 6)
    board.script("wait 3000\npress RIGHT")
    rows = board.rows()
    # the table stays: the harvest shows in its row, the form's line on the top row (every
    # seat in view, 4 players), and so does the ring
    assert board.pixels.leds[1:4] == [view.dim(0xFF0000, 96)] * 3
    assert rows[1] == "→♥P1*K 3 5 6 3*· · · "
    assert rows[0] == "Seed 3 ↓0 *+4        " and rows[4] == " ▲P4 K 3 · · · · · · "
    board.script("press OK")
    assert state(board)["hv"][0] == [5, 6, 3]
    rows = board.rows()
    assert rows[1] == "▶♥P1*K 3 5 6 3*· · · "
    assert rows[0].startswith("♥P1 slot 3 = 3 *+4")  # 4 players: said on the top row
    assert rows[4] == " ▲P4 K 3 · · · · · · "  # P4's row is not hidden by it


@pytest.mark.parametrize("players", [3, 4])
def test_the_harvest_form_changes_a_row_and_a_slot_not_the_screen(players):
    # the real SSD1306 driver: a whole screen is 1037 bytes (~80 ms on the board)
    from host_tools.sim import SimBoard

    keys = "wait 3000\n" + NEW + "press LEFT\n" * (4 - players) + "press OK\n"
    keys += "press RIGHT\npress OK\n"
    result = SimBoard().run_script(keys.replace("\n", "\nwait 2000\n"))
    # the form's line and the message: row 4 is P4's with 4 players, the top row then
    said = 0 if players == 4 else 4
    opened = next(f for f in result.frames if f["screen"][said].startswith("Seed 1 ↓0"))
    done = next(f for f in result.frames if f["screen"][said].startswith("♥P1 slot 1 = 1"))
    assert opened["screen"][1] == "→♥P1*K 3 1 · · · · · "
    assert 0 < opened["i2c_bytes"] <= 400 and 0 < done["i2c_bytes"] <= 400
    if players == 4:  # P4's row stays where it was, form or not
        assert opened["screen"][4] == done["screen"][4] == " ▲P4 K 3 · · · · · · "


def test_the_rows_kept_for_a_revision_are_those_laid_out_afresh():
    board = started(players=5, tomato=True)
    steps = ["press RIGHT", "press OK", "press DOWN", "press TURN", "press DOWN\npress DOWN"]
    steps += ["press RIGHT", "press DOWN", "press BACK", "press BACK", "hold BACK 600"]
    steps += ["press UP\npress RIGHT\npress RIGHT", "press OK", "press TURN\npress RIGHT"]
    for step in steps:
        board.script(step)
        screen = board.app.screen()
        game = getattr(screen, "game", screen)
        kept = screen.rows(board.app)
        game.laid = lambda app: [None] * app.engine.state["n"]  # nothing kept
        assert screen.rows(board.app)[1:] == kept[1:], step
        del game.laid
    assert type(board.app.screen()).__name__ == "Form"


def test_the_preview_of_an_opponents_vine_says_who_gains_karma():
    board = started(tomato=True)
    harvest(board)  # P1: slot 1
    board.script("press TURN\npress UP\npress RIGHT")  # P2 on P1's vine: slot 2
    rows = board.rows()
    assert rows[1] == "→♥P1»K 3 1*2*· · · · "  # P1's star in the slot
    assert rows[2] == " ●P2*K 4 · · · · · · "  # P2's Karma, as OK would leave it
    assert rows[0] == "Seed 2 ↓0 *+5 ●P2 K+1"  # (4 players: the form's line on top)
    assert state(board)["ka"][1] == 3  # a preview only


def test_a_1_with_a_black_die_is_uprooted_not_harvested():
    board = started()
    board.script("press RIGHT\npress DOWN\npress LEFT")  # a black die (DOWN), seed 1 (LEFT)
    assert board.rows()[1] == "→♥P1*K 3 0?· · · · · "  # the value in its slot, with ?
    assert board.rows()[0].startswith("Rotten <1: uprooted")  # said before OK (on top: 4p)
    board.script("press OK")
    assert state(board)["hv"][0] == []
    assert board.app.snapshot()["screen"] == "Form"  # still on the form, to fix the dice
    assert board.rows()[0].startswith("Rotten <1: uprooted")
    assert board.pixels.leds[5] == 0x3C0000


def test_the_seed_goes_with_the_dice_until_moved_and_a_hold_moves_it_by_3():
    board = started(tomato=True)
    board.script("press RIGHT\npress DOWN")  # slot 1 and a black die: seed 2 - 1 = 1, a star
    rows = board.rows()
    assert rows[1] == "→♥P1*K 3 1*· · · · · "
    assert rows[0] == "Seed 2 ↓1 *+6        "  # (4 players: the form's line on top)
    board.script("press DOWN\npress DOWN\npress DOWN")  # a vine holds 4 dice
    assert board.app.screen().values == [4, 3, 0]
    board.script("press UP")  # (a black die back: the seed with it)
    assert board.app.screen().values == [3, 2, 0]
    board.script("hold RIGHT 600")  # seed 3 + 3: 6, moved by hand
    assert board.app.screen().values == [6, 2, 0]
    board.script("press UP\nhold LEFT 600")  # the dice no longer move it; held: 6 - 3
    assert board.app.screen().values == [3, 1, 0]
    board.script("hold LEFT 600\npress OK")  # 3 - 3 wraps round to 6: a vine of 5
    assert state(board)["hv"][0] == [5]


def test_golden_sun_offers_gold_dice_and_refuses_an_overripe_vine():
    board = started()
    board.script("press RIGHT")
    assert board.rows()[0] == "Seed 1 ↓0            "  # no gold dice (4 players: on top)
    board.script("press BACK")
    board = started(golden=True)
    board.script("press RIGHT\n" + "press LEFT\n" + "press UP")  # seed 6, a gold die (UP)
    assert board.rows()[1] == "→♥P1*K 3 7?· · · · · "
    assert board.rows()[0].startswith("Overripe >6: uprooted")
    board.script("press DOWN")  # DOWN takes the gold die back first
    assert board.rows()[0] == "Seed 6 ↓0 ↑0         "
    board.script("press UP\npress UP\npress UP\npress UP")  # a vine holds 4 dice
    assert board.rows()[0].startswith("Only 4 dice a vine")  # (the message: on top, 4p)


def test_a_seventh_harvest_is_refused():
    board = started()
    for _ in range(6):
        harvest(board)
    assert state(board)["hv"][0] == [1, 2, 3, 4, 5, 6]
    board.script("wait 3000\npress RIGHT")
    assert board.rows()[0].startswith("6 slots full: no 7th")  # 4 players: the top row
    assert board.app.snapshot()["screen"] == "GameScreen"


def test_completing_an_opponents_vine_gains_karma_and_the_surplus_goes_at_turn():
    board = started()
    board.script("press DOWN")  # P2's vines
    harvest(board, 6)
    assert board.rows()[0].startswith("♥P1 Karma +3 = 6")  # 4 players: the top row
    assert board.rows()[1].startswith("▶♥P1*")  # the cursor back on the active player
    board.script("press DOWN")
    harvest(board, 5)
    board.script("press DOWN")
    harvest(board, 4)
    assert state(board)["ka"][0] == 11
    board.script("wait 3000")
    assert board.rows()[1].startswith("▶♥P1*K11")
    assert board.rows()[0].startswith("Karma >6 lost at TURN")  # in place of the header
    lit = [c for c in board.pixels.leds if c in (view.dim(0xFF0000, 96), 0)]
    assert len(lit) == 12 - 1  # 11 Karma pixels (some blinking), the seat
    board.script("press TURN")
    assert state(board)["ka"] == [6, 3, 3, 3]
    assert board.rows()[0].startswith("♥P1 -5 Karma (max 6)")
    board.script("press BACK\nhold LEFT 1000")  # the handover with dice not placed: the same
    assert state(board)["ka"] == [6, 3, 3, 3] and state(board)["extra"] == 2
    assert board.rows()[0].startswith("♥P1 -5 Karma (max 6)")


def test_spending_karma_and_a_refusal_when_it_is_not_held():
    board = started()
    board.script("press LEFT")
    rows = board.rows()
    assert rows[0].startswith("♥P1 Karma 3")
    assert rows[1:4] == ["▶1 Reroll a die      ", " 2 One die +1 / -1   ", " 3 Uproot a vine     "]
    board.script("press DOWN\npress DOWN\npress DOWN\npress OK")  # flip 6/1: 4 Karma
    assert board.rows()[0].startswith("Not enough Karma")  # the cursor is on the bottom row
    assert board.rows()[4] == "▶4 Die 6 → 1 or 1 → 6"
    assert state(board)["ka"][0] == 3
    board.script("press UP\npress OK")  # uproot a vine: 3
    assert state(board)["ka"][0] == 0
    assert board.rows()[0].startswith("♥P1 -3 Karma = 0")  # the game: 4 players, the top row
    board.script("press BACK")  # undo
    assert state(board)["ka"][0] == 3


def test_karma_overdose_thirds_with_a_hold_and_the_value_as_karma():
    board = started(overdose=True)
    board.script("hold RIGHT 600")
    assert board.rows()[1].startswith("▶♥P1*K 3'")
    assert board.rows()[0].startswith("♥P1 +1/3 heart: 1/3")  # 4 players: the top row
    board.script("hold RIGHT 600\nhold RIGHT 600")
    assert state(board)["ka"][0] == 4 and state(board)["th"][0] == 0
    assert board.rows()[0].startswith("♥P1 3/3: Karma = 4")
    board.script("press DOWN")
    harvest(board, 5)
    assert state(board)["ka"][0] == 9


def test_third_without_overdose_is_refused():
    board = started()
    board.script("hold RIGHT 600")
    assert board.rows()[0].startswith("Karma Overdose is off")  # 4 players: the top row


def test_dice_not_placed_go_with_the_turn_one_more_every_repeat_of_the_hold():
    board = started()  # 4 players: the status and the messages on the top row
    board.script("hold LEFT 600")  # a die not placed, and the turn goes on
    assert (state(board)["act"], state(board)["extra"], state(board)["held"]) == (1, 1, 0)
    assert board.rows()[0].startswith("●P2 rolls 3+1 dice")
    board.script("press BACK")  # one undo step: the die and the handover
    assert (state(board)["act"], state(board)["extra"], state(board)["held"]) == (0, 0, 0)
    assert board.rows()[0].startswith("Undone: ♥P1 1 dice →")
    board.script("wait 3000\nhold LEFT 1000")  # held on: 2 dice
    assert (state(board)["act"], state(board)["extra"]) == (1, 2)
    assert board.rows()[0].startswith("●P2 rolls 3+2 dice")
    board.script("press BACK")  # still one step
    assert (state(board)["act"], state(board)["extra"], len(board.app.engine.log)) == (0, 0, 0)
    board.script("hold LEFT 2200")  # 3 + 0 rolled at most
    assert board.rows()[0].startswith("More than were rolled")
    assert (state(board)["act"], state(board)["extra"], len(board.app.engine.log)) == (1, 3, 2)
    board.script("press BACK\npress OK\n" + "press DOWN\n" * 2 + "press OK")  # the menu's form
    assert board.rows()[2].strip() == "← 0 →"
    board.script("press RIGHT\npress RIGHT\npress OK")  # any count, the turn not handed over
    assert (state(board)["act"], state(board)["held"]) == (0, 2)
    board.script("wait 3000")
    assert board.rows()[0].startswith("♥P1 2 dice → ●P2")
    board.script("press TURN\nwait 3000")
    assert board.rows()[0].startswith("●P2 rolls 3+2 dice")
    assert state(board)["extra"] == 2


def test_solo_a_hold_of_left_reminds_the_dice_to_roll_as_the_menus_form_and_turn_do():
    board = started(players=1)
    harvest(board, 3)  # one's own vine in solo: Karma, said on the bottom row
    assert board.rows()[4].startswith("♥P1 Karma +2 = 5")
    board.script("hold LEFT 600")  # a die not placed, and the next turn begins
    assert (state(board)["rnd"], state(board)["extra"]) == (2, 1)
    assert board.rows()[4].startswith("♥P1 rolls 3+1 dice")
    board.script("press BACK\nwait 3000\npress OK\n" + "press DOWN\n" * 2 + "press OK")
    board.script("press RIGHT\npress OK\npress TURN")  # the menu's Dice not placed, TURN
    assert (state(board)["rnd"], state(board)["extra"]) == (2, 1)
    assert board.rows()[4].startswith("♥P1 rolls 3+1 dice")


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize("handover", ["press TURN", "hold LEFT 600"])
def test_a_message_of_the_turn_before_goes_at_the_handover(players, handover):
    board = started(players=players)
    harvest(board, 3)
    said = "Karma +2 = 5" if players == 1 else "slot 1 = 3"
    top = 0 if players == 4 else 4  # 4 players: row 4 is P4's, messages and status on top
    assert said in board.rows()[top]
    board.script(handover)
    rows = board.rows()
    assert not any(said in row for row in rows), rows
    if handover == "press TURN" and players == 4:  # the header back (the key hints: help)
        assert rows[0].startswith("Round 1") and rows[0].endswith("●P2")
        assert rows[4] == " ▲P4 K 3 · · · · · · "
    elif handover == "press TURN":
        assert rows[4].startswith("→harvest ←Karma OK≡")
    else:  # the next player's reminder, at once
        assert rows[top].startswith(("♥P1" if players == 1 else "●P2") + " rolls 3+1 dice")


def test_nobody_passes():
    board = started()
    board.script("press OK")
    items = board.app.screen().ITEMS
    assert "pass" not in items and "skip" not in items
    assert items[:6] == (
        "dt.menu_harvest", "dt.menu_spend_karma", "dt.menu_not_placed", "dt.menu_details",
        "dt.menu_basket_empty", "resume",
    )  # fmt: skip


def test_details_show_the_stars_and_their_bonus():
    board = started(tomato=True)
    harvest(board)  # slot 1 = 1: +6
    harvest(board, 4)
    harvest(board)  # slot 3 = 3: +4
    board.script("wait 3000\npress OK\n" + "press DOWN\n" * 3 + "press OK")
    rows = board.rows()
    assert rows[0].startswith("♥P1 Karma 3")
    assert rows[1] == "Slot   1 2 3 4 5 6   "
    assert rows[2] == "Value  1 4 3 · · ·   "
    assert rows[3].startswith("Bonus  6 - 4 · · ·")
    assert rows[4].startswith("Total so far: 19")  # 8 + 10 + 1 Karma pair


PLAY_TO_THE_END = (
    # P1 harvests six vines of their own (stars on slots 1, 3, 6): the last round; P4 is last
    "press RIGHT\npress OK\n"
    + "press RIGHT\npress RIGHT\npress RIGHT\npress OK\n"  # slot 2 = 4
    + "press RIGHT\npress OK\n"
    + "press RIGHT\npress LEFT\npress OK\n"  # slot 4 = 3
    + "press RIGHT\npress LEFT\npress LEFT\npress OK\n"  # slot 5 = 3
    + "press RIGHT\npress OK\n"
)


def test_the_last_round_shows_who_plays_last_and_ends_with_them():
    board = started(tomato=True)
    board.script(PLAY_TO_THE_END)
    assert state(board)["hv"][0] == [1, 4, 3, 3, 3, 6] and state(board)["full"] == 0
    assert board.rows()[0].startswith("Last round → ▲P4")  # 4 players: said on the top row
    assert board.rows()[4] == " ▲P4 K 3 · · · · · · "
    board.script("wait 3000")
    assert board.rows()[0].startswith("▲P4 plays last")  # the status, in place of the header
    board.script("press TURN\npress TURN\npress TURN")
    assert state(board)["act"] == 3 and state(board)["end"] == 0
    assert board.rows()[0].startswith("▲P4 plays last") and board.rows()[4][:5] == "▶▲P4*"
    board.script("press TURN")
    assert state(board)["end"] == 1
    rows = board.rows()
    assert board.app.snapshot()["screen"] == "Form"
    assert rows[0].startswith("Final: dice on vines")
    # 20 + 6 + 4 + 1 stars, 1 Karma pair, 2 for the 6th harvest
    assert rows[1] == "▶♥P1*  0 dice      34"
    assert rows[4].startswith("20+11*+1K+0D+2!=34")


def test_final_score_asks_the_dice_left_then_records_totals_and_winners():
    board = started(tomato=True)
    board.script(PLAY_TO_THE_END + "press TURN\npress TURN\npress TURN\npress TURN")
    board.script("press RIGHT\npress RIGHT\npress RIGHT")  # P1: 3 dice on vines
    assert board.rows()[1] == "▶♥P1*  3 dice      35"  # the total follows
    board.script("press OK\npress RIGHT\npress LEFT\npress LEFT")  # OK: P2; 0, -1 refused
    assert board.rows()[4].startswith("Dice: out of range")  # under the cursor's row
    assert state(board)["dv"] == [0, 0, 0, 0]  # kept on the form until the last player
    board.script("wait 3000\nhold RIGHT 600")  # held: 3 dice at once
    assert board.rows()[2] == "▶●P2   3 dice       2"
    board.script("press LEFT\npress LEFT\npress LEFT\npress OK\npress OK\npress OK")
    assert board.rows()[0] == "Record the scores and"
    assert state(board)["dv"] == [3, 0, 0, 0]  # saved, one undo step
    board.script("press BACK\npress BACK")  # no: the form, then back to the game
    assert board.rows()[0].startswith("Game over: → score")  # 4 players: the top row
    board.script("press BACK")
    assert state(board)["dv"] == [0, 0, 0, 0] and board.rows()[0].startswith("Undone: dice left")
    board.script("hold BACK 600\npress RIGHT")  # redone; → goes on to the final score
    assert state(board)["dv"] == [3, 0, 0, 0]
    board.script("press OK\npress OK\npress OK\npress OK\npress OK")
    assert board.app.snapshot()["screen"] == "ResultsScreen"
    assert board.rows()[1] == "▶ 1 ♥P1*          35 "
    assert board.app.history[-1][1:5] == ["diced_tomatoes", [0, 1, 2, 3], [35, 1, 1, 1], [0]]
    assert board.app.engine is None


def test_the_last_players_hold_of_left_ends_the_game_and_a_hold_counts_on_from_3():
    board = started(tomato=True)
    board.script(PLAY_TO_THE_END + "press TURN\npress TURN\npress TURN")
    board.script("hold LEFT 1400")  # P4's dice not placed: their turn ends the game
    assert state(board)["end"] == 1 and board.app.snapshot()["screen"] == "Form"
    assert board.app.screen().values == [0, 0, 0, 0]  # the hold's repeats changed nothing
    assert board.rows()[1] == "▶♥P1*  0 dice      34"
    board.script("hold RIGHT 1000")  # held: 3 dice at once, then one more a repeat
    assert board.rows()[1] == "▶♥P1*  4 dice      35"
    board.script("hold LEFT 600\npress OK\nhold RIGHT 3400")  # up to 9 at most
    assert board.app.screen().values == [1, 9, 0, 0]
    assert board.rows()[4].startswith("Dice: out of range")


def test_ties_are_shared_wins():
    board = started(players=2)
    board.script("press OK\n" + "press DOWN\n" * 4 + "press OK\npress OK")  # basket empty
    assert board.rows()[1] == "▶♥P1*  0 dice       1"
    assert board.rows()[2] == " ●P2*  0 dice       1"
    board.script("press OK\npress OK\npress OK")  # P2, save, record
    assert board.app.history[-1][3:5] == [[1, 1], [0, 1]]


def test_basket_empty_from_the_menu_ends_at_once_after_asking():
    board = started()
    board.script("press OK\n" + "press DOWN\n" * 4 + "press OK")
    assert board.rows()[0] == "Basket empty: end the"
    board.script("press BACK")  # no: back in the menu
    assert state(board)["end"] == 0
    board.script("press OK\npress OK")
    assert state(board)["end"] == 2
    assert board.rows()[0].startswith("Final: dice on vines")


def test_end_game_from_the_menu_goes_to_the_final_score():
    board = started()
    board.script("press OK\n" + "press UP\n" * 3 + "press OK\npress OK")
    assert state(board)["end"] == 3
    assert board.app.snapshot()["screen"] == "Form"


def test_solo_goal_matches_and_the_result():
    board = started(players=1)
    rows = board.rows()
    assert rows[1] == " ♥P1*K 3 · · · · · · "
    assert rows[2] == "Goal     1 2 3 4 5 6 "
    harvest(board)
    harvest(board, 3)
    assert board.rows()[1] == " ♥P1*K 6 1*3×· · · · "  # Karma for one's own vines in solo
    assert board.rows()[3].startswith("1/6 slots matched")
    board.script("press OK\n" + "press DOWN\n" * 4 + "press OK")  # menu: out of dice
    assert board.rows()[0] == "Out of dice: end the "
    board.script("press OK\nwait 3000")
    assert board.rows()[4].startswith("1/6 matched: lost")
    board.script("press OK\npress OK")
    assert board.app.history[-1][3:5] == [[1 + 3 + 3], []]  # lost: no winner


def test_solo_won_with_all_six_slots():
    board = started(players=1)
    for value in (1, 2, 3, 4, 5, 6):
        harvest(board, value)
    board.script("press TURN\nwait 3000")
    assert state(board)["end"] == 1
    assert board.rows()[4].startswith("6/6 matched: won!")


def test_undo_and_redo_walk_back_through_harvests():
    board = started()
    board.script("press DOWN")
    harvest(board, 4)
    assert state(board)["ka"][0] == 5 and state(board)["hv"][1] == [4]
    board.script("press BACK")
    assert state(board)["ka"][0] == 3 and state(board)["hv"][1] == []
    assert board.rows()[0].startswith("Undone")  # 4 players: the top row
    board.script("hold BACK 600")
    assert state(board)["hv"][1] == [4]


def test_a_power_cut_in_the_middle_resumes_the_game():
    board = started(tomato=True)
    board.script("press DOWN")
    harvest(board, 2)
    board.script("press RIGHT\npress OK\nhold LEFT 600\nwait 2500")  # a die not placed: P2
    saved = clone(state(board))
    board.script("power-cut\nwait 500\nboot")
    assert state(board) == saved
    assert board.app.mode == "diced_tomatoes"
    assert board.rows()[2].startswith("▶●P2*K 3 2 · ")
    assert board.rows()[0].startswith("●P2 rolls 3+1 dice")  # 4 players: the top row


# ----------------------------------------------------- every screen fits, in both languages
WALK = [
    NEW,
    "press DOWN\n" * 6,  # every setup field
    "press UP\n" * 6 + "press OK",
    "hold RIGHT 600",  # (Overdose off: refused)
    "press RIGHT",  # harvest form
    "press DOWN\npress RIGHT\npress RIGHT\npress RIGHT\npress UP\npress OK",  # uprooted
    "press DOWN\npress LEFT\npress LEFT\npress LEFT\npress UP\npress RIGHT\npress OK",
    "press LEFT",  # spend
    "press DOWN\npress DOWN\npress DOWN\npress DOWN\npress DOWN\npress OK\npress BACK",
    "hold LEFT 600\nhold LEFT 600\npress OK\n" + "press DOWN\n" * 2 + "press OK",  # carry
    "press RIGHT\npress RIGHT\npress OK",
    "press TURN",
    "press OK\n" + "press DOWN\n" * 3 + "press OK",  # details
    "press DOWN\npress DOWN\nhold OK 600\npress OK\npress BACK",
    "hold OK 600\n" + "press DOWN\n" * 8,  # help
    "press BACK\npress OK\n" + "press DOWN\n" * 4 + "press OK\npress OK",  # basket empty
    "press RIGHT\npress RIGHT\npress DOWN\npress RIGHT\nhold OK 600\npress BACK",
    "press OK\npress OK",  # record: results
]


@pytest.fixture
def strict_rows(monkeypatch):
    """fit/right/centre fail instead of cutting a text (the sub-screens are compiled when
    opened, so patching the view module is enough for them)."""
    import potager.ui.diced_tomatoes as ui
    import potager.ui.menu
    import potager.ui.screens
    import potager.ui.setup
    import potager.ui.table

    def strict(helper):
        def wrapped(text, width=view.COLS, *args):
            assert len(text) <= width, f"clipped to {width}: {text!r}"
            return helper(text, width, *args)

        return wrapped

    modules = (view, ui, potager.ui.menu, potager.ui.screens, potager.ui.setup, potager.ui.table)
    for name in ("fit", "right", "centre"):
        original = getattr(view, name)
        for module in modules:
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, strict(original))


@pytest.mark.parametrize("players", [1, 2, 4, 6])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_screen_fits_21_columns_in_both_languages(language, players, strict_rows):
    board = PureBoard()
    seen = set()
    for i, step in enumerate(WALK):
        if i == 1:
            board.script("press LEFT\n" * (4 - players) + "press RIGHT\n" * (players - 4))
            board.script(
                "press DOWN\npress DOWN\npress DOWN\npress RIGHT\npress UP\npress UP\npress UP"
            )
        for line in step.strip().split("\n"):
            board.script(line)
            if i == 0 and board.app.language != language and board.app.engine is None:
                board.app.set_language(language)
            rows = board.rows()
            assert len(rows) == 5 and all(len(r) <= view.COLS for r in rows), rows
            seen.add(board.app.snapshot()["screen"])
    assert {"SetupScreen", "GameScreen", "Form", "MenuScreen", "HelpScreen"} <= seen


def test_texts_fit_where_they_are_shown_and_use_the_font():
    from host_tools.make_font import CHARSET
    from potager import lang
    from potager.lang import en_diced_tomatoes, fr_diced_tomatoes

    for table_ in (en_diced_tomatoes.T, fr_diced_tomatoes.T):
        texts = lang.Texts([table_])
        for key in lang.keys(table_):
            text = texts.get(key)
            limit = 15 if key.startswith("dt.help_") else 42 if ".question_" in key else 21
            assert len(text.replace("{}", "12")) <= limit, key
            assert all(c in CHARSET for c in text), key
            if ".question_" in key:
                assert len(text[21:].strip()) <= 21, key
            assert len(key) >= 11 or key.startswith("r."), key  # no qstr in the code


# --------------------------------------------------- a whole game, MicroPython and simulator
GAME = (
    "wait 300\n"
    + NEW
    + "press DOWN\npress RIGHT\n"  # Tomato Dice
    + "press OK\n"
    + "press RIGHT\npress OK\n"  # P1 slot 1 = 1*
    + "press TURN\npress UP\npress RIGHT\npress RIGHT\npress OK\n"  # P2 fills P1's slot 2 = 3
    + "press LEFT\npress OK\n"  # P2 spends 1
    + "hold LEFT 600\n"  # P2: a die not placed, and the turn goes on
    + "press RIGHT\npress OK\n"  # P3 slot 1 = 1*
    + "press TURN\npress RIGHT\npress DOWN\npress RIGHT\n"
    + "press OK\n"  # P4: a black die (the seed 2 with it), seed 3: slot 1 = 2
    + "wait 3000\npower-cut\nwait 500\nboot\nwait 500\n"
    + "press TURN\n"
    + "press RIGHT\npress OK\npress RIGHT\npress OK\npress RIGHT\npress OK\n"
    + "press RIGHT\npress OK\n"  # P1 slots 3-6: the last round
    + "press TURN\npress TURN\npress TURN\n"
    + "press RIGHT\npress OK\n"  # P4 slot 2 = 2*
    + "press TURN\n"  # P4 is last: the final score
    + "press RIGHT\npress RIGHT\npress OK\npress RIGHT\npress RIGHT\npress RIGHT\n"
    + "press OK\npress OK\npress OK\nwait 3000\n"  # P1 2, P2 3, P3, P4; the question: record?
)
RECORD = "press OK\nwait 3000\n"


def test_the_whole_game_on_cpython():
    board = PureBoard()
    board.script(GAME)
    final = state(board)
    assert final["hv"] == [[1, 3, 3, 4, 5, 6], [], [1], [2, 2]]
    assert final["ka"] == [3, 4, 3, 3] and final["dv"] == [2, 3, 0, 0] and final["end"] == 1
    board.script(RECORD)
    assert board.app.history[-1][3:5] == [[41, 3, 8, 10], [0]]


@pytest.mark.micropython
def test_the_whole_game_under_micropython_with_the_budget_heap(tmp_path):
    out = mpy_runner.run_app(GAME, tmp_path)
    board = PureBoard()
    board.script(GAME)
    assert out["snapshot"]["state"] == board.app.snapshot()["state"]
    assert out["rows"] == board.rows()
    assert out["idle_growth_bytes"] == 0


def test_the_whole_game_in_the_simulator():
    from host_tools.sim import SimBoard

    board = SimBoard()
    # the board takes a few seconds to start up: a person presses once the screen is up, ~3.1 s
    # after power-on, and ~5.7 s after the power cut (the game's modules load to resume it)
    script = "wait 2700\n" + GAME.replace("boot\nwait 500\n", "boot\nwait 7000\n") + RECORD
    # and the mode's modules take a while to compile when it is chosen and when it starts
    script = script.replace(NEW, NEW + "wait 2500\n", 1)
    script = script.replace("press OK\npress OK\n", "press OK\npress OK\nwait 2500\n", 1)
    result = board.run_script(script)
    assert not result.crashes
    screens = [f["screen"] for f in result.frames]
    assert any(s[0].startswith("Last round") for s in screens)
    final = [s for s in screens if s[0].startswith("Final: dice on vines")]
    assert [" ♥P1*  2 dice      41", "▶●P2   3 dice       3", " ♣P3   0 dice       8"] in [
        s[1:4] for s in final
    ]
    assert screens[-1][0].startswith("Results") and screens[-1][1] == "▶ 1 ♥P1*          41 "
    # the ring during P2's turn: their 5 Karma after their seat (pixel 3), blue. P2 plays: the
    # star on their row (row 0 is not always the header: with 4 players, the messages go there)
    blue = [f["leds"] for f in result.frames if any("●P2*K" in r for r in f["screen"][1:])]
    assert any(leds[4:9] == [leds[4]] * 5 and leds[4] != "#000000" for leds in blue)
    assert result.state["mode"] is None  # recorded: back home


def test_the_demo_script_runs_in_the_simulator_and_shows_the_stars():
    from host_tools.sim import SimBoard

    script = (ROOT / "docs" / "scripts" / "diced_tomatoes.txt").read_text()
    result = SimBoard().run_script(script)
    assert not result.crashes
    rows = result.frames[-1]["screen"]
    assert rows[1] == "▶♥P1*K 3 1*3 3*· · · "
    assert rows[2] == " ●P2 K 5 · · · · · · "


# ------------------------------------------------------------------------------ the CLI
def test_the_cli_refuses_an_uprooted_harvest_in_one_line():
    data = {"players": [{"name": "A", "harvests": [0], "karma": 3, "dice_on_vines": 0,
            "triggered_end": False}] * 2}  # fmt: skip
    data["players"] = [dict(data["players"][0], name=n) for n in "AB"]
    done = subprocess.run(
        [sys.executable, "-m", "host_tools", "score", "diced-tomatoes"],
        input=json.dumps(data), capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "players[0].harvests[0]: must be an integer 1-6 "
        "(value 0 means the vine was uprooted, not harvested)"
    ]


def test_random_keys_never_crash_and_keep_the_invariants():
    rng = random.Random(7)
    board = PureBoard()
    board.script(NEW + "press OK\npress OK")
    for _ in range(1000 * SCALE):  # (tests/soak.py)
        board.key(rng.choice(["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN"]),
                  80 if rng.random() < 0.85 else 700)  # fmt: skip
        if board.app.engine is not None and board.app.mode == "diced_tomatoes":
            dt.check(board.app.engine.state)
        assert all(len(r) <= view.COLS for r in board.rows())


def test_hold_turn_gives_the_turn_back_with_the_dice_received_and_survives_a_power_cut():
    board = started()
    app = board.app
    assert app.act((dt.CARRY, 2, 0))  # P1 passes 2 dice on
    board.script("press TURN")
    assert app.act((dt.CARRY, 5, 0))  # P2 rolled 3 + 2: passes 5 on
    board.script("press TURN\nhold TURN 600")  # P3 takes the TURN back
    s = state(board)
    assert (s["act"], s["extra"], s["held"]) == (1, 2, 5)
    dt.check(s)  # was: extra 0 with 5 held, against the mode's own invariant
    board.script("wait 3000\npower-cut\nwait 500\nboot\nwait 100")
    assert board.app.engine is not None and state(board)["held"] == 5
    assert "unreadable" not in board.rows()[4]


def test_hold_turn_gives_back_the_karma_above_6():
    engine = Engine(dt, dt.new(3, [0, 1, 2]))
    for action in ((dt.HARVEST, 1, 6), (dt.HARVEST, 2, 6), (table.NEXT, 5, 0)):
        assert engine.apply(action) is None
    assert engine.state["ka"][0] == 6  # 9 was lost at the handover
    assert engine.apply((table.PREV, 0, 0)) is None
    assert engine.state["ka"][0] == 9 and engine.state["act"] == 0
    dt.check(engine.state)


@pytest.mark.parametrize("first", [0, 2])
def test_counter_clockwise_the_player_before_the_start_in_turn_order_plays_last(first):
    engine = Engine(dt, dt.new(4, [0, 1, 2, 3], first))
    assert engine.apply((table.SET, table.S_DIR, -1)) is None
    assert engine.state["mark"] == (first + 1) % 4  # before the start, going the other way
    assert engine.apply((table.SET, table.S_DIR, -1)) is None  # the same value: no move
    assert engine.state["mark"] == (first + 1) % 4
    for _ in range(6):
        assert engine.apply((dt.HARVEST, first, 1)) is None  # the start fills their track
    for _ in range(3):
        assert engine.apply((table.NEXT, 1, 0)) is None
    assert not engine.state["end"]  # three turns: the marker holder's is the last
    assert engine.apply((table.NEXT, 1, 0)) is None
    assert engine.state["end"] == 1
