"""The real CircuitPython on an emulated Adafruit MacroPad RP2040 (rp2040js, the MacroPad's
10.2.1 UF2): it boots; its display's SPI bytes decode to the SH1106's pixels; its keys reach
``keypad``, its encoder ``rotaryio``, its NeoPixels the PIO; the firmware plays every demo
session and each mode's whole game at the table's corners (tests/fullgames/*-tie, *-solo) with
the MacroPad's own keys and encoder (tests/macropad_keys.py): each ends on the simulated
MacroPad's screen, the same LEDs lit under the keys, the heap within its budget.

The runs are slow (up to twice virtual time): the ones the selected tests need start
once the tests are known (tests/conftest.py), two at a time beside the rest of the suite.
"""

import concurrent.futures
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from emulated import POOL
from macropad_keys import own_keys

from host_tools.pico import board as pico
from host_tools.sim import SimBoard
from host_tools.sim.boards import MACROPAD

ROOT = Path(__file__).resolve().parent.parent
MISSING = pico.missing(board=pico.MACROPAD_UF2)
needs_kit = pytest.mark.skipif(MISSING is not None, reason=str(MISSING))
CLOCK = re.compile(r"\d+:\d\d")  # a time played
HEAP_BUDGET = 48 * 1024  # bytes free at the lowest, .mpy (docs/bench.md: 48 KB, goal 64)
FULL_FRAME = 8 * (3 + 128)  # a page: column (two nibbles) and page commands, 128 data bytes
# played on the MacroPad with its own keys: the demo sessions that need no files of their own
# on the drive, and each mode's game at the table's corners (test_fullgames.CORNERS)
DEMOS = sorted(
    path
    for path in (ROOT / "docs" / "scripts").glob("*.txt")
    if not path.read_text(encoding="utf-8").startswith("# drive:")
)
GAMES = sorted((ROOT / "tests" / "fullgames").glob("*-tie.txt")) + sorted(
    (ROOT / "tests" / "fullgames").glob("*-solo.txt")
)

# A code.py of its own (it replaces the firmware's on the drive): who it runs on, a box on the
# screen's four edges, each NeoPixel its own colour, then the keys and the encoder's position.
PROBE_CODE = """
import os, board, digitalio, displayio, keypad, neopixel_write, rotaryio, time
print("machine:", os.uname().machine)
bitmap = displayio.Bitmap(128, 64, 2)
for x in range(128):
    bitmap[x, 0] = bitmap[x, 63] = 1
for y in range(64):
    bitmap[0, y] = bitmap[127, y] = 1
palette = displayio.Palette(2)
palette[1] = 0xFFFFFF
group = displayio.Group()
group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
board.DISPLAY.root_group = group
pin = digitalio.DigitalInOut(board.NEOPIXEL)
pin.direction = digitalio.Direction.OUTPUT
neopixel_write.neopixel_write(pin, bytes(b for i in range(12) for b in (i, 0x10 + i, 0x20 + i)))
keys = keypad.Keys(
    (board.KEY1, board.KEY2, board.KEY3, board.KEY4, board.KEY5, board.KEY6, board.KEY7,
     board.KEY8, board.KEY9, board.KEY10, board.KEY11, board.KEY12, board.BUTTON),
    value_when_pressed=False, pull=True, interval=0.01)
encoder = rotaryio.IncrementalEncoder(board.ROTA, board.ROTB)
position = encoder.position
print("ready")
while True:
    event = keys.events.get()
    if event:
        print("key", event.key_number, event.pressed, event.timestamp)
    if encoder.position != position:
        position = encoder.position
        print("position", position)
    time.sleep(0.002)
"""
PROBE_SCRIPT = """
wait 4000        # CircuitPython boots, code.py draws and scans
press KEY1
press KEY12
press ENCODER
hold UP 300      # UP is KEY2 on the MacroPad
turn +2
wait 100
turn -1
wait 300
"""

_runs: dict[str, "concurrent.futures.Future[Any]"] = {}


def _probe_run() -> pico.PicoResult:
    tmp = Path(tempfile.mkdtemp(prefix="potager-macropad-drive-"))
    (tmp / "code.py").write_text(PROBE_CODE, encoding="utf-8")
    return pico.MacroPadBoard(drive=tmp).run_script(PROBE_SCRIPT)


def _command_line_run() -> "subprocess.CompletedProcess[str]":
    tmp = Path(tempfile.mkdtemp(prefix="potager-macropad-cli-"))
    (tmp / "s.txt").write_text("wait 3500\n", encoding="utf-8")  # the first screen is up
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "sim", "--board", "macropad", "--headless"]
        + ["--script", str(tmp / "s.txt"), "--frames", str(tmp / "frames.jsonl")]
        + ["--png", str(tmp / "board.png"), "--nvm", str(tmp / "nvm.bin")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


# the firmware's first screens with the encoder alone: a detent clockwise is DOWN, its switch OK
ENCODER_SCRIPT = """
wait 3500        # the first screen is up (Langue / Language)
turn +1          # DOWN: English
wait 300
press ENCODER    # OK
wait 1500
"""


def _played(path: Path) -> str:
    return own_keys(pico.after_each_boot(path.read_text(encoding="utf-8")))


RUNS_OF = {
    "test_the_macropad_boots_circuitpython_and_shows_its_terminal": "probe",
    "test_the_sh1106_pixels_decode_from_the_spi_bytes": "probe",
    "test_keys_reach_keypad_and_the_encoder_rotaryio": "probe",
    "test_the_neopixels_under_the_keys_read_grb_from_the_pio": "probe",
    "test_a_demo_session_on_the_macropad_ends_on_the_simulators_screen": "demos",
    "test_a_demo_session_on_the_macropad_keeps_the_heap_budget": "demos",
    "test_a_whole_game_on_the_macropad_ends_on_the_simulators_results": "games",
    "test_the_command_line_runs_a_script_on_the_macropad": "command-line",
    "test_the_encoder_and_its_switch_choose_on_the_firmwares_screens": "encoder",
}


def start_runs(test_names: set[str]) -> None:
    """Start the runs the tests named need (tests/conftest.py calls it once they are known)."""
    if MISSING is not None:
        return
    wanted = {RUNS_OF[name] for name in test_names if name in RUNS_OF}
    if "games" in wanted:  # the longest first
        for path in GAMES:
            if path.stem not in _runs:
                _runs[path.stem] = POOL.submit(pico.MacroPadBoard().run_script, _played(path))
    if "demos" in wanted:  # with the heap probe: the budget is the demos' lowest heap
        for path in DEMOS:
            if path.stem not in _runs:
                board = pico.MacroPadBoard(heap_probe=True)
                _runs[path.stem] = POOL.submit(board.run_script, _played(path))
    if "probe" in wanted and "probe" not in _runs:
        _runs["probe"] = POOL.submit(_probe_run)
    if "encoder" in wanted and "encoder" not in _runs:
        _runs["encoder"] = POOL.submit(pico.MacroPadBoard().run_script, ENCODER_SCRIPT)
    if "command-line" in wanted and "command-line" not in _runs:
        _runs["command-line"] = POOL.submit(_command_line_run)


def stop_runs() -> None:
    POOL.shutdown(wait=False, cancel_futures=True)
    pico.stop_all()


def _result(key: str) -> Any:
    if key not in _runs:  # not started by the collection hook (a test run on its own)
        group = "games" if key in {path.stem for path in GAMES} else key
        group = "demos" if key in {path.stem for path in DEMOS} else group
        start_runs({name for name, run in RUNS_OF.items() if run == group})
    return _runs[key].result()


def _leds_end(frames: list[dict[str, Any]], end_ms: int) -> set[tuple[int, str]]:
    before = [frame for frame in frames if frame["t_ms"] <= end_ms - 2000]
    shown = before[-1:] + [frame for frame in frames if end_ms - 2000 < frame["t_ms"] <= end_ms]
    return {(i, colour) for frame in shown for i, colour in enumerate(frame["leds"])}


# --- without the emulator ---
def test_a_script_turn_is_four_levels_of_a_and_b_a_detent():
    def levels(detents: int) -> list[tuple[int, int, int, int, int]]:
        inputs = pico.turn_inputs(MACROPAD, 0, detents)
        return [
            (i["t"] // 1000, i["pin"], int(not i["down"]), j["pin"], int(not j["down"]))
            for i, j in zip(inputs[::2], inputs[1::2], strict=True)
        ]

    # (A, B) on GP17, GP18: 11 -> 01 -> 00 -> 10 -> 11 is +1, 5 ms a step
    assert levels(+1) == [
        (t, 17, a, 18, b) for t, a, b in ((0, 0, 1), (5, 0, 0), (10, 1, 0), (15, 1, 1))
    ]
    assert levels(-1) == [
        (t, 17, a, 18, b) for t, a, b in ((0, 1, 0), (5, 0, 0), (10, 0, 1), (15, 1, 1))
    ]
    assert len(levels(-3)) == 12 and levels(-3)[-1][0] == 55


def test_the_command_line_refuses_a_turn_or_a_macropad_key_on_the_pico(tmp_path):
    for line in ("turn +1", "press KEY1"):
        script = tmp_path / "s.txt"
        script.write_text(f"wait 10\n{line}\n", encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "host_tools", "sim", "--board", "pico", "--headless"]
            + ["--script", str(script)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        assert run.returncode == 2, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and ":2:" in run.stderr


# --- CircuitPython on the emulated MacroPad ---
@needs_kit
def test_the_macropad_boots_circuitpython_and_shows_its_terminal():
    result = _result("probe")
    assert not result.errors and not result.caught, (result.errors, result.caught)
    assert "machine: Adafruit Macropad RP2040 with rp2040" in result.console
    # the runtime's board_init: the SH1106's init sequence, all commands, then brightness
    commands = b"".join(data for _, _, dc, data in result.spi[:40] if dc == 0)
    init = "ae d5 80 a8 3f d3 00 40 00 ad 8b a1 c8 da 12 81 ff d9 1f db 20 20 20 33 a6 a4 af 81 ff"
    assert commands.startswith(bytes.fromhex(init))
    # its terminal (Blinka and the status bar) comes as one full frame before code.py
    first = next(frame for frame in result.frames if frame["spi_bytes"] > 0 and frame["t_ms"] > 0)
    terminal = next(frame for frame in result.frames if frame["spi_bytes"] == FULL_FRAME)
    assert 1000 < terminal["t_ms"] < 2000, terminal["t_ms"]
    assert first["t_ms"] <= terminal["t_ms"]


@needs_kit
def test_the_sh1106_pixels_decode_from_the_spi_bytes():
    pixels = _result("probe").pixels  # code.py's box on the screen's four edges
    lit = {(x, y) for y, row in enumerate(pixels) for x, on in enumerate(row) if on}
    edges = {(x, y) for x in range(128) for y in (0, 63)}
    edges |= {(x, y) for x in (0, 127) for y in range(64)}
    assert lit == edges
    assert max(frame["spi_bytes"] for frame in _result("probe").frames) <= FULL_FRAME


@needs_kit
def test_keys_reach_keypad_and_the_encoder_rotaryio():
    console = _result("probe").console
    events = [
        (int(key), pressed == "True", int(t))
        for key, pressed, t in re.findall(r"key (\d+) (True|False) (\d+)", console)
    ]
    # KEY1, KEY12, the encoder's switch, UP (KEY2) held 300 ms: each pressed then released
    assert [(key, pressed) for key, pressed, _ in events] == [
        (0, True),
        (0, False),
        (11, True),
        (11, False),
        (12, True),
        (12, False),
        (1, True),
        (1, False),
    ]
    held = [t for key, _, t in events if key == 1]
    assert 280 <= held[1] - held[0] <= 320, held  # keypad scans every 10 ms
    positions = [int(p) for p in re.findall(r"position (-?\d+)", console)]
    assert positions[-1] == 1 and max(positions) == 2, positions  # +2, then -1


@needs_kit
def test_the_neopixels_under_the_keys_read_grb_from_the_pio():
    leds = _result("probe").leds
    assert leds == [f"#{0x10 + i:02x}{i:02x}{0x20 + i:02x}" for i in range(12)]


def _masked(rows: list[str]) -> list[str]:
    return [CLOCK.sub("#:##", row.rstrip()) for row in rows]


@needs_kit
@pytest.mark.parametrize("path", DEMOS, ids=lambda path: path.stem)
def test_a_demo_session_on_the_macropad_ends_on_the_simulators_screen(path):
    result = _result(path.stem)
    assert not result.errors and not result.caught, (result.errors, result.caught)
    text = _played(path)
    # at the script's end on both (a ticking clock keeps the board's run going past it); a
    # running clock may stand a second apart
    end_ms = pico.MacroPadBoard().script_end_ms(text)
    board = [frame for frame in result.frames if frame["t_ms"] <= end_ms]
    sim = SimBoard(board_id=MACROPAD.board_id).run_script(text).frames
    assert _masked(board[-1]["screen"]) == _masked(sim[-1]["screen"])
    # the LEDs under the keys over the last 2 s (a blinking seat shows both phases)
    assert _leds_end(board, end_ms) == _leds_end(sim, end_ms)
    # the firmware's first screen is one full refresh of the SH1106
    first = next(f for f in result.frames if f["screen"][0].strip() == "Langue / Language")
    assert first["spi_bytes"] == FULL_FRAME


@needs_kit
@pytest.mark.parametrize("path", DEMOS, ids=lambda path: path.stem)
def test_a_demo_session_on_the_macropad_keeps_the_heap_budget(path):
    heaps = [free for _, free in _result(path.stem).heap]  # the Pico's: test_pico.py
    assert len(heaps) >= 10, heaps
    assert min(heaps) >= HEAP_BUDGET, f"{min(heaps)} bytes free at the lowest"


@needs_kit
@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.stem)
def test_a_whole_game_on_the_macropad_ends_on_the_simulators_results(path):
    board = _result(path.stem)
    assert not board.errors and not board.caught, (board.errors, board.caught)
    sim = SimBoard(board_id=MACROPAD.board_id).run_script(_played(path))
    # the results on both once the board is done with its keys (the game ends on the last
    # one, its power cut and reload taken as played); the times played may differ by the
    # seconds a resume takes
    assert sim.state["screen"] == "ResultsScreen"
    assert _masked(board.frames[-1]["screen"]) == _masked(sim.frames[-1]["screen"])
    # every seat's colour that the simulator lit under a key was lit on the board
    lit = {colour for frame in board.frames for colour in frame["leds"]} - {"#000000"}
    assert lit >= {colour for frame in sim.frames for colour in frame["leds"]} - {"#000000"}


@needs_kit
def test_the_command_line_runs_a_script_on_the_macropad():
    run = _result("command-line")
    assert run.returncode == 0, run.stderr
    out = Path(run.args[run.args.index("--frames") + 1]).parent
    last = json.loads((out / "frames.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert set(last) == {"t_ms", "screen", "leds", "spi_bytes"}
    assert last["screen"][0] == "Langue / Language"
    assert (out / "nvm.bin").stat().st_size == 4096
    assert (out / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_kit
def test_the_encoder_and_its_switch_choose_on_the_firmwares_screens():
    result = _result("encoder")
    assert not result.errors and not result.caught, (result.errors, result.caught)
    sim = SimBoard(board_id=MACROPAD.board_id).run_script(ENCODER_SCRIPT).frames
    assert [row.rstrip() for row in result.frames[-1]["screen"]] == [
        row.rstrip() for row in sim[-1]["screen"]
    ]
    assert result.frames[-1]["screen"][0].strip() == "Potager"  # English chosen
