"""Bilingual screens: every text in both languages, nothing clipped on the 128x64 screen in
either, and the accented letters really drawn on the OLED."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "mpy"))

from pureboard import PureBoard

from potager import lang
from potager.core import registry
from potager.ui import view

LANG = Path(__file__).resolve().parent.parent / "firmware" / "potager" / "lang"
FONT = LANG.parent / "fonts" / "terminus-12.bin"


def table(name):
    __import__("potager.lang." + name)
    return sys.modules["potager.lang." + name].T


@pytest.mark.parametrize("suffix", ["", "_setup", *["_" + m for m in registry.names()]])
def test_every_text_exists_in_both_languages(suffix):
    if not (LANG / f"en{suffix}.py").exists() and not (LANG / f"fr{suffix}.py").exists():
        pytest.skip("no texts of its own")
    en, fr = table("en" + suffix), table("fr" + suffix)
    assert sorted(lang.keys(en)) == sorted(lang.keys(fr))
    assert len(set(lang.keys(en))) == len(lang.keys(en)), "a key twice"
    for key in lang.keys(fr):
        assert lang.Texts([fr]).get(key).strip(), key + " is empty"


@pytest.fixture
def no_clipping(monkeypatch):
    """Make the layout helpers fail instead of cutting a text that does not fit."""

    def strict(helper):
        def wrapped(text, width=view.COLS, *args):
            assert len(text) <= width, f"clipped to {width}: {text!r}"
            return helper(text, width, *args)

        return wrapped

    for path in sorted((LANG.parent / "ui").glob("[a-z]*.py")):  # lazily imported ones too
        __import__("potager.ui." + path.stem)
    for name in ("fit", "right", "centre"):
        helper = strict(getattr(view, name))
        for module in list(sys.modules.values()):
            ours = getattr(module, "__name__", "").startswith("potager.ui")
            if ours and getattr(module, name, None) is getattr(view, name):
                monkeypatch.setattr(module, name, helper)


@pytest.mark.parametrize("language", ["fr", "en"])
@pytest.mark.parametrize("mode", registry.names())
def test_every_screen_fits_in_both_languages(language, mode, no_clipping):
    """A walk through every menu item and many random keys, in each mode."""
    rng = random.Random(mode + language)
    board = PureBoard()
    # as read from players.txt: names of the longest length, accented, the walk picks them
    board.app.roster = ["Maximilien", "Éléonore", "Zoé", "Jean-Marie", "Anne-Sophie"[:10]]
    board.script("press OK" if language == "fr" else "press DOWN\npress OK")
    board.script("press DOWN\n" * registry.names().index(mode) + "press OK")
    keys = ["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN"]
    for _ in range(3000):
        board.key(rng.choice(keys), 80 if rng.random() < 0.9 else 700)
        assert all(len(row) <= view.COLS for row in board.rows()), board.rows()
        if board.app.language != language:
            board.app.set_language(language)


def glyph(char):
    """The glyph's rows as bits, from the shipped font."""
    from potager.hw.font import FontFile

    font = FontFile(FONT.read_bytes())
    index = font.index(ord(char))
    assert index >= 0, char + " is not in the font"
    return [font.row(index, y) for y in range(font.height)]


@pytest.mark.parametrize("char", "éèêàâçôîûùëïœÉÈÊÀÂÇÔÎÛÙËÏŒ«»’")
def test_the_font_has_real_accented_glyphs(char):
    base = {"œ": "o", "Œ": "O", "«": "<", "»": ">", "’": "'"}.get(char)
    rows = glyph(char)
    assert any(rows), "blank glyph"
    if base is None:
        import unicodedata

        base = unicodedata.normalize("NFD", char)[0]
    assert rows != glyph(base), "same as " + base


def test_accents_are_drawn_on_the_oled():
    """French settings title "Réglages": the é cell on the OLED is the font's é, not an e."""
    from host_tools.sim import SimBoard

    board = SimBoard()
    result = board.run_script("wait 300\npress OK\npress UP\npress OK\n")  # French, Réglages
    assert result.frames[-1]["screen"][0].startswith("Réglages")
    pixels = board.pixels()

    def cell(col):
        return [[pixels[y][col * 6 + x] for x in range(6)] for y in range(12)]

    accented, plain = cell(1), cell(6)  # the é and the e of "Réglages"
    assert accented != plain
    # the é is the font's glyph: same pixels as the e below the x-height, more above it
    assert accented[5:] == plain[5:] and sum(map(sum, accented[:5])) > sum(map(sum, plain[:5]))


def test_texts_found_are_kept_until_a_table_added_in_front_may_hide_them():
    texts = lang.Texts(["\na=shared\nb=two\n"])
    assert texts.get("a") == "shared"
    assert texts.get("a") == "shared"  # from what was kept
    assert texts.get("c") is None
    texts.add("\na=setup\nc=three\n")  # searched first
    assert texts.get("a") == "setup"
    assert texts.get("c") == "three"  # a miss was not kept
    assert texts.get("b") == "two"


def test_texts_kept_are_capped():
    table = "\n" + "".join("k%d=v%d\n" % (i, i) for i in range(lang.CACHED * 2))
    texts = lang.Texts([table])
    for i in range(lang.CACHED * 2):
        assert texts.get("k%d" % i) == "v%d" % i
        assert len(texts.found) <= lang.CACHED
    assert texts.get("k0") == "v0"
