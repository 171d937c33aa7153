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
    "data", [b"", b"PF1", b"XX1\x06\x0c\x0a\x01\x00\x01\x00A", FONT.read_bytes()[:-1]]
)
def test_a_damaged_font_file_is_refused(data):
    with pytest.raises(ValueError):
        FontFile(data)


def test_glyphs_come_from_one_read_of_the_file(monkeypatch):
    """The file is opened once, however many labels ask for glyphs (a BDF is rescanned)."""
    import builtins

    from potager.hw.font import Font

    opened = []
    real_open = builtins.open

    def counting_open(path, *args, **kwargs):
        opened.append(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    font = Font(str(FONT))
    glyphs = [font.get_glyph(ord(c)) for c in make_font.CHARSET]
    assert len(opened) == 1
    assert all(g is not None for g in glyphs)
    assert len({id(g.bitmap) for g in glyphs}) == 1  # one strip
    assert font.get_glyph(ord("é")) is glyphs[make_font.CHARSET.index("é")]  # cached
    assert font.get_glyph(0x4E00) is None
    e = glyphs[make_font.CHARSET.index("e")]
    assert (e.width, e.height, e.dx, e.dy, e.shift_x) == (6, 12, 0, -2, 6)
    assert font.get_bounding_box() == (6, 12, 0, -2)


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
