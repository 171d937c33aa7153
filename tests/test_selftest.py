"""The safe menu (BACK held while powering on) and the bring-up self-test, in the simulator."""

from host_tools.sim import SimBoard

GAME = "wait 3000\npress DOWN\npress OK\npress OK\npress OK\npress RIGHT\nwait 3000\n"  # OK starts
SAFE = "hold BACK 1200\n"  # held from power-on


def safe_menu():
    board = SimBoard()
    board.run_script(GAME)
    return board


def test_back_held_at_power_on_opens_the_safe_menu_and_resume_keeps_the_game():
    board = safe_menu()
    result = board.run_script(SAFE + "wait 200\n")
    rows = result.frames[-1]["screen"]
    assert rows[0].startswith("Safe menu") and rows[1].startswith("▶Resume")
    result = board.run_script(SAFE + "press OK\n")
    assert result.state["state"]["sc"][0] == 1 and result.state["screen"] == "GameScreen"


def test_the_self_test_shows_pattern_keys_ring_nvm_and_board():
    board = safe_menu()
    script = SAFE + "press DOWN\npress DOWN\npress OK\n"  # Self-test
    result = board.run_script(script + "wait 400\n")
    assert result.frames[-1]["screen"] == ["█" * 21] * 5  # every pixel on
    assert sum(map(sum, board.pixels())) > 0.8 * 128 * 64
    # UP once the key row shows (the patterns take 3 s from a start-up of seconds)
    result = board.run_script(script + "wait 7000\npress UP\nhold TURN 300\nwait 50\n")
    rows = result.frames[-1]["screen"]
    assert rows[0].startswith("Self-test")
    assert rows[1].startswith("raspberry_pi_pico")
    assert rows[2].startswith("NVM ok")
    keys = [f["screen"][3][:12] for f in result.frames]
    assert "Keys ○·····T" in keys  # UP seen, TURN held down, the rest not tried yet
    assert rows[3].startswith("Keys ○·····○")  # TURN released
    assert [hz for _, _, hz in result.tones][-2:] == [2000, 3200]  # a click for UP, for TURN
    chase = [f["leds"] for f in result.frames[-40:]]
    lit = {next(i for i, c in enumerate(leds) if c != "#000000") for leds in chase if any(
        c != "#000000" for c in leds)}  # fmt: skip
    assert len(lit) > 3  # the lit pixel goes round


def test_the_self_test_leaves_the_save_intact():
    board = safe_menu()
    board.run_script(SAFE + "press DOWN\npress DOWN\npress OK\nwait 4000\nhold BACK 800\n")
    result = board.run_script("wait 1500\n")
    assert result.state["state"]["sc"][0] == 1


def test_wipe_erases_game_history_and_settings_after_asking():
    board = safe_menu()
    result = board.run_script(SAFE + "press UP\npress OK\n")
    assert "Erase" in result.frames[-1]["screen"][0]
    result = board.run_script(SAFE + "press UP\npress OK\npress OK\nwait 3000\n")
    assert result.state["mode"] is None and result.state["screen"] == "HomeScreen"
    result = board.run_script("wait 1500\n")
    assert result.frames[-1]["screen"][0].startswith("Langue / Language")  # as new


def test_after_the_self_test_the_next_save_appends_without_an_erase():
    """The NVM check programs a pattern after the journal: the next record goes after it."""
    board = safe_menu()
    board.run_script(SAFE + "press DOWN\npress DOWN\npress OK\nwait 4000\nhold BACK 800\n")
    result = board.run_script("wait 3000\npress RIGHT\nwait 3000\n")
    assert [w.erased for w in result.nvm_writes] == [False]
    result = board.run_script("wait 1500\n")
    assert result.state["state"]["sc"][0] == 2
