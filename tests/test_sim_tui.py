"""The interactive board's pieces that do not need a terminal."""

import io
import re

from host_tools.sim.cli import main
from host_tools.sim.render import TERMINAL_BOARD_SIZE, ring_offsets, terminal_lines
from host_tools.sim.tui import decode_input

UP, DOWN, LEFT, RIGHT, OK, BACK, TURN = range(7)


def test_keys_decode_to_actions():
    data = "\x1b[A\x1bOB\x1b[C\x1b[D\r\n\x7f\x1b \x1b[1;2Ahpq"
    assert decode_input(data) == [
        ("key", UP),
        ("key", DOWN),
        ("key", RIGHT),
        ("key", LEFT),
        ("key", OK),
        ("key", OK),
        ("key", BACK),
        ("key", BACK),  # a lone Esc
        ("key", TURN),
        ("held", UP),  # Shift+arrow
        ("hold-next", 0),
        ("power", 0),
        ("quit", 0),
    ]


def test_unknown_input_is_ignored():
    assert decode_input("x\x1b[5~z") == []


def test_terminal_picture_has_the_oled_and_the_ring():
    pixels = [[x == y for x in range(128)] for y in range(64)]
    leds = ["#ff0000"] + ["#000000"] * 5 + ["#004000"] + ["#000000"] * 5
    lines = terminal_lines(pixels, leds)
    width, height = TERMINAL_BOARD_SIZE
    assert len(lines) == height
    assert {len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in lines} == {width}
    assert lines[2][2:4] == "▀▄"  # pixels (0,0) then (1,1) share a character row
    assert "\x1b[38;2;255;0;0m●" in lines[0]  # pixel 0 at the top
    assert "\x1b[38;2;0;" in lines[-1]  # pixel 6 at the bottom, dim green made visible
    assert sum(line.count("○") for line in lines) == 10


def test_ring_runs_clockwise_from_the_top():
    offsets = ring_offsets(2.0, 1.0)
    assert offsets[0] == (0.0, -1.0)
    assert offsets[3] == (2.0, 0.0)  # 3 o'clock
    assert offsets[6] == (0.0, 1.0)
    assert offsets[9] == (-2.0, 0.0)


def test_interactive_mode_needs_a_terminal(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert main([]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--headless --script FILE" in err
