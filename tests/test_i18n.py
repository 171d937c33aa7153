"""Bilingual screens: every text in both languages, nothing clipped on the 128x64 screen in
either, and the accented letters really drawn on the OLED."""

import random
import sys
from pathlib import Path

import pytest
from soak import SCALE

from host_tools.mpy.pureboard import PureBoard
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
    for _ in range(1000 * SCALE):  # (tests/soak.py)
        board.key(rng.choice(keys), 80 if rng.random() < 0.9 else 700)
        assert all(len(row) <= view.COLS for row in board.rows()), board.rows()
        if board.app.language != language:
            board.app.set_language(language)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("mode", registry.names())
def test_records_and_history_show_each_modes_name_whole(language, mode):
    board = PureBoard()
    board.script("press OK" if language == "fr" else "press DOWN\npress OK")
    tie = [0, 1, 2, 3, 4, 5]  # six winners: their symbols give way to the name
    board.app.history = [
        [999, mode, tie, [-999] * 6, tie, [""] * 6, 0, 600, 1, 600],
        [99, mode, [0, 1, 2, 3], [120, 120, 80, 7], [0, 1], [""] * 4, 0, 600, 1, 600],
        [9, mode if mode != "hortis" else "hortis-automne", [2], [7], [], [""], 0, 60, 1, 60],
    ]
    board.script("press DOWN\n" * len(registry.names()) + "press OK")  # Records & history
    rows = board.rows()
    names = [board.app.tr(key + mode) for key in ("m.", "res.mode_short_")]
    names = [name for name in names if not name.startswith("res.")]  # (a text, not its key)
    for row, seq in zip(rows[1:4], ("9 ", "99 ", "999 "), strict=True):
        assert len(row) == view.COLS and any(row[1:].startswith(seq + n + " ") for n in names), row
    assert rows[2].rstrip().endswith(" ♥● 120")  # with room, the winners and the best whole
    assert rows[3].rstrip().endswith(" -999")


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
    # the language screen is up at 0.6 s: typed after it (the run ends at the first sleep after
    # the script, which must see Réglages drawn)
    result = board.run_script("wait 1000\npress OK\npress UP\npress OK\n")  # French, Réglages
    assert result.frames[-1]["screen"][0].startswith("Réglages")
    pixels = board.pixels()

    def cell(col):
        return [[pixels[y][col * 6 + x] for x in range(6)] for y in range(12)]

    accented, plain = cell(1), cell(6)  # the é and the e of "Réglages"
    assert accented != plain
    # the é is the font's glyph: same pixels as the e below the x-height, more above it
    assert accented[5:] == plain[5:] and sum(map(sum, accented[:5])) > sum(map(sum, plain[:5]))


def test_texts_found_are_kept_until_a_table_added_in_front_may_hide_them():
    texts = lang.Texts(["\nk.a=shared\nk.b=two\n"])
    assert texts.get("k.a") == "shared"
    assert texts.get("k.a") == "shared"  # from what was kept
    assert texts.get("k.c") is None
    texts.add("\nk.a=setup\nk.c=three\n")  # searched first
    assert texts.get("k.a") == "setup"
    assert texts.get("k.c") == "three"  # a miss was not kept
    assert texts.get("k.b") == "two"


@pytest.mark.parametrize("code", lang.CODES)
def test_only_the_shared_table_holds_keys_without_a_prefix(code):
    # Texts searches such keys in the last table alone (the shared one, or a table used alone)
    for path in sorted(LANG.glob(code + "_*.py")):
        if path.stem == code + "_save":  # the save checks' texts: looked up on their own
            continue
        keys = lang.keys(table(path.stem))
        assert keys and all("." in key for key in keys), path.name
    texts = lang.load(code, "diced_tomatoes")
    texts.add(lang.take("potager.lang.%s_setup" % code))
    assert texts.get("players") == lang.Texts([table(code)]).get("players")
    assert texts.get("dt.title_over") and texts.get("c.red") and texts.get("nm.same_last")
    assert texts.get("u.undo_op_16") == lang.Texts([table(code + "_diced_tomatoes")]).get(
        "u.undo_op_16"
    )  # a mode's own text of a shared key comes first
    assert texts.get("nope") is None and texts.get("dt.nope") is None


def test_texts_kept_are_capped():
    table = "\n" + "".join("k%d=v%d\n" % (i, i) for i in range(lang.CACHED * 2))
    texts = lang.Texts([table])
    for i in range(lang.CACHED * 2):
        assert texts.get("k%d" % i) == "v%d" % i
        assert len(texts.found) <= lang.CACHED
    assert texts.get("k0") == "v0"


def test_a_table_is_held_once_as_bytes_and_reused_by_the_next_load(monkeypatch):
    import builtins

    texts = lang.load("fr", "diced_tomatoes")
    assert texts.get("dt.help_gold") == "un dé doré"  # accents through the byte offsets
    # the modules went: the bytes are the tables' only copy in RAM
    assert "potager.lang.fr_diced_tomatoes" not in sys.modules
    assert "potager.lang.fr" not in sys.modules
    assert texts.get("players") == table("fr").split("\nplayers=")[1].split("\n")[0]
    imported = []
    real_import = builtins.__import__

    def counting_import(name, *args, **kwargs):
        if name.startswith("potager."):
            imported.append(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", counting_import)
    again = lang.load("fr", "diced_tomatoes", texts)  # e.g. the game starting after its setup
    assert imported == [] and again.tables[0] is texts.tables[0]
    shared = lang.load("fr", None, again)  # back home: the shared table only
    assert shared.tables == [texts.tables[1]] and imported == []
    english = lang.load("en", None, shared)
    assert english.get("players") != shared.get("players")
    assert imported == ["potager.lang.en"]


def test_texts_of_no_known_language_drop_no_module(monkeypatch):
    import types

    monkeypatch.setitem(sys.modules, "_probe", types.ModuleType("_probe"))
    texts = lang.load("en", None, lang.Texts(["\nk.a=b\n"]))  # a table of no module
    assert "_probe" in sys.modules and texts.get("players")


@pytest.mark.parametrize("code", lang.CODES)
def test_the_home_screens_and_setups_texts_open_the_shared_table(code):
    # a lookup costs the board ~0.35 us a byte of the table before its key: the texts every
    # game passes by (the modes' names, the colours of the setup) are found in the first bytes
    shared = table(code)
    keys = lang.keys(shared)
    early = [key for key in keys if key.startswith(("m.", "c."))]
    assert len(early) == len(registry.MODES) + 8
    assert keys.index(early[-1]) < 16
