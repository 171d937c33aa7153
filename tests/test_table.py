"""Table services through the real App on the virtual clock: turn order, timers and their
warning stages on the ring, time banks, pause, sleep and wake, the ticks wrap-around."""

import itertools

import pytest

from host_tools.mpy.pureboard import WRAP, PureBoard
from potager.core import table
from potager.ui.table import (
    ACTIVE_LEVEL,
    DRAIN_LEVEL,
    NEXT_LEVEL,
    SEAT_LEVEL,
    clock_text,
)
from potager.ui.view import COLOURS, dim

NEW_GAME = "press DOWN\npress OK\npress OK\npress OK\n"  # English, free score for 4: OK starts it


def game(now=0, **settings):
    board = PureBoard(now=now)
    board.script(NEW_GAME)
    for setting, value in settings.items():
        assert board.app.act((table.SET, getattr(table, "S_" + setting.upper()), value))
    board.run(10)
    return board


TIMER_RGB = 0xFFFFFF  # the countdown's colour: dim white, off the seats


def first_marker(state, pixels):
    """The pixel before the first player's seat, unless a seat is there."""
    marker = (state["seat"][state["first"]] - 1) % pixels
    return -1 if marker in state["seat"] else marker


def drain(board):
    """The pixels of the countdown (neither a seat's nor the first player's marker)."""
    state = board.app.engine.state
    taken = state["seat"] + [first_marker(state, 12)]
    return [c for i, c in enumerate(board.pixels.leds) if i not in taken and c]


def rhythm(board, ms=2000, step=50):
    """How many countdown pixels were lit, sampled over `ms`."""
    seen = set()
    for _ in range(ms // step):
        board.run(step)
        seen.add(len(drain(board)))
    return seen


SEAT_SHADES = {dim(c[0], level) for c in COLOURS for level in (SEAT_LEVEL, NEXT_LEVEL, 255)}


def test_clock_text():
    assert [clock_text(s) for s in (0, 9, 75, 3600, 3725, -42)] == [
        "0:00", "0:09", "1:15", "1:00:00", "1:02:05", "-0:42"
    ]  # fmt: skip


def test_turn_countdown_goes_through_every_warning_stage_never_in_a_seat_colour():
    board = game(tt=60)
    assert board.rows()[0].startswith("Round 1 1:00")
    full = len(drain(board))
    assert full == 7  # 12 pixels, 4 of them seats, one the first player's marker
    timer = dim(TIMER_RGB, DRAIN_LEVEL)
    assert timer not in SEAT_SHADES  # no seat, at any of its levels, looks like the timer
    board.run(20_000)  # 40 s left: first stage, partly drained, steady
    assert set(drain(board)) == {timer} and len(drain(board)) < full
    assert len(rhythm(board, 1000)) == 1
    board.run(14_000)  # 25 s left: below half, blinking
    assert set(drain(board)) <= {timer} and 0 in rhythm(board)
    board.run(13_000)  # 11 s left: last fifth, blinking fast
    assert 0 in rhythm(board, 500)
    assert board.rows()[0].startswith("Round 1 0:1")
    board.run(12_000)  # overtime: shown, never hidden, every free pixel blinking
    assert board.rows()[0].startswith("Round 1 +0:0")
    assert rhythm(board, 600, 100) == {0, 7}


def test_the_ring_marks_the_first_player_and_who_passed():
    board = game()
    leds = board.pixels.leds
    state = board.app.engine.state
    marker = first_marker(state, 12)
    assert marker == 11 and leds[11] == dim(COLOURS[0][0], SEAT_LEVEL)  # before seat 0
    assert board.app.act((table.NEXT, 1, 0)) and board.app.act((table.PASS, 1, 0))
    board.run(10)
    assert "♥P1»" in board.rows()[1] and "♣P3*" in board.rows()[2]
    assert "●P2×" in board.rows()[1]
    seen = set()
    for _ in range(20):
        board.run(50)
        seen.add(leds[state["seat"][1]])
    assert seen == {0, dim(COLOURS[1][0], SEAT_LEVEL)}  # passed: only a glimmer
    board.script("press TURN\npress TURN")  # round 2: nobody out
    assert board.app.engine.state["rnd"] == 2 and "×" not in "".join(board.rows())


def test_handover_restarts_the_countdown_and_counts_the_turn():
    board = game(tt=30)
    board.run(12_000)
    board.script("press TURN")
    state = board.app.engine.state
    assert state["act"] == 1 and state["used"][0] == 12 and state["turns"][0] == 1
    assert board.rows()[0].startswith("Round 1 0:30")


def test_time_bank_with_increment():
    board = game(tb=300, inc=10)
    assert board.rows()[0].startswith("Round 1 B5:00")
    board.run(100_000)
    board.script("press TURN")
    assert board.app.engine.state["bk"][0] == 300 - 100 + 10
    for _ in range(3):
        board.script("press TURN")
    board.run(45_000)
    assert board.rows()[0].startswith("Round 2 B2:4")  # 210 s banked, 45 s used


def test_pause_stops_the_clock():
    board = game(tt=60)
    board.run(10_000)
    board.script("press OK\n" + "press DOWN\n" * 5 + "press OK")  # Pause timers
    assert board.rows()[0].startswith("Round 1 PAUSE")
    board.run(30_000)
    board.script("press OK\n" + "press DOWN\n" * 5 + "press OK")  # Resume timers
    left = board.rows()[0].split()[2]
    assert left in ("0:49", "0:50")  # about 11 s used: the 30 s of pause do not count


def test_pass_takes_a_player_out_until_the_round_ends():
    board = game(lap=0)
    board.script("press OK\n" + "press DOWN\n" * 3 + "press OK")  # Pass
    assert board.app.engine.state["out"] == 1
    board.script("press TURN\npress TURN\npress TURN")
    assert board.app.engine.state["act"] == 1  # P1 is skipped
    for _ in range(3):
        board.script("press OK\n" + "press DOWN\n" * 3 + "press OK")
    state = board.app.engine.state
    assert state["rnd"] == 2 and state["out"] == 0 and state["act"] == 0


def test_ring_shows_seats_next_player_and_the_active_blink():
    board = game()
    board.run(700 - board.now % 1000 + 50)  # into the dark part of the blink
    leds = board.pixels.leds
    colour = [rgb for rgb, _, _ in COLOURS]
    assert leds[0] == dim(colour[0], SEAT_LEVEL)  # active (red) in its dark phase
    assert leds[3] == dim(colour[1], NEXT_LEVEL)  # next (blue) previewed
    assert leds[6] == dim(colour[2], SEAT_LEVEL) and leds[9] == dim(colour[3], SEAT_LEVEL)
    board.run(400)
    assert board.pixels.leds[0] == dim(colour[0], ACTIVE_LEVEL)


def test_seat_positions_are_configurable():
    board = game()
    board.script("press OK\n" + "press DOWN\n" * 6 + "press OK")  # Table & timers
    board.script("press DOWN\n" * 8 + "press LEFT")  # P2's seat: 3h -> 2h
    assert board.app.engine.state["seat"][1] == 2
    board.script("press BACK\npress BACK\npress BACK")  # out of the menus, then undo
    assert board.app.engine.state["seat"][1] == 3


def test_dims_then_sleeps_then_wakes_with_the_game_and_timers_intact():
    board = game(tt=600)
    board.run(3 * 60_000)
    assert board.app.power.state == 1 and max(board.pixels.leds) <= 0x400000
    board.run(12 * 60_000)
    assert board.app.power.state == 2 and not board.display.awake
    assert board.pixels.leds == [0] * 12
    board.script("press RIGHT")  # wakes only: the key does nothing else
    assert board.display.awake and board.app.engine.state["sc"][0] == 0
    assert board.rows()[0].startswith("Round 1 +5:00")  # 15 min of a 10 min turn
    board.script("press RIGHT")
    assert board.app.engine.state["sc"][0] == 1


@pytest.mark.parametrize("start", [WRAP - 30_000, WRAP - 10])
def test_timers_and_holds_across_the_ticks_wrap(start):
    board = game(now=start, tt=60)
    board.run(40_000)  # the device clock wraps in here
    assert board.rows()[0].startswith("Round 1 0:2")
    board.script("hold RIGHT 1000\npress TURN")
    state = board.app.engine.state
    assert state["sc"][0] == 20 and 40 <= state["used"][0] <= 42


# ---------------------------------------------------------------- faults found at the table
MENU = "press OK\n"


def menu(item):
    """The game menu's item by name (free score lists every item)."""
    from potager.ui.menu import MenuScreen

    return MENU + "press DOWN\n" * MenuScreen.ITEMS.index(item) + "press OK\n"


class Sound:
    def __init__(self):
        self.tones = []

    def start(self, hz):
        self.tones.append(hz)

    def stop(self):
        pass


@pytest.mark.parametrize("then", ["press TURN", menu("pass"), "press TURN\npress BACK"])
def test_a_paused_countdown_survives_a_handover(then):
    board = game(tt=60)
    board.run(10_000)
    board.script(menu("pause") + then)  # raised IndexError (Error 011A) on every step before
    board.run(5_000)
    assert board.rows()[0].startswith("Round 1 PAUSE")
    assert len(board.pixels.leds) == 12
    board.script(menu("pause"))
    left = board.rows()[0].split()[2]
    if then.endswith("BACK"):  # the turn taken back goes on from its 10 s
        assert left in ("0:49", "0:50")
    else:
        assert left in ("1:00", "0:59")


def test_a_paused_bank_gives_the_next_player_nothing_extra():
    board = game(tb=300)
    board.script(menu("pause") + "press TURN")
    board.run(60_000)
    board.script(menu("pause"))
    assert board.rows()[0].startswith("Round 1 B5:00") or board.rows()[0].startswith(
        "Round 1 B4:59"
    )


@pytest.mark.parametrize("item", ["pass", "skip", "undo"])
def test_the_cursor_follows_the_turn_moved_from_the_menu(item):
    board = game(lap=0)
    board.script("press TURN\npress TURN" if item == "undo" else "")
    board.script(menu(item) + ("press BACK\n" if item == "undo" else "") + "press RIGHT")
    state = board.app.engine.state
    assert state["sc"][state["act"]] == 1  # the point went to the active player


def test_skip_by_the_last_player_of_a_lap_skips_the_next_rounds_first():
    board = game()
    board.script("press TURN\npress TURN\npress TURN" + "\n" + menu("skip"))
    state = board.app.engine.state
    assert state["rnd"] == 2 and state["act"] == 1


def test_hold_turn_takes_back_a_handover_on_the_second_lap_of_an_all_passed_round():
    board = game(lap=0)
    board.script("press TURN\n" * 5)  # P1 plays again, then hands over to P2
    assert board.app.engine.state["act"] == 1
    board.script("hold TURN 600\nhold TURN 600")
    state = board.app.engine.state
    assert state["act"] == 3 and state["turns"] == [1, 1, 1, 0]  # taken back: no turns


def test_turn_then_back_keeps_the_thinking_time_on_the_bank():
    board = game(tb=300)
    board.run(100_000)
    board.script("press TURN\npress BACK")
    assert board.rows()[0][8:13] in ("B3:20", "B3:19")  # 100 s thought, still counted
    board.script("press TURN")
    assert board.app.engine.state["bk"][0] in (199, 200)


def test_a_taken_back_handover_is_no_turn():
    board = game(tb=300, inc=10)
    board.run(20_000)
    board.script("press TURN")
    board.run(5_000)
    board.script("hold TURN 600")
    state = board.app.engine.state
    assert state["act"] == 0 and state["turns"] == [0, 0, 0, 0] and state["used"][0] == 0
    assert state["bk"][0] == 300 and state["long"][0] == 0
    assert board.rows()[0].startswith("Round 1 B4:3")  # P1's turn runs on: 20 + 5 s


def test_the_first_turn_starts_with_the_game_not_during_the_setup():
    board = game()
    board.script(menu("new_game") + "press OK\n")  # yes: the setup again
    board.run(30_000)
    board.script("press OK\npress OK\npress TURN")
    assert board.app.engine.state["used"][0] <= 1


@pytest.mark.parametrize("clock", ["tt", "tb", "rt"])
def test_a_power_cut_brings_the_clocks_back_within_15_s(clock):
    board = game(**{clock: 600})
    board.run(40_000)
    board.script("power-cut\nwait 1000\nboot\nwait 100")
    text = board.rows()[0].split()[2].lstrip("BR")
    minutes, seconds = text.split(":")
    left = int(minutes) * 60 + int(seconds)
    assert 560 - 1 <= left <= 560 + 15  # 9:20 left when the power went


def test_a_running_clock_is_saved_at_most_once_per_15_s():
    board = game(tt=600)
    board.run(10_000)
    before = len(board.writes)
    board.run(120_000)  # no key: only the clock checkpoints
    written = board.writes[before:]
    assert 7 <= len(written) <= 9
    assert all(b - a >= 15_000 for a, b in itertools.pairwise(written))
    board.script(menu("pause"))
    board.run(1_000)
    paused = len(board.writes)
    board.run(60_000)
    assert len(board.writes) == paused  # a paused clock does not wear the flash


def test_every_running_clock_is_shown_and_the_round_timer_warns():
    board = game(tt=60, tb=600, rt=300)
    board.app.sound = Sound()
    seen = set()
    for _ in range(10):
        board.run(1_000)
        seen.add(board.rows()[0].split()[2][0])
    assert {"0", "B", "R"} <= seen  # the countdown, the bank, the round timer take turns
    board = game(rt=100)
    board.app.sound = Sound()
    board.run(51_000)  # half the round gone
    assert board.app.sound.tones == [1500]


def test_a_bank_run_out_beeps_and_earns_no_bonus():
    board = game(tb=30, inc=10)
    board.app.sound = Sound()
    board.run(40_000)
    assert board.app.sound.tones[-1] == 1000 + 500 * 3  # overtime
    assert board.rows()[0].startswith("Round 1 B-0:1")
    board.script("press TURN")
    assert board.app.engine.state["bk"][0] == -10  # no +10: the bank had run out


def test_menus_list_only_what_the_mode_allows():
    from potager.ui.menu import MenuScreen

    board = game()
    board.script(MENU)
    assert len(board.app.screen().items(board.app)) == len(MenuScreen.ITEMS)
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress DOWN\npress OK\npress LEFT\n")
    board.script("press OK\npress OK")  # Horticolor for 3 (OK starts it), its menu
    items = board.app.screen().items(board.app)
    for text in ("Pass (out for round)", "Skip the next player", "Round +1", "Round -1"):
        assert text not in items
    board.script("press DOWN\n" * items.index("Table & timers") + "press OK")
    assert "Order" not in "".join(board.app.screen().items(board.app))  # clockwise only
