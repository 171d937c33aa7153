"""The simulated MacroPad RP2040: its SH1106 on SPI (board.DISPLAY, made by the runtime as
board_init does), its encoder (rotaryio), its keys, the command line, the PNG and the TUI.

Wire facts from the kit README (/work/shared/circuitpython/README.md, "Adafruit MacroPad
RP2040"), checked there on the real CircuitPython 10.2.1 MacroPad firmware in rp2040js."""

import importlib
import json

import pytest
from PIL import Image

from host_tools.sim import SimBoard
from host_tools.sim.boards import MACROPAD, PICO, SCRIPT_KEYS
from host_tools.sim.cli import main
from host_tools.sim.machine import Machine
from host_tools.sim.render import grid_centres, png_size, terminal_board_size, terminal_lines
from host_tools.sim.sh1106 import SH1106
from host_tools.sim.tui import choose_layout, decode_input, layouts_for

MACROPAD_ID = "adafruit_macropad_rp2040"
# the runtime's init, all DC low, then the brightness (81 ff)
INIT = bytes.fromhex(
    "ae d5 80 a8 3f d3 00 40 00 ad 8b a1 c8 da 12 81 ff d9 1f db 20 20 20 33 a6 a4 af 81 ff"
)
PAGE = 3 + 128  # DC low 1h 0l bP, then DC high a byte a column
FULL_FRAME = 8 * PAGE  # 1048
BLACK = [[False] * 128 for _ in range(64)]


def box():
    """A 128x64 frame lit on its four edges."""
    return [[x in (0, 127) or y in (0, 63) for x in range(128)] for y in range(64)]


def test_init_bytes_are_the_kit_readmes():
    assert len(INIT) == 29 and INIT[:4] == bytes([0xAE, 0xD5, 0x80, 0xA8])


# --- the SH1106 model ---


def page_write(sh, x, page, data):
    column = x + 2
    sh.write(bytes([0x10 | column >> 4, column & 0x0F, 0xB0 | page]), dc=False)
    sh.write(bytes(data), dc=True)


def test_sh1106_is_dark_until_the_init_turns_it_on():
    sh = SH1106()
    page_write(sh, 0, 0, [0xFF] * 128)
    assert sh.pixels() == BLACK  # never turned on (af)
    sh.write(INIT, dc=False)
    assert sh.display_on and sh.segment_remap and sh.com_remap and sh.contrast == 0xFF
    assert sh.unknown_commands == []  # 20 20, 33, ad 8b ... all known
    assert all(sh.pixels()[y] == [True] * 128 for y in range(8))
    assert sh.pixels()[8:] == BLACK[8:]


def test_sh1106_pixel_is_bit_y_of_ram_page_column_x_plus_2():
    sh = SH1106()
    sh.write(INIT, dc=False)
    page_write(sh, 5, 3, [0b1000_0001, 0b0000_0100])  # x 5 and 6 on page 3 (rows 24-31)
    assert sh.ram[3][7] == 0x81 and sh.ram[3][8] == 0x04 and sh.ram[3][2] == 0
    lit = {(x, y) for y, row in enumerate(sh.pixels()) for x, on in enumerate(row) if on}
    assert lit == {(5, 24), (5, 31), (6, 26)}
    # columns 0, 1, 130, 131 of the RAM are off the panel
    page_write(sh, -2, 0, [0xFF, 0xFF])
    page_write(sh, 128, 0, [0xFF, 0xFF])
    assert {(x, y) for y, row in enumerate(sh.pixels()) for x, on in enumerate(row) if on} == lit


def test_sh1106_arguments_are_not_commands():
    sh = SH1106()
    sh.write(INIT, dc=False)
    sh.write(bytes([0xAE, 0x81, 0xAF, 0xD3, 0x00, 0x20, 0xB5, 0xA8, 0x3F, 0xDB, 0x10]), dc=False)
    assert not sh.display_on and sh.contrast == 0xAF  # af was the contrast
    assert sh.page == 0 and sh.column == 0  # b5 and 10 were arguments
    sh.write(bytes([0xAF]), dc=False)
    assert sh.display_on
    sh.write(bytes([0xAE]), dc=False)  # the firmware's sleep: off, the RAM kept
    page_write(sh, 0, 0, [1])
    assert sh.pixels() == BLACK and sh.ram[0][2] == 1
    sh.write(bytes([0xAF]), dc=False)
    assert sh.pixels()[0][0] and not sh.pixels()[1][0]


def test_sh1106_page_stays_and_the_column_moves_on():
    sh = SH1106()
    sh.write(INIT, dc=False)
    page_write(sh, 120, 7, [0x80] * 10)  # past the RAM's last column: dropped
    assert sh.page == 7 and sh.ram[7][122:132] == bytes([0x80] * 10) and sh.ram[6] == bytes(132)
    assert sh.pixels()[63][120:128] == [True] * 8


def test_the_bus_feeds_the_sh1106_only_with_chip_select_low():
    machine = Machine(MACROPAD)
    machine.live = True
    clock, mosi = MACROPAD.gpio("SCK"), MACROPAD.gpio("MOSI")
    dc, cs = MACROPAD.gpio("OLED_DC"), MACROPAD.gpio("OLED_CS")
    machine.set_output(dc, False)
    machine.set_output(cs, True)
    machine.spi_write((clock, mosi), b"\xaf")
    assert not machine.oled.display_on and machine.spi_bytes == 1
    machine.set_output(cs, False)
    machine.spi_write((clock, mosi), b"\xaf")
    machine.set_output(dc, True)
    machine.spi_write((clock, mosi), b"\x01\x02")
    assert machine.oled.display_on and machine.oled.ram[0][:2] == b"\x01\x02"
    assert [(w.dc, w.cs, w.data) for w in machine.spi_record] == [
        (False, True, b"\xaf"),
        (False, False, b"\xaf"),
        (True, False, b"\x01\x02"),
    ]
    # 0.9 us a byte on the bus and displayio's 45 us a byte, the fractions kept
    assert machine.now_us == 4 * 45 + 3  # 4 bytes: 3.6 us of bus time
    machine.spi_write((MACROPAD.gpio("KEY1"), mosi), b"\xae")  # another bus: bus time only
    assert machine.oled.display_on and machine.spi_bytes == 4


# --- board.DISPLAY through the real Blinka fourwire and busdisplay ---

BOX_CODE = """
import time
import board
import displayio
import supervisor

display = board.DISPLAY
print("DISPLAY", type(display).__module__, type(display).__name__, type(display.bus).__name__)
display.auto_refresh = False
bitmap = displayio.Bitmap(128, 64, 2)
for x in range(128):
    bitmap[x, 0] = bitmap[x, 63] = 1
for y in range(64):
    bitmap[0, y] = bitmap[127, y] = 1
palette = displayio.Palette(2)
palette[0] = 0
palette[1] = 0xFFFFFF
group = displayio.Group()
group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
display.root_group = group
t0 = time.monotonic_ns()
display.refresh()
print("FULL_US", (time.monotonic_ns() - t0) // 1000)
time.sleep(0.1)
bitmap[100, 20] = 1  # one pixel at x = 100: column 102 = 0x66, page 2
display.refresh()
print("PIXEL_US", (time.monotonic_ns() - t0) // 1000)
while True:
    time.sleep(0.1)
"""


def stub(tmp_path, code):
    root = tmp_path / "firmware"
    root.mkdir()
    (root / "code.py").write_text(code)
    return root


def printed(out, word):
    return [line.split()[1:] for line in out.splitlines() if line.startswith(word + " ")]


def test_a_frame_drawn_on_board_display_reaches_the_panel_pixel_for_pixel(tmp_path, capsys):
    board = SimBoard(stub(tmp_path, BOX_CODE), board_id=MACROPAD_ID)
    board.run_script("wait 500")
    out = capsys.readouterr().out
    assert printed(out, "DISPLAY") == [["busdisplay", "BusDisplay", "FourWire"]]
    expected = box()
    expected[20][100] = True
    assert board.pixels() == expected
    writes = list(board.machine.spi_record)
    # the runtime's: init, brightness, its terminal refreshed (a full frame of black)
    commands = b"".join(w.data for w in writes[:29])
    assert commands == INIT and not any(w.dc or w.cs for w in writes[:29])
    assert all(len(w.data) == 1 for w in writes[:29])  # CS toggled after each command byte
    frames = writes[29:]
    first = frames[: 8 * 4]  # the runtime's terminal, a page at a time
    second = frames[8 * 4 : 16 * 4]  # the box
    for page, frame in enumerate(first[i : i + 4] for i in range(0, 32, 4)):
        assert [(w.dc, w.data) for w in frame[:3]] == [
            (False, b"\x10"),
            (False, b"\x02"),  # column 2: the panel's x = 0
            (False, bytes([0xB0 | page])),
        ]
        assert frame[3].dc and len(frame[3].data) == 128 and frame[3].data == bytes(128)
    assert sum(len(w.data) for w in second) == FULL_FRAME
    assert second[3].data[0] == 0xFF and second[3].data[1] == 0x01  # left edge, top edge
    assert second[-1].data[0] == 0xFF and second[-1].data[1] == 0x80  # bottom edge
    # the one pixel: CircuitPython's 1h 0l for column 102 (Blinka alone would send 10 06)
    last = writes[29 + 64 :]
    assert [w.data for w in last[:3]] == [b"\x16", b"\x06", b"\xb2"] and last[3].dc
    assert sum(len(w.data) for w in last) < 3 + 128
    # time: 45.9 us a byte (displayio's 45, the bus's 0.9) and 1 us a CS toggle
    [[full_us]] = printed(out, "FULL_US")
    assert int(full_us) == FULL_FRAME * 45 + FULL_FRAME * 9 // 10 + 8 * 3


LIFE_CODE = """
import time
import board
import busio
import displayio
import microcontroller


def spi():
    try:
        busio.SPI(board.SCK, MOSI=board.MOSI).deinit()
        return "free"
    except ValueError as error:
        return str(error).replace(" ", "_")


run = microcontroller.nvm[0]
microcontroller.nvm[0] = (run + 1) % 256
print("RUN", run, id(board.DISPLAY) if board.DISPLAY is not None else None, spi())
if run == 0x01:
    displayio.release_displays()
    print("RELEASED", board.DISPLAY, spi())
while True:
    time.sleep(0.1)
"""


def test_display_survives_a_reload_and_dies_with_release_displays(tmp_path, capsys):
    board = SimBoard(stub(tmp_path, LIFE_CODE), board_id=MACROPAD_ID)
    reload = "wait 300\nreload\n"
    board.run_script(f"{reload * 3}wait 300\npower-cut\nboot\nwait 300")
    out = capsys.readouterr().out
    runs = printed(out, "RUN")
    assert [run for run, _, _ in runs] == ["255", "0", "1", "2", "3"]
    first, reloaded, releasing, released, boot = (display for _, display, _ in runs)
    assert first != "None" and reloaded == releasing == first  # kept through soft reloads
    assert released == "None"  # released in run 1: gone after the reload
    assert boot not in ("None", first)  # made again at the power's return
    # the display's bus holds SCK and MOSI through reloads; released, they are free
    spi = [spi for _, _, spi in runs]
    assert spi == ["SCK_in_use", "SCK_in_use", "SCK_in_use", "free", "SCK_in_use"]
    assert printed(out, "RELEASED") == [["None", "free"]]


CRASH_CODE = """
import time
import board
import microcontroller

run = microcontroller.nvm[0]
microcontroller.nvm[0] = 0
print("RUN", id(board.DISPLAY), board.DISPLAY.auto_refresh)
board.DISPLAY.auto_refresh = False
if run == 0xFF:
    raise ValueError("code.py raised")
while True:
    time.sleep(0.1)
"""


def test_display_outlives_a_code_py_that_raised(tmp_path, capsys):
    board = SimBoard(stub(tmp_path, CRASH_CODE), board_id=MACROPAD_ID)
    result = board.run_script("wait 300\nreload\nwait 300")
    runs = printed(capsys.readouterr().out, "RUN")
    assert len(result.crashes) == 1 and "code.py raised" in result.crashes[0].traceback
    # the same display, back to the runtime's terminal refreshing by itself
    assert runs == [[runs[0][0], "True"], [runs[0][0], "True"]]


def test_board_has_the_macropads_names_and_no_gp_names():
    fakes = importlib.import_module("host_tools.sim.fakes")
    fakes.install()
    fakes.attach(Machine(MACROPAD), MACROPAD)
    try:
        board = importlib.import_module("board")
        names = set(dir(board))
        wanted = {f"KEY{n}" for n in range(1, 13)} | {"BUTTON", "ENCODER_SWITCH", "ROTA", "ROTB"}
        wanted |= {"ENCODER_A", "ENCODER_B", "NEOPIXEL", "SPEAKER", "SPEAKER_ENABLE", "LED"}
        wanted |= {"SDA", "SCL", "SCK", "MOSI", "MISO", "OLED_CS", "OLED_DC", "OLED_RESET"}
        assert wanted | {"board_id", "DISPLAY"} <= names
        assert not any(name.startswith("GP") for name in names)
        assert board.board_id == MACROPAD_ID and board.DISPLAY is None  # no power yet
        assert board.ROTA is board.ENCODER_A and board.BUTTON is board.ENCODER_SWITCH
        fakes.attach(Machine(PICO), PICO)
        with pytest.raises(AttributeError):
            board.DISPLAY  # noqa: B018 (the Pico has none)
    finally:
        fakes.attach(None)


# --- the encoder ---

ENCODER_CODE = """
import time
import board
import rotaryio

encoder = rotaryio.IncrementalEncoder(board.ROTA, board.ROTB)
try:
    rotaryio.IncrementalEncoder(board.ROTA, board.ROTB)
except ValueError as error:
    print("CLAIMED", str(error).replace(" ", "_"))
last = 0
while True:
    if encoder.position != last:
        last = encoder.position
        print("POS", last, time.monotonic_ns() // 1_000_000)
        if last == 3:
            encoder.position = 10
            last = 10
    time.sleep(0.001)
"""


def test_turns_move_rotaryio_a_detent_at_a_time(tmp_path, capsys):
    board = SimBoard(stub(tmp_path, ENCODER_CODE), board_id=MACROPAD_ID)
    board.run_script("wait 100\nturn +3\nwait 100\nturn -2\nwait 100")
    out = capsys.readouterr().out
    assert printed(out, "CLAIMED") == [["ROTA_in_use"]]
    positions = [(int(p), int(t)) for p, t in printed(out, "POS")]
    # a detent is 4 changes 5 ms apart: counted at its 4th, 20 ms after it began
    assert [p for p, _ in positions] == [1, 2, 3, 9, 8]  # set to 10 after 3, then -2
    assert [t for _, t in positions] == [120, 140, 160, 280, 300]


def test_turn_and_own_keys_on_the_pico_are_bad_scripts(tmp_path, capsys):
    for line in ("press KEY7", "turn 1", "hold ENCODER 100"):
        script = tmp_path / "bad.txt"
        script.write_text(f"wait 10\n{line}\n")
        assert main(["--headless", "--script", str(script)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"sim: {script}:2: ")
        assert "raspberry_pi_pico has no" in err


def test_machine_presses_own_keys_by_script_key():
    machine = Machine(MACROPAD)
    machine.set_button(SCRIPT_KEYS.index("KEY7"), True)
    assert not machine.pin_level(MACROPAD.gpio("KEY7"), True)
    assert machine.pin_level(MACROPAD.gpio("KEY10"), True)
    machine.set_button(SCRIPT_KEYS.index("TURN"), True)  # TURN is KEY10 on the MacroPad
    assert not machine.pin_level(MACROPAD.gpio("KEY10"), True)
    machine.set_button(SCRIPT_KEYS.index("ENCODER"), True)
    assert not machine.pin_level(MACROPAD.gpio("BUTTON"), True)


# --- the real firmware on the simulated MacroPad, from the command line ---


def test_the_firmware_runs_on_sim_macropad(tmp_path, capsys):
    script = tmp_path / "script.txt"
    # the language by the encoder and KEY3 (OK), a free score game of 4, P2 (the encoder) +1
    lines = ["wait 1000", "turn +1", "wait 200", "turn -1", "wait 200", "press KEY3"]
    lines += ["wait 500", "press OK", "wait 500", "press OK", "wait 500", "turn +1", "wait 300"]
    lines += ["press RIGHT", "wait 300"]
    script.write_text("\n".join(lines) + "\n")
    frames_file, png = tmp_path / "frames.jsonl", tmp_path / "board.png"
    args = ["--board", "sim-macropad", "--headless", "--script", str(script)]
    assert main([*args, "--frames", str(frames_file), "--png", str(png)]) == 0, capsys.readouterr()
    frames = [json.loads(line) for line in frames_file.read_text().splitlines()]
    assert all("spi_bytes" in f and "i2c_bytes" not in f for f in frames)
    first = frames[0]
    # the runtime's init and terminal (before code.py), then the firmware's first frame
    assert first["spi_bytes"] == len(INIT) + 2 * FULL_FRAME
    assert first["screen"][1].startswith("▶") and first["screen"][2].startswith(" ")
    down, up = frames[1], frames[2]
    assert down["screen"][2].startswith("▶") and 1020 <= down["t_ms"] < 1080
    assert up["screen"][1].startswith("▶") and 1240 <= up["t_ms"] < 1300
    # the cursor moved: one character on each of two rows, 2 pages of 3 + 6 bytes each
    assert down["spi_bytes"] == up["spi_bytes"] == 2 * 2 * (3 + 6)
    game = next(f for f in frames if f["screen"][0].startswith(("Manche 1", "Round 1")))
    assert game["spi_bytes"] == FULL_FRAME  # a new screen: one full frame
    scored = [f for f in frames if f["spi_bytes"]][-1]
    assert scored["screen"][1].endswith("P2     1")  # one digit: 2 pages of 3 + 6
    assert scored["spi_bytes"] == 2 * (3 + 6)
    image = Image.open(png)
    assert image.size == png_size(MACROPAD.led_grid)


def test_png_draws_the_leds_as_the_grid_under_the_keys(tmp_path):
    from host_tools.sim.render import write_png

    leds = ["#000000"] * 12
    leds[4] = "#ff0000"  # under KEY5: row 1, column 1
    leds[9] = "#0000ff"  # under KEY10: row 3, column 0
    path = tmp_path / "grid.png"
    write_png(path, box(), leds, grid=(3, 4))
    image = Image.open(path).convert("RGB")
    centres = grid_centres((3, 4))
    assert centres[4][0] == centres[1][0] > centres[3][0] and centres[4][1] > centres[1][1]
    assert centres[9][0] == centres[0][0] and centres[9][1] > centres[6][1]
    colour = [image.getpixel((round(x), round(y))) for x, y in centres]
    assert colour[4][0] > 200 and colour[4][2] < 50 and colour[9][2] > 200
    assert all(c == colour[0] for i, c in enumerate(colour) if i not in (4, 9))
    assert max(y for _, y in centres) < image.size[1] and min(y for _, y in centres) > 64 * 4


def test_terminal_shows_the_grid_and_turns_the_encoder():
    assert decode_input("[],.") == [("turn", -1), ("turn", 1), ("turn", -1), ("turn", 1)]
    layouts = layouts_for(MACROPAD)
    assert choose_layout(80, 24, layouts) is layouts[1]  # braille fits an 80x24 terminal
    assert choose_layout(132, 40, layouts) is layouts[0]
    leds = ["#000000"] * 12
    leds[11] = "#00ff00"
    lines = terminal_lines(BLACK, leds, (2, 4), (3, 4))
    assert len(lines) == terminal_board_size((2, 4), (3, 4))[1] == 16 + 1 + 4
    grid = lines[-4:]
    assert all(line.count("○") + line.count("●") == 3 for line in grid)
    assert "●" in grid[3] and grid[3].rindex("●") > grid[3].rindex("○")  # KEY12: last, right
    assert "●" not in "".join(grid[:3])
