"""The firmware's strip font: current with its tool, every glyph of the screens in it, the same
lookups on CircuitPython's own VM, and one file read for all glyphs."""

import json
import sys
from pathlib import Path

import pytest

from host_tools import make_font
from potager.hw.font import FontFile

sys.path.insert(0, str(Path(__file__).parent))

from mpy_runner import FIRMWARE, circuitpython

FONT = FIRMWARE / "potager" / "fonts" / "terminus-12.bin"


def test_the_committed_font_is_what_make_font_builds():
    data, missing = make_font.build()
    assert missing == ""
    assert FONT.read_bytes() == data, "run .venv/bin/python -m host_tools.make_font"


def test_every_character_of_the_charset_has_its_cell():
    font = FontFile(FONT.read_bytes())
    assert (font.width, font.height, font.ascent) == (6, 12, 10)
    cells = [font.index(ord(c)) for c in make_font.CHARSET]
    assert cells == list(range(len(make_font.CHARSET)))
    assert font.index(ord("\u00a4")) == -1 and font.index(-1) == -1


@pytest.mark.parametrize(
    "data", [b"", b"PF2", b"XX2\x06\x0c\x0a\x01\x00\x01\x00A", FONT.read_bytes()[:-1]]
)
def test_a_damaged_font_file_is_refused(data):
    with pytest.raises(ValueError):
        FontFile(data)


def test_the_strip_comes_from_one_read_of_the_file_with_every_glyph_in_its_cell(monkeypatch):
    """One open, one bitmaptools.readinto: the tile bitmap of the OLED's grids."""
    import builtins

    from potager.hw.font import load_strip

    opened = []
    real_open = builtins.open

    def counting_open(path, *args, **kwargs):
        opened.append(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    chars, strip = load_strip(str(FONT))
    assert len(opened) == 1
    assert chars == make_font.CHARSET and (strip.width, strip.height) == (6 * len(chars), 12)
    font = FontFile(FONT.read_bytes())
    for index in range(len(chars)):
        for y in range(12):
            bits = font.row(index, y)
            assert [strip[index * 6 + x, y] for x in range(6)] == [
                1 if bits & 0x80 >> x else 0 for x in range(6)
            ], (chars[index], y)
    e = font.row(chars.index("e"), 5)
    assert e and not e & 0x03  # six pixels a row: the two low bits stay clear


def test_a_truncated_font_file_is_refused_at_boot(tmp_path):
    from potager.hw.font import load_strip

    path = tmp_path / "font.bin"
    path.write_bytes(FONT.read_bytes()[:-1])
    with pytest.raises(ValueError):
        load_strip(str(path))


LOOKUP = """
import gc, json, sys
gc.collect()
before = gc.mem_free()
from potager.hw.font import FontFile
with open(sys.argv[1], "rb") as f:
    font = FontFile(f.read())
gc.collect()
ram = before - gc.mem_free()
with open(sys.argv[2], "rb") as f:
    chars = str(f.read(), "utf-8")
cells = [font.index(ord(c)) for c in chars]
rows = [font.row(font.index(ord(c)), y) for c in "é«»’♥" for y in range(font.height)]
print(json.dumps({"vm": sys.implementation.name, "cells": cells, "rows": rows,
                  "ram": ram}))
"""


def test_the_lookup_runs_on_circuitpython(tmp_path):
    script = tmp_path / "lookup.py"
    script.write_text(LOOKUP)
    charset = tmp_path / "charset.txt"  # a file: this VM dies on long arguments
    charset.write_text(make_font.CHARSET, encoding="utf-8")
    result = circuitpython(script, FONT, charset, heap="64K")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    font = FontFile(FONT.read_bytes())
    assert out["vm"] == "circuitpython"
    assert out["cells"] == list(range(len(make_font.CHARSET)))
    assert out["rows"] == [font.row(font.index(ord(c)), y) for c in "é«»’♥" for y in range(12)]
    # the module and the whole font, index and rows, in well under 8 KB of the board's heap
    assert out["ram"] < 8 * 1024
