"""The interactive board's pieces that do not need a terminal."""

import io
import random
import re
import sys
from types import SimpleNamespace

import pytest

from host_tools.sim import tui
from host_tools.sim.cli import main
from host_tools.sim.render import (
    BRAILLE,
    TERMINAL_BOARD_SIZE,
    oled_text,
    ring_offsets,
    terminal_board_size,
    terminal_lines,
)
from host_tools.sim.tui import decode_input, screen_lines, windows_keys

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


def visible(line):
    """The characters a line shows: colour sequences take no room."""
    return re.sub(r"\x1b\[[0-9;]*m", "", line)


def test_braille_keeps_every_pixel():
    rng = random.Random(7)
    pixels = [[rng.random() < 0.5 for _ in range(128)] for _ in range(64)]
    rows = oled_text(pixels, BRAILLE)
    assert len(rows) == 16 and {len(row) for row in rows} == {64}
    dots = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (0, 3), (1, 3))  # dots 1-8
    back = [[False] * 128 for _ in range(64)]
    for cy, row in enumerate(rows):
        for cx, char in enumerate(row):
            bits = 0 if char == " " else ord(char) - 0x2800
            assert 0 <= bits < 256
            for bit, (dx, dy) in enumerate(dots):
                back[4 * cy + dy][2 * cx + dx] = bool(bits >> bit & 1)
    assert back == pixels


def test_compact_picture_is_braille_inside_the_ring():
    pixels = [[x == y for x in range(128)] for y in range(64)]
    leds = ["#ff0000"] + ["#000000"] * 11
    lines = terminal_lines(pixels, leds, BRAILLE)
    assert terminal_board_size(BRAILLE) == (68, 20)
    assert len(lines) == 20 and {len(visible(line)) for line in lines} == {68}
    # the diagonal: (0,0) and (1,1) are dots 1 and 5 of a cell, (2,2) and (3,3) dots 3 and 8
    # of the next; pixel rows 4-7 hold it two cells further right
    assert lines[2][2:5] == "⠑⢄ " and lines[3][2:7] == "  ⠑⢄ "
    assert "\x1b[38;2;255;0;0m●" in lines[0]
    assert sum(line.count("○") for line in lines) == 11


def test_the_layout_follows_the_terminal_size():
    assert tui.choose_layout(80, 24).name == "compact"
    assert tui.choose_layout(68, 23).name == "compact"
    assert tui.choose_layout(131, 38).name == "compact"
    assert tui.choose_layout(132, 37).name == "compact"
    assert tui.choose_layout(132, 38).name == "full"
    assert tui.choose_layout(67, 40) is None and tui.choose_layout(100, 22) is None


def _board_lines(cache={}):  # noqa: B006 (a cache across calls)
    rng = random.Random(3)
    pixels = [[rng.random() < 0.3 for _ in range(128)] for _ in range(64)]
    leds = ["#102030", "#000000"] * 6

    def lines(layout):
        if layout not in cache:
            cache[layout] = terminal_lines(pixels, leds, layout.cell)
        return cache[layout]

    return lines


LONG_STATUS = "t=   123.4 s   power: on   serial: " + "x" * 300


@pytest.mark.parametrize("rows", [1, 2, 5, 19, 22, 23, 24, 30, 37, 38, 39, 60])
def test_no_layout_writes_past_the_terminal(rows):
    board_lines = _board_lines()
    for columns in range(1, 200):
        lines = screen_lines(board_lines, LONG_STATUS, columns, rows)
        assert 1 <= len(lines) <= rows
        assert max(len(visible(line)) for line in lines) <= columns, (columns, rows)
        painted = tui.paint(lines, columns, rows)
        assert "\n" not in painted and "\r" not in painted  # placed, never scrolled
        layout = tui.choose_layout(columns, rows)
        if layout is None:
            assert len(lines) == 1
        else:
            assert len(lines) == layout.size[1] and lines[-1] == layout.legend[-1]


def test_a_small_terminal_gets_one_line_saying_what_is_needed():
    assert screen_lines(_board_lines(), "status", 67, 40) == [
        "Potager needs 68x23 (terminal: 67x40): enlarge it, q quits"
    ]
    assert screen_lines(_board_lines(), "status", 20, 5) == ["Potager needs 68x23…"]


def test_the_status_line_is_cut_to_the_width():
    lines = screen_lines(_board_lines(), "serial: \x07" + "é" * 100 + "漢" * 10, 80, 24)
    assert lines[-3] == "serial: " + "é" * 71 + "…"
    assert tui.fit("ab漢漢", 5) == "ab漢…" and tui.text_width("ab漢…") == 5


class _Machine(SimpleNamespace):
    pass


def test_the_clock_redraws_for_a_resize():
    out = io.StringIO()
    sizes = iter([(80, 24), (80, 24), (132, 38), (60, 20)])
    clock = tui.TerminalClock(lambda timeout: "", out, tui._SerialConsole(), lambda: next(sizes))
    machine = _Machine(i2c_bytes=0, powered=True, ring_bytes=b"", live=True, now_us=0, crashes=[])
    pixels = [[False] * 128 for _ in range(64)]
    board = SimpleNamespace(machine=machine, pixels=lambda: pixels, leds=lambda: ["#000000"] * 12)
    screens = []
    for _ in range(4):
        clock._draw(board)
        screens.append(out.getvalue())
    assert screens[0] and screens[1] == screens[0]  # nothing changed: nothing written
    assert tui.LAYOUTS[1].legend[0] in screens[0] and tui.LEGEND not in screens[0]
    assert tui.LEGEND in screens[2][len(screens[1]) :]
    assert "Potager needs 68x23 (terminal: 60x20)" in screens[3][len(screens[2]) :]


def test_windows_console_keys_decode_like_a_terminal():
    data = "\xe0H\xe0P\xe0M\xe0K\r\x08\x1b \x00;\xe0Gh"  # F1 (\x00;) and Home dropped
    assert decode_input(windows_keys(data)) == [
        ("key", UP),
        ("key", DOWN),
        ("key", RIGHT),
        ("key", LEFT),
        ("key", OK),
        ("key", BACK),
        ("key", BACK),
        ("key", TURN),
        ("hold-next", 0),
    ]


def test_without_a_terminal_module_the_board_says_what_it_needs(monkeypatch, capsys):
    for name in ("termios", "tty", "msvcrt"):
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setattr("sys.stdin", SimpleNamespace(isatty=lambda: True))
    assert main([]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "POSIX terminal" in err and "--headless" in err


def test_windows_console_keys_are_read_and_the_console_mode_put_back(monkeypatch):
    import ctypes

    pending = list("\xe0Hq")
    modes = []

    class Kernel32:
        def GetStdHandle(self, which):
            return 7

        def GetConsoleMode(self, handle, mode):
            mode._obj.value = 3  # mode is ctypes.byref(a c_uint32)
            return 1

        def SetConsoleMode(self, handle, mode):
            modes.append(mode)
            return 1

    msvcrt = SimpleNamespace(kbhit=lambda: bool(pending), getwch=lambda: pending.pop(0))
    monkeypatch.setitem(sys.modules, "msvcrt", msvcrt)
    monkeypatch.setattr(ctypes, "windll", SimpleNamespace(kernel32=Kernel32()), raising=False)
    with tui._windows_keys() as read:
        assert modes == [3 | 4]  # virtual terminal processing on
        assert decode_input(read(0.05)) == [("key", UP), ("quit", 0)]
        assert read(0.02) == ""  # nothing pressed: waits, then nothing
    assert modes == [3 | 4, 3]  # and put back
