"""Power cuts in pairs over every mode's whole game, in the simulator (host_tools/cuts.py): a
cut inside a save, a boot, a cut inside a save after it, a boot. Each boot brings back the last
complete save; only a cut inside a compaction (the sector full) loses the game, and then the
device asks the language as a new one does. Here the first save and the compaction are cut,
each followed by a cut after the boot; `make cuts` runs the whole matrix."""

import shutil
from pathlib import Path

import pytest

from host_tools import cuts
from host_tools.sim import DEFAULT_FIRMWARE

GAMES = Path(__file__).parent / "fullgames"
MODES = ["free-6p-tie", "diced_tomatoes-3p", "horticolor-3p", "arboretum-3p", "hortis-live"]


def matrix(name, run=None, firsts=1):
    path = GAMES / f"{name}.txt"
    previous = GAMES / f"{cuts.PREVIOUS.get(cuts.mode_of(path), cuts.PREVIOUS_DEFAULT)}.txt"
    return cuts.matrix(run or cuts.sim_runner(), previous.read_text(), path.read_text(), 1, firsts)


@pytest.mark.parametrize("name", MODES)
def test_two_cuts_in_a_row_lose_at_most_the_last_save(name):
    report = matrix(name)
    assert report.losses == []
    # the game under test compacts the journal once, and its cuts were tried there too
    assert report.erases == 1 and report.window >= 2
    # the first save cut, then the save after its boot; both cuts inside the compaction
    assert report.pairs >= 4


def test_the_matrix_finds_a_sector_erased_before_it_is_full(tmp_path):
    """The rule the journal had: any byte after the newest record (a torn one) and the next
    save erased the sector, where a second cut lost everything."""
    firmware = tmp_path / "firmware"
    shutil.copytree(DEFAULT_FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    scan = firmware / "potager" / "core" / "scan.py"
    text = scan.read_text()
    rule = "    self.blank = skips > 0"
    assert rule in text
    scan.write_text(text.replace(rule, "    self.blank = skips > 0 and self.tail == 0"))
    report = matrix("diced_tomatoes-3p", cuts.sim_runner(firmware))
    assert any("erased with" in loss for loss in report.losses)


def test_a_cut_is_placed_inside_the_write_it_names():
    commands = cuts.parse_script("wait 1000\nhold OK 1500\nwait 3000\n")
    head, tail, at_us = cuts.split(commands, 2_000_000)  # inside the hold: before it
    assert at_us == 1_000_000 and [c.name for c in tail][:1] == ["hold"]
    head, tail, at_us = cuts.split(commands, 3_000_000)  # inside the wait: cut in two
    assert at_us == 3_000_000 and tail[0].number == 2520 and head[-1].number == 480
