"""Whatever the NVM holds, the device boots: the journal's records torn at every byte, random
images, bit flips, and records whose CRC holds over nonsense. It never crashes or hangs; it
resumes what can be trusted, salvages the rest and says so in one line."""

import json
import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host_tools.mpy.pureboard import PureBoard
from host_tools.sim.machine import Flash, flash_write
from potager.core import persist, registry, scan, table
from potager.core.engine import clone
from potager.core.games import free
from potager.restore_check import fits
from potager.restore_game import PLENTY

SETUP = "press DOWN\npress OK\npress OK\npress OK\n"  # English, free score, OK starts it (4)
GAME = SETUP + "press RIGHT\npress TURN\nwait 3000\n"


def saved_image():
    """A real save, and every state a prefix of its journal holds (a torn or damaged record
    leaves the ones before it)."""
    board = PureBoard()
    board.script(GAME)
    nvm, store = bytes(board.nvm), persist.Store(board.nvm)
    assert scan.load(store) == persist.OK
    states = [None]
    for _, start, length in store.records:
        prefix = nvm[: start + length] + b"\xff" * (4096 - start - length)
        engine = PureBoard(bytearray(prefix)).app.engine
        states.append(engine.state if engine else None)
    return nvm, board.app.engine.state, states


IMAGE, STATE, SAVED = saved_image()


def boots(nvm):
    """Boot on `nvm`, play a few keys; returns the board (raises on any crash)."""
    board = PureBoard(bytearray(nvm))
    board.script("wait 700\npress RIGHT\npress TURN\npress OK\npress BACK\nwait 100")
    assert len(board.rows()) == 5
    check(board)
    return board


def check(board):
    """What a boot may never give: a state off its invariants, a score that is no int."""
    app = board.app
    if app.engine is not None:
        assert fits(app.engine.state)
        registry.rules(app.mode).check(app.engine.state)
    assert all(type(row) is str for row in board.rows())


def journal(*records):
    """An erased sector with these (meta, actions, keep, kind) records appended, CRCs valid."""
    nvm = bytearray(b"\xff" * 4096)
    store = persist.Store(nvm)
    for meta, log, keep, kind in records:
        assert store.save(persist.encode_payload(meta, log, keep), kind)
    return nvm


def snapshot(base, log=(), **meta):
    whole = {"lang": "en", "set": {}, "mode": "free", "base": base, "hist": [], "rec": {}}
    whole["set"] = {"bri": 4, "night": 0, "beep": 1, "dim": 3, "sleep": 15}
    whole.update(meta)
    return (whole, list(log), 0, 0)  # a snapshot


def delta(log=(), keep=0, **patch):
    return (patch, list(log), keep, 1)  # a delta


def game(n=2):
    return free.new(n, list(range(n)))


# ------------------------------------------------------------------- the journal
def test_saves_append_records_and_erase_only_when_the_sector_is_full():
    flash = Flash()
    board = PureBoard(flash)
    board.script(SETUP)
    for i in range(120):
        board.script("press RIGHT\nwait 2100" if i % 3 else "press TURN\nwait 2100")
    writes, erases = board.app.store.writes, flash.erases
    assert writes == flash.writes >= 120
    assert erases <= writes // 60  # dozens of saves between two erases (each save used to erase)
    state = board.app.engine.state
    board.script("power-cut\nboot")
    assert board.app.engine.state == state


def test_an_ordinary_save_is_one_small_record_and_programs_a_page_or_two():
    flash = Flash()
    board = PureBoard(flash)
    board.script(SETUP + "wait 3000")
    end = board.app.store.end
    board.script("press RIGHT\npress RIGHT\nwait 3000")
    clock = len(b',"clock":[99,99,0]')  # the table clocks' checkpoint rides along
    assert board.app.store.end - end <= persist.HEADER_SIZE + 4 + 2 * persist.ACTION_SIZE + clock
    assert flash.erases == 0 and flash.pages <= 2 * flash.writes


@pytest.mark.parametrize("kind", ["delta", "undo"])
def test_a_record_torn_at_any_byte_leaves_the_previous_one(kind):
    board = PureBoard()
    board.script(SETUP + "press RIGHT\nwait 3000")
    good, before = clone(board.app.engine.state), bytes(board.nvm)
    store = board.app.store
    start = store.end
    board.script(
        "press RIGHT\npress TURN\nwait 3000" if kind == "delta" else "press BACK\nwait 3000"
    )
    after = bytes(board.nvm)
    end = store.end
    assert after[:start] == before[:start] and end > start  # appended, nothing rewritten
    for cut in range(start % 256, start % 256 + end - start):  # from the page's first byte
        torn = bytearray(before)
        erased, _, _ = flash_write(torn, start, after[start:end], cut_after=cut)
        assert not erased
        resumed = PureBoard(torn)
        assert resumed.app.engine.state == good, cut
        assert resumed.app.message is None, cut  # the previous save: nothing to say


def torn_save(board):
    """The board's next save (a key, then quiet), torn halfway through its record; returns the
    image before that save and the torn one."""
    before, start = bytes(board.nvm), board.app.store.end
    board.script("press RIGHT\nwait 3000")
    end = board.app.store.end
    torn = bytearray(before)
    half = start % 256 + (end - start) // 2  # programming starts at the page's first byte
    erased, _, _ = flash_write(torn, start, bytes(board.nvm)[start:end], half)
    assert not erased
    return before, torn


def test_after_a_torn_record_the_next_save_goes_after_it_without_an_erase():
    board = PureBoard()
    board.script(SETUP + "press RIGHT\nwait 3000")  # P1 = 1, saved
    _, torn = torn_save(board)  # P1 = 2, torn
    flash = Flash(torn)
    resumed = PureBoard(flash)
    assert resumed.app.engine.state["sc"] == [1, 0, 0, 0] and resumed.app.message is None
    resumed.script("press RIGHT\npress RIGHT\nwait 3000")
    assert flash.writes == 1 and flash.erases == 0  # appended after the torn bytes
    again = PureBoard(bytearray(flash.data))
    assert again.app.engine.state["sc"] == [3, 0, 0, 0]
    assert again.app.store.tail == 0  # nothing stepped over after the newest record


@pytest.mark.parametrize("second", ["inside", "at every byte"])
def test_two_cuts_in_a_row_lose_only_the_last_save_each(second):
    """A torn save, a boot, and the first save after it torn too: the game is back as the save
    before each cut left it. (That first save used to erase the sector: a cut there lost all.)"""
    board = PureBoard()
    board.script(SETUP + "press RIGHT\nwait 3000")
    _, torn = torn_save(board)
    resumed = PureBoard(bytearray(torn))
    good = clone(resumed.app.engine.state)  # P1 = 1: the save before the cut
    before, start = bytes(resumed.nvm), resumed.app.store.end
    resumed.script("press TURN\nwait 3000")  # the first save after the boot, to tear
    after, end = bytes(resumed.nvm), resumed.app.store.end
    assert after[:start] == before[:start] and end > start  # appended: no erase
    page = start % 256  # programming starts at the page's first byte
    cuts = [page + (end - start) // 2] if second == "inside" else range(page, page + end - start)
    for cut in cuts:
        image = bytearray(before)
        flash_write(image, start, after[start:end], cut_after=cut)
        back = PureBoard(image)
        assert back.app.engine is not None, cut
        assert back.app.engine.state == good, cut
        assert back.app.message is None, cut


def test_a_first_record_torn_after_its_magic_reads_as_torn_not_as_a_newer_firmware():
    board = PureBoard()
    board.script("press DOWN\npress OK\nwait 3000")  # English: the first save
    for cut in (1, 2):
        image = bytearray(b"\xff" * 4096)
        image[:cut] = board.nvm[:cut]
        store = persist.Store(image)
        assert scan.load(store) == persist.TORN, cut


def test_a_torn_record_whose_crc_still_matches_falls_back_to_the_one_before():
    nvm = journal(snapshot(game(), [(free.ADD, 0, 3)]), delta([(255, -1, -1)], keep=1))
    boots(nvm)
    resumed = PureBoard(nvm)
    assert resumed.app.engine.state["sc"] == [3, 0]
    assert resumed.rows()[4].startswith("1 actions dropped")


def test_a_delta_that_does_not_decode_leaves_the_records_before_it():
    nvm = journal(snapshot(game(), [(free.ADD, 0, 3)]), delta([(free.ADD, 1, 2)], keep=1))
    store = persist.Store(nvm)
    scan.load(store)
    # a third record whose CRC holds over bytes no firmware wrote
    assert store.save(b"\x01\x00\xff\xff{{{{", 1)
    board = PureBoard(nvm)
    assert board.app.engine.state["sc"] == [3, 2]
    assert board.rows()[4].startswith("Older save resumed")


def test_a_cut_inside_the_erase_leaves_a_sector_that_reads_as_a_new_device():
    board = PureBoard()
    board.script(GAME)
    torn = bytearray(board.nvm)
    flash_write(torn, 0, b"\x00" * 4096, cut_after=0)  # the compaction's erase, cut
    resumed = PureBoard(torn)
    assert resumed.app.engine is None
    assert resumed.rows()[0].startswith("Langue / Language")  # the language is asked again
    assert resumed.app.message is None  # and nothing claimed: it cannot tell a new device


def test_tearing_the_very_first_save_asks_the_language_again_without_alarm():
    board = PureBoard()
    board.script("press DOWN\npress OK\nwait 3000")  # English: the first save
    first = bytes(board.nvm)
    length = board.app.store.end
    for cut in (3, persist.HEADER_SIZE, length // 2, length - 1):
        torn = bytearray(b"\xff" * 4096)
        torn[:cut] = first[:cut]
        resumed = PureBoard(torn)
        assert resumed.rows()[0].startswith("Langue / Language"), cut
        assert not resumed.rows()[4].startswith("Save unreadable"), cut


def test_a_newer_format_says_so_and_an_older_one_too():
    nvm = bytearray(IMAGE)
    nvm[2] = persist.FORMAT + 1
    assert scan.load(persist.Store(nvm)) == persist.NEWER_FORMAT
    assert PureBoard(nvm).rows()[4].startswith("Save: newer firmware")
    nvm[2] = 1
    assert scan.load(persist.Store(nvm)) == persist.OLD_FORMAT
    assert PureBoard(nvm).rows()[4].startswith("Old save reset")


def test_a_full_journal_compacts_into_one_snapshot_that_resumes_the_game():
    flash = Flash()
    board = PureBoard(flash)
    board.script(SETUP)
    while flash.erases == 0:
        board.script("press RIGHT\nwait 2100")
    store = board.app.store
    state = board.app.engine.state
    assert scan.load(persist.Store(flash)) == persist.OK
    assert bytes(flash[store.end : 4096]) == b"\xff" * (4096 - store.end)
    board.script("power-cut\nboot\nwait 1000")
    assert board.app.engine.state == state
    board.script("press BACK")  # the undo history came through the compaction
    assert board.app.engine.state["sc"][0] == state["sc"][0] - 1


# ------------------------------------------------------- nonsense under a valid CRC
BAD_BASES = {
    "float score": dict(game(), sc=[1.5, 0]),
    "boolean score": dict(game(), sc=[True, 0]),
    "too many players": dict(game(), n=9),
    "everyone out (hand-over would loop)": dict(game(), out=3),
    "no direction (loops)": dict(game(), dir=0),
    "score out of range": dict(game(), sc=[10**6, 0]),
    "a string for a list": dict(game(), sc="12"),
    "deep nesting": dict(game(), sc=[[[[[[[[[1]]]]]]]]]),
    "missing keys": {"n": 2},
    "a list": [1, 2],
}


@pytest.mark.parametrize("name", BAD_BASES)
def test_a_base_that_breaks_the_rules_is_never_used(name):
    nvm = journal(snapshot(BAD_BASES[name], [(free.ADD, 0, 1)], lang="fr"))
    board = boots(nvm)
    resumed = PureBoard(nvm)
    assert resumed.app.engine is None and resumed.app.language == "fr"  # the rest is kept
    assert resumed.rows()[4].startswith("Partie illisible")
    assert board is not None


BAD_ACTIONS = {
    "unknown opcode": (99, 0, 0),
    "player out of range": (free.ADD, 7, 1),
    "step out of range": (free.ADD, 0, 30000),
    "negative seconds": (table.NEXT, -5, 0),
    "bad setting": (table.SET, 200, 1),
}


@pytest.mark.parametrize("name", BAD_ACTIONS)
def test_a_bad_action_is_salvaged_the_game_resumes_before_it(name):
    log = [(free.ADD, 0, 5), (table.NEXT, 3, 0), BAD_ACTIONS[name], (free.ADD, 1, 2)]
    board = PureBoard(journal(snapshot(game(), log)))
    state = board.app.engine.state
    assert state["sc"] == [5, 0] and state["act"] == 1  # the two good actions
    assert board.rows()[4].startswith("2 actions dropped")
    check(board)
    board.script("wait 3000\npower-cut\nboot")  # the salvaged game is saved as such
    assert board.app.engine.state == state and board.app.message is None


def test_an_action_that_breaks_an_invariant_is_dropped_with_what_follows():
    log = [(free.ADD, 0, 100)] * 99 + [(free.ADD, 0, 100), (free.ADD, 1, 1)]
    board = PureBoard(journal(snapshot(game(), log)))
    assert board.app.engine.state["sc"] == [9900, 0]  # 9999 is the limit: the 100th refused
    assert board.rows()[4].startswith("2 actions dropped")


def test_replay_work_at_boot_is_bounded(monkeypatch):
    import importlib

    module = importlib.import_module("potager.restore_game")
    sys.modules["potager.restore_game"] = module  # what the next boot imports
    monkeypatch.setattr(module, "PLENTY", 30)
    log = [(table.NEXT, 0, 0)] * 40
    board = boots(journal(snapshot(game(), log[:10]), delta(log[10:], keep=10)))
    assert len(board.app.engine.log) < 30 + 10
    sys.modules["potager.restore_game"] = module
    board = PureBoard(journal(snapshot(game(), log[:10]), delta(log[10:], keep=10)))
    assert board.rows()[4].startswith("%d actions dropped" % (40 - 30))
    assert PLENTY >= 800 + 256 * 48 // 8  # a full sector of actions replays within the bound


def test_history_records_and_settings_are_checked_field_by_field():
    good = [1, "free", [0, 1], [12, 9], [0]]
    hist = [good, [2, "free", [0, 1], [1.5, 2], [0]], [3, "chess", [0], [1], [0]], "junk"]
    hist += [[4, "free", [0, 0], [1, 2], [0]], [5, "free", [0, 1], [3, 4], [True]]]
    nvm = journal(snapshot(game(), [], hist=hist, set={"bri": 9, "night": 1}))
    board = PureBoard(nvm)
    app = board.app
    assert app.history == [good] and app.engine.state == game()
    assert app.power.settings["night"] == 1 and app.power.settings["bri"] == 4
    assert board.rows()[4].startswith("1 games kept")


@pytest.mark.parametrize(
    "rec", [{"hortis": {"b": [1.5, None], "rec": []}}, {"x": 1}, [1], {"hortis": {"b": [1]}}]
)
def test_bad_records_are_dropped_alone(rec):
    board = PureBoard(journal(snapshot(game(), [(free.ADD, 0, 1)], rec=rec)))
    assert board.app.records == {} and board.app.engine.state["sc"] == [1, 0]
    assert board.rows()[4].startswith("Records reset")


def test_a_delta_patch_is_checked_too():
    nvm = journal(snapshot(game()), delta([(free.ADD, 0, 2)], keep=0, lang="xx", set=[1]))
    board = PureBoard(nvm)
    assert board.app.language == "en" and board.app.engine.state["sc"] == [2, 0]
    assert board.rows()[4].startswith("Settings reset")
    nvm = journal(snapshot(game()), delta([(free.ADD, 0, 2)], keep=5))  # keep past the log
    assert PureBoard(nvm).rows()[4].startswith("1 actions dropped")


# ------------------------------------------------------------------ noise
def random_image(seed):
    """Noise; every other one dressed as our records (magic, format) to get past the first
    check."""
    rng = random.Random(seed)
    nvm = bytearray(rng.randrange(256) for _ in range(4096))
    if seed % 2:
        nvm[0:4] = persist.MAGIC + bytes([persist.FORMAT, rng.randrange(2)])
        nvm[8:10] = rng.randrange(64).to_bytes(2, "little")
    return bytes(nvm)


@pytest.mark.parametrize("seed", range(60))
def test_random_images_never_crash_the_boot(seed):
    nvm = random_image(seed)
    board = boots(nvm)
    if scan.load(persist.Store(bytearray(nvm))) != persist.OK:
        assert board.app.engine is None or board.app.store.writes  # clean start


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 4096 * 8 - 1), min_size=1, max_size=8))
def test_bit_flips_in_a_real_save_never_crash_and_never_give_a_wrong_game(bits):
    nvm = bytearray(IMAGE)
    for bit in bits:
        nvm[bit // 8] ^= 1 << (bit % 8)
    board = PureBoard(nvm)
    engine = board.app.engine
    assert (engine.state if engine else None) in SAVED  # a game saved exactly, or none
    boots(nvm)


def test_every_byte_of_the_save_corrupted_in_turn():
    rng = random.Random(5)
    store = persist.Store(bytearray(IMAGE))
    scan.load(store)
    for offset in range(store.end):
        nvm = bytearray(IMAGE)
        nvm[offset] ^= rng.randrange(1, 256)
        board = PureBoard(nvm)
        engine = board.app.engine
        assert (engine.state if engine else None) in SAVED, offset
        if engine is None:
            assert board.rows()[4].strip() or board.rows()[0].startswith("Langue"), offset


# ------------------------------------------------------------------ history
def test_end_game_says_when_the_oldest_games_made_room():
    board = PureBoard()
    board.script(SETUP)
    app = board.app
    app.history = [[i, "free", [0, 1, 2, 3], [100, 200, 300, 400], [3]] for i in range(1, 60)]
    kept = len(app.history)
    app.finish_game([1, 2, 3, 4], [3])
    dropped = kept + 1 - len(app.history)
    assert dropped > 0 and len(json.dumps(app.history)) <= 1024
    assert board.app.message == "%d old games dropped" % dropped
    board.script("wait 3000\npower-cut\nboot")
    assert len(board.app.history) == kept + 1 - dropped


def test_the_saving_page_says_how_many_games_fit_for_each_mode_and_player_count():
    from host_tools import bench

    fit = bench.history_fit()
    assert 10 <= fit["free"][6] <= fit["free"][1] <= 50
    page = bench.SAVING_PAGE.read_text(encoding="utf-8")
    assert bench.history_table(fit) in page  # `make bench` writes it into docs/saving.md


def test_after_a_wipe_the_next_save_starts_the_journal_with_a_snapshot():
    from potager.ui import system

    flash = Flash()
    board = PureBoard(flash)
    board.script(GAME)
    system.wipe(board.app)
    assert bytes(flash.data) == b"\xff" * 4096
    board.script("press OK\npress OK\npress RIGHT\nwait 3000\npower-cut\nboot")  # OK starts
    assert board.app.engine is not None and board.app.engine.state["sc"][0] == 1


def test_the_texts_of_the_save_checks_exist_in_both_languages_and_fit_a_row():
    from potager import lang

    tables = {}
    for code in ("en", "fr"):
        __import__("potager.lang." + code + "_save")
        tables[code] = sys.modules["potager.lang." + code + "_save"].T
    assert sorted(lang.keys(tables["en"])) == sorted(lang.keys(tables["fr"]))
    for texts in tables.values():
        for key in lang.keys(texts):
            assert len(lang.Texts([texts]).get(key).replace("#", "999")) <= 21, key
    for key in ("h.dropped", "save2", "save3"):
        for code in ("en", "fr"):
            text = lang.load(code).get(key)
            assert text and len(text.replace("#", "99")) <= 21, key


def test_a_sector_full_of_stray_magics_is_scanned_with_bounded_work():
    """Headers that parse, each with a 256-byte payload to check and none with a valid CRC:
    the scan gives up after a few dozen instead of checking all 341 (a boot never drags)."""
    header = b"PG\x02\x00" + b"\x01\x00\x00\x00" + b"\x00\x01" + b"\x00\x00"
    nvm = bytearray((header * (4096 // len(header) + 1))[:4096])
    store = persist.Store(nvm)
    calls = []
    real = scan.crc16
    scan.crc16 = lambda data, start=0xFFFF: calls.append(len(data)) or real(data, start)
    try:
        assert scan.load(store) == persist.TORN
    finally:
        scan.crc16 = real
    assert len(calls) <= 2 * 40
    boots(nvm)
