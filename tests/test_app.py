"""The App on pure fakes: screens, keys, saving policy, power cuts, bad saves; and the same
script under the real MicroPython with the heap budget and no idle allocation."""

import sys

import mpy_runner
import pytest

from host_tools.mpy.pureboard import PureBoard
from potager.core import persist, registry

pytestmark = pytest.mark.usefixtures("invariants")  # the mode's invariants after every action

# first boot: French is offered first; choose English, then a free-score game of 4
NEW_GAME_EN = """
press DOWN
press OK        # English
press OK        # Free score
press OK        # start with 4 players
"""


def started(script=NEW_GAME_EN):
    board = PureBoard()
    board.script(script)
    return board


def test_first_boot_asks_the_language():
    board = PureBoard()
    assert board.rows()[0].startswith("Langue / Language")
    board.script("press OK")
    assert board.app.language == "fr"
    assert board.rows()[1].startswith("▶Score libre")


def test_free_score_screen_shows_players_with_symbols_and_the_active_seat():
    board = started()
    rows = board.rows()
    assert rows[0].startswith("Round 1") and rows[0].endswith("♥P1")
    assert rows[1] == "▶♥P1*    0  ●P2     0"
    assert rows[2] == " ♣P3     0  ▲P4     0"
    leds = board.pixels.leds
    # four seats lit, and the pixel before the first player's: the round starts there
    assert [i for i, c in enumerate(leds) if c] == [0, 3, 6, 9, 11]
    assert leds[0] == 0xFF0000  # active seat full (blink on at t%1000 < 700)


def test_short_press_is_one_point_and_hold_is_tens():
    board = started()
    board.script("press RIGHT\npress RIGHT\nhold RIGHT 1000\nhold LEFT 600")
    assert board.app.engine.state["sc"][0] == 2 + 20 - 10


def test_turn_hands_over_and_hold_turn_goes_back():
    board = started()
    board.script("press TURN\npress TURN")
    assert board.app.engine.state["act"] == 2
    assert board.rows()[2].startswith("▶♣P3*")  # the cursor follows the active player
    board.script("hold TURN 600")
    assert board.app.engine.state["act"] == 1
    board.script("press TURN\npress TURN\npress TURN")
    assert board.app.engine.state["rnd"] == 2


def test_active_seat_blinks_on_the_ring():
    board = started()
    seen = set()
    for _ in range(10):
        board.run(100)
        seen.add(board.pixels.leds[0])
    assert seen == {0xFF0000, 0x180000}  # bright and dim: colour is not the only cue


def test_back_undoes_and_hold_back_redoes():
    board = started()
    board.script("press DOWN\npress RIGHT\npress RIGHT")
    assert board.app.engine.state["sc"][1] == 2
    board.script("press BACK")
    assert board.app.engine.state["sc"][1] == 1
    assert board.rows()[4].startswith("Undone")
    board.script("hold BACK 600")
    assert board.app.engine.state["sc"][1] == 2


def test_refusal_shows_a_message_and_flashes_red():
    board = started()
    board.script("hold TURN 600")  # nobody before the first player in round 1
    assert board.rows()[4].startswith("Already at the start")
    assert all(c == 0x3C0000 for c in board.pixels.leds)
    board.run(400)
    assert board.pixels.leds[3] != 0x3C0000  # the flash is brief


def test_help_lists_the_keys_of_the_current_screen():
    board = started()
    board.script("hold OK 600")
    rows = board.rows()
    assert rows[0].startswith("Help")
    assert "choose player" in rows[1]
    board.script("press OK")
    assert board.rows()[0].startswith("Round 1")


def test_menu_sets_round_and_returns():
    board = started()
    board.script("press OK\n" + "press DOWN\n" * 8 + "press OK\npress BACK")  # Round +1
    assert board.app.engine.state["rnd"] == 2
    assert board.rows()[0].startswith("Round 2")


def test_new_game_asks_before_discarding():
    board = started()
    board.script("press RIGHT\npress OK" + "\npress UP" * 2 + "\npress OK")  # menu: New game
    assert "Discard" in board.rows()[0]
    board.script("press BACK")  # no: back in the menu, the game untouched
    assert board.app.snapshot()["screen"] == "MenuScreen"
    assert board.app.engine.state["sc"][0] == 1
    board.script("press OK\npress OK")
    assert board.app.snapshot()["screen"] == "SetupScreen"


def test_setup_refuses_out_of_range_players_with_a_message():
    board = started("press DOWN\npress OK\npress OK\n" + "press RIGHT\n" * 3)
    assert board.rows()[1].endswith("6 ")
    assert board.rows()[4].startswith("Players: out of range")


def test_setup_colours_skip_taken_ones():
    board = started("press DOWN\npress OK\npress OK\npress DOWN\npress DOWN\npress RIGHT")
    # P1 was red; blue..yellow are P2..P4's: the next free colour is purple
    assert "◆ purple" in board.rows()[3]


# --------------------------------------------------------------- saving
def test_saves_after_a_quiet_moment_never_twice_within_two_seconds():
    board = started()
    board.script("press RIGHT\n" * 30 + "wait 3000\n" + "press TURN\nwait 3000\n" * 4)
    gaps = [b - a for a, b in zip(board.writes, board.writes[1:], strict=False)]
    assert min(gaps) >= 2000
    assert len(board.writes) <= 7  # setup, 30 presses, 4 handovers


def test_power_cut_resumes_the_game_and_loses_at_most_two_seconds():
    board = started()
    board.script("press RIGHT\npress TURN\npress RIGHT\nwait 2500\npress DOWN\npress RIGHT")
    board.script("power-cut\nwait 500\nboot")
    state = board.app.engine.state
    assert state["act"] == 1 and state["sc"][:2] == [1, 1]  # the last press was < 2 s old
    assert board.rows()[0].startswith("Round 1")
    assert board.app.language == "en"


def test_undo_history_survives_a_power_cut():
    board = started()
    board.script("press RIGHT\npress RIGHT\nwait 3000\npower-cut\nboot\nwait 1000\npress BACK")
    assert board.app.engine.state["sc"][0] == 1


def test_corrupt_save_starts_clean_with_a_message():
    nvm = bytearray(b"\x5a" * 4096)
    board = PureBoard(nvm)
    assert board.app.engine is None
    assert board.rows()[4].startswith("Save unreadable")
    assert board.app.snapshot()["screen"] == "HomeScreen"


def test_save_that_breaks_the_rules_is_not_trusted():
    nvm = bytearray(b"\xff" * 4096)
    bad = {"lang": "fr", "mode": "free", "base": {"n": 9, "col": [], "act": 0, "first": 0,
           "rnd": 1, "sc": []}}  # fmt: skip
    persist.Store(nvm).save(persist.encode_payload(bad, []))
    board = PureBoard(nvm)
    assert board.app.engine is None
    assert board.rows()[4].startswith("Partie illisible")  # the language is kept


def test_without_nvm_the_device_still_plays_and_says_so():
    board = PureBoard()
    board.app = None
    from potager.app import App

    board.app = App(board.display, board.pixels, board.buttons, None, board.now)
    board.run(20)
    assert board.rows()[4].startswith("No NVM")
    board.script(NEW_GAME_EN.replace("press DOWN\npress OK        # English\n", ""))
    assert board.app.engine.state["n"] == 4


def test_crash_in_a_screen_is_recovered_with_the_game_kept():
    board = started()
    board.script("press RIGHT")
    screen = board.app.screen()
    screen.rows = None  # a bug in drawing
    board.app.changed()
    with pytest.raises(TypeError) as error:
        board.app.step(board.now + 10)
    code = board.app.recover(error.value, board.now)
    board.run(10)
    assert board.rows()[0] == "Error " + code + " " * (15 - len(code))
    board.run(3100)
    assert board.app.snapshot()["screen"] == "GameScreen"
    assert board.app.engine.state["sc"][0] == 1


# ----------------------------------------------------------- MicroPython
SCRIPT = NEW_GAME_EN + "press RIGHT\nhold RIGHT 1000\npress TURN\npress DOWN\npress LEFT\n"


@pytest.mark.micropython
def test_same_game_under_micropython_fixed_heap_and_idle_loop_allocates_nothing(tmp_path):
    out = mpy_runner.run_app(SCRIPT, tmp_path)
    board = started(SCRIPT)
    assert out["snapshot"]["state"] == board.app.snapshot()["state"]
    assert out["rows"] == board.rows()
    assert out["idle_growth_bytes"] == 0


def test_end_game_files_the_result_and_shows_ranking_and_statistics():
    board = started()
    board.script("press RIGHT\nwait 5000\npress TURN\npress RIGHT\npress RIGHT\nwait 12000")
    board.script("press TURN\npress OK" + "\npress UP" * 3 + "\npress OK")  # End game
    assert "End the game" in board.rows()[0]
    board.script("press OK")
    rows = board.rows()
    assert rows[0].startswith("Results")
    assert rows[1] == "▶ 1 ●P2*           2 " and rows[2] == "  2 ♥P1            1 "
    assert rows[3] == "  3 ♣P3            0 " and rows[4] == "  3 ▲P4            0 "
    board.script("press DOWN\n" * 5)
    assert board.rows()[3] == "    turns  time   max"
    assert board.rows()[4] == "▶♥P1    1  0:05  0:05"
    assert board.app.history[-1][1:5] == ["free", [0, 1, 2, 3], [1, 2, 0, 0], [1]]
    assert board.app.engine is None
    board.script("press OK")
    assert board.app.snapshot()["screen"] == "HomeScreen"


def test_a_new_player_never_gets_a_colour_already_taken():
    # 3 players, P3 changed to yellow (P4's default), then a 4th player
    board = started("press DOWN\npress OK\npress OK\npress LEFT\n" + "press DOWN\n" * 4)
    board.script("press RIGHT\npress UP\npress UP\npress UP\npress UP\npress RIGHT")
    values = board.app.screen().values
    assert values["players"] == 4 and len(set(values["col"][:4])) == 4


def forget_modes():
    """The modes' and the setup's modules out of sys.modules (other tests loaded them)."""
    from potager.core import registry

    for key in registry.names():
        registry.unload(key)
    registry.forget("potager.ui.setup")
    registry.forget("potager.ui.table_setup")


def test_home_loads_the_mode_under_the_cursor_between_keys_and_lets_the_last_one_go():
    board = PureBoard()
    board.script("press DOWN\npress OK")  # first boot: English; home, cursor on Free score
    forget_modes()
    board.app.dirty = True  # drawn again: its upcoming modules are loaded in the steps after
    board.script("wait 200")
    assert "potager.ui.setup" in sys.modules
    assert "potager.ui.free" in sys.modules
    board.script("press DOWN\nwait 200")  # Diced Tomatoes
    assert "potager.ui.diced_tomatoes" in sys.modules
    assert "potager.core.games.diced_tomatoes" in sys.modules
    assert "potager.ui.table_setup" in sys.modules  # the setup's fields
    assert "potager.ui.free" not in sys.modules  # left: its RAM back
    board.script("press OK")
    assert board.rows()[0].startswith("Diced Tomatoes")


def test_a_key_held_down_puts_off_the_loading_ahead():
    board = PureBoard()
    board.script("press DOWN\npress OK")
    forget_modes()
    board.app.dirty = True
    board.key("UP", 300)  # held (a repeat of a list key): nothing is loaded meanwhile
    loaded_while_held = "potager.ui.setup" in sys.modules
    board.script("wait 200")
    assert not loaded_while_held
    assert "potager.ui.setup" in sys.modules


def test_diced_tomatoes_harvest_form_is_loaded_ahead_and_kept():
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress OK\npress OK")  # DT, 3 players
    assert board.rows()[0].startswith("Round 1")
    board.script("wait 200")
    assert "potager.ui.diced_tomatoes_harvest" in sys.modules
    board.script("press RIGHT\npress OK\nwait 200")  # a harvest: the form opened and closed
    assert "potager.ui.diced_tomatoes_harvest" in sys.modules


def test_hortis_checks_are_loaded_with_the_setup_and_let_go_when_the_game_starts():
    # the rules' check() imports them: loaded at start they cost the board ~10 ms of the
    # screen change; kept, their RAM would stay with the game
    board = PureBoard()
    board.script("press DOWN\npress OK" + "\npress DOWN" * 3 + "\npress OK")  # HORTIS setup
    assert board.rows()[0].startswith("HORTIS")
    forget_modes()
    registry.forget("potager.core.games.hortis_check")
    board.app.dirty = True
    board.script("wait 300")
    assert "potager.core.games.hortis_check" in sys.modules
    board.script("press UP\npress OK")  # Start: a quick count
    assert board.app.engine is not None and board.rows()[0].startswith("Score 0")
    assert "potager.core.games.hortis_check" not in sys.modules
    assert "potager.core.table_check" not in sys.modules


def test_nothing_is_loaded_ahead_on_a_tight_heap(monkeypatch):
    import gc

    from potager.core import registry

    board = PureBoard()
    board.script("press DOWN\npress OK")
    forget_modes()
    # the board's gc says how much heap is free; here, less than the loading ahead leaves
    monkeypatch.setattr(gc, "mem_free", lambda: registry.ROOMY - 1, raising=False)
    board.app.dirty = True
    board.script("wait 200")
    assert "potager.ui.setup" not in sys.modules
    board.script("press OK")  # loaded when needed, as the setup opens
    assert board.rows()[0].startswith("Free score")
    monkeypatch.setattr(gc, "mem_free", lambda: registry.ROOMY, raising=False)
    board.script("press BACK\nwait 200")
    assert "potager.ui.free" in sys.modules


def test_a_heap_nearly_full_is_collected_after_the_frame_not_in_the_next_key(monkeypatch):
    # a collection costs the board 10-15 ms in whichever step finds the heap full: when a
    # frame is out and nothing is left to load, a heap this full is collected there and then
    import gc

    from potager import app as app_module

    board = PureBoard()
    board.script(NEW_GAME_EN + "wait 500")  # a free game, its modules loaded ahead
    app = board.app
    free = [app_module.TIDY_BYTES - 1]
    steps = []  # [drew, collections] for each step from here
    real_collect, real_step, real_draw = gc.collect, app.step, app.draw

    def collect():
        free[0] = 10**6
        steps[-1][1] += 1
        return real_collect()

    def step(now):
        steps.append([False, 0])
        real_step(now)

    def draw():
        steps[-1][0] = True
        real_draw()

    monkeypatch.setattr(gc, "mem_free", lambda: free[0], raising=False)
    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(app, "step", step)
    monkeypatch.setattr(app, "draw", draw)
    board.script("press RIGHT\nwait 200")  # P1 +1: a frame
    drew = [i for i in range(len(steps)) if steps[i][0]]
    assert len(drew) == 1  # the key's frame, then the collection in the next step
    assert [n for _, n in steps] == [0] * (drew[0] + 1) + [1] + [0] * (len(steps) - drew[0] - 2)
    assert app.engine.state["sc"][0] == 1
    steps.clear()
    free[0] = app_module.TIDY_BYTES  # room enough: nothing is collected
    board.script("press RIGHT\nwait 200")
    assert steps and sum(n for _, n in steps) == 0 and app.engine.state["sc"][0] == 2


def test_a_game_that_cannot_start_for_want_of_memory_keeps_its_setup(monkeypatch):
    # a MemoryError as the game starts is the heap's: the app's recovery reports it, and the
    # form's values stay the mode's last setup (not the defaults, as for a remembered setup
    # this firmware cannot play, with "setup unusable")
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress DOWN\npress OK\npress LEFT")
    assert board.rows()[0].startswith("Horticolor") and "3" in board.rows()[1]

    def no_room(values):
        raise MemoryError("memory allocation failed")

    monkeypatch.setattr(registry.screens("horticolor"), "new_state", no_room)
    with pytest.raises(MemoryError):
        board.script("press OK")
    assert board.app.records["last_setups"]["horticolor"][0]["players"] == 3
    assert board.app.engine is None and board.app.message is None


@pytest.mark.parametrize("texts", [None, "free"])
def test_a_module_that_is_not_there_is_tried_once(monkeypatch, texts):
    import builtins

    # Free score has no texts of its own, and its descriptor says so: they are not looked
    # for; a descriptor naming texts that are not there, once
    free = registry.entry("free")
    free_texts = free[: registry.TEXTS] + (texts,) + free[registry.TEXTS + 1 :]
    monkeypatch.setattr(
        registry, "MODES", tuple(free_texts if m is free else m for m in registry.MODES)
    )
    board = PureBoard()
    board.script("press DOWN\npress OK")  # home, cursor on Free score
    forget_modes()
    tried = []
    real_import = builtins.__import__

    def counting_import(name, *args, **kwargs):
        if name == "potager.lang.en_free":
            tried.append(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counting_import)
    for _ in range(3):
        board.app.dirty = True
        board.script("wait 200")
    assert "potager.ui.free" in sys.modules
    assert tried == ([] if texts is None else ["potager.lang.en_free"])


def test_diced_tomatoes_harvest_form_stays_when_only_garbage_fills_the_heap(monkeypatch):
    import gc

    from potager.core import registry

    # the board's gc.mem_free() counts the garbage not yet collected as used: the harvest's
    # room is judged after a collection, or it went (and was loaded again) at every opening
    free = [registry.ROOMY]
    real_collect = gc.collect

    def collect():
        free[0] = registry.ROOMY
        return real_collect()

    monkeypatch.setattr(gc, "mem_free", lambda: free[0], raising=False)
    monkeypatch.setattr(gc, "collect", collect)
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress OK\npress OK\nwait 200")  # DT, 4p
    kept = sys.modules["potager.ui.diced_tomatoes_harvest"]
    free[0] = registry.ROOMY - 1  # garbage since the last collection
    board.script("press RIGHT\npress OK\nwait 200")
    assert board.rows()[0].startswith("♥P1 slot 1 = 1")  # the harvest entered (P4 below)
    assert sys.modules.get("potager.ui.diced_tomatoes_harvest") is kept


def test_diced_tomatoes_harvest_form_goes_after_use_on_a_tight_heap(monkeypatch):
    import gc

    from potager.core import registry

    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress OK\npress OK")  # DT, 3 players
    registry.forget("potager.ui.diced_tomatoes_harvest")
    monkeypatch.setattr(gc, "mem_free", lambda: registry.ROOMY - 1, raising=False)
    board.script("wait 200")
    assert "potager.ui.diced_tomatoes_harvest" not in sys.modules  # not loaded ahead
    board.script("press RIGHT")
    assert type(board.app.screen()).__module__ == "potager.ui.diced_tomatoes_harvest"
    board.script("press OK\nwait 200")  # the harvest entered: its module goes with the form
    assert "potager.ui.diced_tomatoes_harvest" not in sys.modules


def test_the_setup_builds_its_fields_once_per_change(monkeypatch):
    from potager.ui import setup

    calls = []
    real = setup.SetupScreen.field_lines

    def counting(self, app, values):
        calls.append(values["players"])
        return real(self, app, values)

    monkeypatch.setattr(setup.SetupScreen, "field_lines", counting)
    board = started("press DOWN\npress OK")  # home: Free score under the cursor
    board.script("press OK")  # the setup opens: drawn once
    assert len(calls) == 1
    board.script("press DOWN\npress UP")  # the cursor moves: the same fields
    assert len(calls) == 1
    board.script("press RIGHT")  # 4 -> 5 players: built anew, drawn
    assert calls[1:] == [5] and "5" in board.rows()[1]
    board.script("press LEFT\npress LEFT")
    assert calls[1:] == [5, 4, 3] and "3" in board.rows()[1]
