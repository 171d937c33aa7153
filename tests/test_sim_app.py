"""The real firmware in the simulator: the free-score game end to end, what the OLED and the
ring show, the I2C traffic of a key press, saves and power cuts."""

import itertools
import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.sim import SimBoard

ROOT = Path(__file__).resolve().parent.parent

SETUP_4 = """
wait 4000        # the board starts up (imports, display): the language screen shows
press DOWN       # first boot: English
press OK
press OK         # Free score
press OK         # 4 players
"""

GAME = (
    SETUP_4
    + """
press RIGHT
press RIGHT
hold RIGHT 1000  # +20
press DOWN
press RIGHT      # P2 +1
press TURN       # P2's turn
wait 3000        # quiet: saved
power-cut
wait 1000
boot
wait 4500
"""
)


@pytest.fixture(scope="module")
def game():
    board = SimBoard()
    return board, board.run_script(GAME)


def test_scores_and_the_active_player_survive_a_power_cut(game):
    _, result = game
    state = result.state["state"]
    assert state["sc"] == [22, 1, 0, 0] and state["act"] == 1
    rows = result.frames[-1]["screen"]
    assert rows[0].startswith("Round 1") and rows[0].rstrip().endswith("●P2")
    assert rows[1].startswith(" ♥P1»   22 ▶●P2*    1")  # » P1 started the round


def test_the_ring_lights_the_active_seat(game):
    _, result = game
    frames = [f for f in result.frames if f["screen"][0].startswith("Round")]
    # P2 (blue, pixel 3) is active after the power cut: bright and dim in turn, the NeoPixel
    # brightness cap (1/4) applied
    assert {f["leds"][3] for f in frames[-8:]} == {"#000c3f", "#000106"}
    lit = [i for i, c in enumerate(frames[-1]["leds"]) if c != "#000000"]
    assert lit == [0, 3, 6, 9, 11]  # the seats and the first player's marker


def test_a_score_press_costs_far_less_than_a_full_frame(game):
    _, result = game
    presses = [
        f["i2c_bytes"]
        for a, f in zip(result.frames, result.frames[1:], strict=False)
        if f["screen"][0].startswith("Round")
        and a["screen"][0] == f["screen"][0]
        and f["screen"][1:4] != a["screen"][1:4]
    ]
    assert presses and max(presses) <= 320  # the spec's budget for one number changing
    assert statistics.median(presses) < 1037 / 4


def test_saves_are_few_and_never_within_two_seconds(game):
    _, result = game
    times = [w.t_ms for w in result.nvm_writes]
    assert 1 <= len(times) <= 3
    assert all(b - a >= 2000 for a, b in itertools.pairwise(times))


def test_the_oled_pixels_match_the_rows(game):
    board, _ = game
    pixels = board.pixels()
    assert len(pixels) == 64 and len(pixels[0]) == 128
    assert any(pixels[2]) and not any(pixels[62])  # text rows, blank bottom margin


def test_headless_cli_writes_frames_png_state_and_nvm(tmp_path):
    script = tmp_path / "game.txt"
    script.write_text(GAME)
    out = {name: tmp_path / name for name in ("f.jsonl", "s.png", "st.json", "nvm.bin")}
    cmd = [sys.executable, "-m", "host_tools", "sim", "--headless", "--script", str(script)]
    cmd += ["--frames", str(out["f.jsonl"]), "--png", str(out["s.png"])]
    cmd += ["--state", str(out["st.json"]), "--nvm", str(out["nvm.bin"])]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frames = [json.loads(line) for line in out["f.jsonl"].read_text().splitlines()]
    assert {"t_ms", "screen", "leds", "i2c_bytes"} <= set(frames[0])
    assert json.loads(out["st.json"].read_text())["state"]["sc"] == [22, 1, 0, 0]
    assert out["s.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out["nvm.bin"].stat().st_size == 4096
    # a second run on the same NVM file is a power cycle of the same device
    script.write_text("wait 4000\npress RIGHT\nwait 3000\n")
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(out["st.json"].read_text())["state"]["sc"] == [22, 2, 0, 0]


@pytest.mark.parametrize("cut", [0, 1, 11, 12, 40, 200, -1])
def test_a_torn_save_restores_the_previous_one(cut):
    """(tests/test_core.py tears a save at every byte offset; here, the whole device.)"""
    board = SimBoard()
    board.run_script(SETUP_4 + "press RIGHT\nwait 3000\n")  # P1 = 1, saved
    after = "wait 4000\npress RIGHT\n"
    cut %= SimBoard(nvm=board.nvm).run_script(after + "wait 3000\n").nvm_writes[-1].length
    torn = board.run_script(f"{after}tear-next-write {cut}\nwait 3000\n")  # the next record
    assert [w.torn for w in torn.nvm_writes] == [True] and torn.state is None  # power gone
    result = board.run_script("wait 4000")  # power back
    assert result.state["state"]["sc"][0] == 1  # the last complete save


def test_the_piezo_beeps_at_each_warning_stage_of_the_turn_timer():
    script = SETUP_4 + "press OK\n" + "press DOWN\n" * 6 + "press OK\n"  # Table & timers
    script += "press DOWN\n" * 3 + "press RIGHT\n"  # turn timer 0:30
    script += "press BACK\npress BACK\nwait 40000\n"
    result = SimBoard().run_script(script)
    assert [(gpio, hz) for _, gpio, hz in result.tones] == [
        ("GPIO18", 1500),
        ("GPIO18", 2000),
        ("GPIO18", 2500),
    ]
    # 15 s (half gone), 24 s (last fifth), 30 s: each at the loop's first pass after the
    # stage begins (a pass takes 10 ms and its work)
    t0 = result.tones[0][0]
    gaps = [t - t0 for t, _, _ in result.tones[1:]]
    assert all(abs(gap - at) < 30 for gap, at in zip(gaps, (9_000, 15_000), strict=True)), gaps
