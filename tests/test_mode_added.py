"""A mode added by following docs/adding-a-mode.md, that lives in the test suite only: the radish
race (tests/modes/radishes). Its descriptor and its own modules make it a mode of the device:
it plays in the simulator in both languages (its setup field, undo, a power cut, its record
kept across power-ups and checked at boot), runs on CircuitPython's VM as on CPython, its saves
survive power cuts, and its games export."""

import filecmp
import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import mpy_runner
import pytest

from host_tools import bgstats, cuts, export
from host_tools.sim import SimBoard

sys.path.insert(0, str(Path(__file__).parent / "modes" / "radishes"))
import build  # (tests/modes/radishes/build.py)

HERE = Path(__file__).resolve().parent
MODE = HERE / "modes" / "radishes"
RACE = (MODE / "race-3p.txt").read_text()  # English, 3 players, an undo and a power cut
AGAIN = (MODE / "race-fr.txt").read_text()  # then in French, ended from the menu
FIRMWARE = HERE.parent / "firmware"


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    return build.firmware_with_radishes(tmp_path_factory.mktemp("radishes") / "firmware")


@pytest.fixture(scope="module")
def played(firmware):
    first = SimBoard(firmware).run_script(RACE)
    return first, SimBoard(firmware, nvm=first.nvm).run_script(AGAIN)


def screen(result):
    return [row.rstrip() for row in result.frames[-1]["screen"]]


def test_the_mode_took_its_descriptor_its_modules_and_its_names_alone(firmware):
    changed, added = [], []

    def walk(compare, where):
        changed.extend(where + name for name in compare.diff_files)
        added.extend(where + name for name in compare.right_only)
        for name, sub in compare.subdirs.items():
            walk(sub, where + name + "/")

    walk(filecmp.dircmp(FIRMWARE, firmware, ignore=["__pycache__"]), "")
    assert sorted(changed) == [
        "potager/core/registry.py",
        "potager/lang/en.py",
        "potager/lang/fr.py",
    ]
    assert sorted(added) == [
        "potager/core/games/radishes.py",
        "potager/core/games/radishes_records.py",
        "potager/lang/en_radishes.py",
        "potager/lang/fr_radishes.py",
        "potager/ui/radishes.py",
    ]
    # what test_registry checks of every shipped mode's modules, run on this one's
    found = subprocess.run(
        [sys.executable, "-c", CHECK],
        capture_output=True,
        text=True,
        env=dict(
            os.environ, PYTHONPATH=os.pathsep.join([str(firmware), str(HERE), str(HERE.parent)])
        ),
    )
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout) == []


# test_registry's checks of a descriptor's modules and setup fields, in a process that imports
# the firmware with the mode added (this one imports the shipped firmware)
CHECK = """
import json
import test_registry as t
from potager.core import registry
from potager.lang import en, fr

mode = registry.entry("radishes")
out = []
for path, functions in ((mode[registry.RULES], ("new", "reduce", "check")),
                        (mode[registry.SCREENS], t.SCREEN_FUNCTIONS),
                        (mode[registry.RECORDS], ("records",))):
    lacking = [f for f in functions if not hasattr(registry.load(path), f)]
    out += [path + " lacks " + f for f in lacking]
for code, shared in (("en", en), ("fr", fr)):
    texts = t.text_keys(shared) | t.text_keys(registry.load("potager.lang.%s_radishes" % code))
    out += t.setup_problems(registry.screens("radishes"), 1, 4, texts)
    out += [key for key in ("m.radishes", "res.mode_short_radishes") if key not in texts]
print(json.dumps(out))
"""


def test_it_plays_in_the_simulator_in_both_languages_and_keeps_its_record(played):
    first, again = played
    assert first.crashes == [] and again.crashes == []
    rows = [" | ".join(row.rstrip() for row in f["screen"]) for f in first.frames]
    assert any("Target  20 radishes" in row for row in rows)  # the setup field, changed
    assert any("♣P3*     1 | Undone: ♣P3 +1" in row for row in rows)
    cut = next(i for i, f in enumerate(first.frames) if f["t_ms"] > 7000)
    assert "♣P3*     1" in " | ".join(first.frames[cut]["screen"])  # back after the cut
    results = screen(first)
    assert results[0] == "Results" and results[1] == "▶ 1 ♥P1*          10"
    assert any("Best harvest: 10" in row for row in rows)  # said on the results
    # a power-up later, in French: the same setup again, the record kept (checked at boot)
    assert screen(again) == [
        "Résultats",
        "▶ 1 ♥P1*           2",
        "  2 ●P2            0",
        "  2 ♣P3            0",
        "Record : 10",
    ]
    assert not any("Records reset" in row for f in again.frames for row in f["screen"])


def test_it_runs_on_circuitpython_vm_as_on_cpython(firmware, tmp_path):
    vm = mpy_runner.run_app(RACE, tmp_path, heap="128K", mpy=True, firmware=firmware)
    script = tmp_path / "race.txt"
    script.write_text(RACE)
    path = os.pathsep.join([str(firmware), str(mpy_runner.HARNESS)])
    host = subprocess.run(
        [sys.executable, str(mpy_runner.HARNESS / "run_app.py"), str(script)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=path),
    )
    assert host.returncode == 0, host.stderr
    cpython = json.loads(host.stdout)
    assert vm["snapshot"] == cpython["snapshot"] and vm["rows"] == cpython["rows"]
    assert vm["rows"][1].rstrip() == "▶ 1 ♥P1*          10"
    assert vm["idle_growth_bytes"] == 0


def test_its_saves_survive_power_cuts(firmware):
    previous = (HERE / "fullgames" / (cuts.PREVIOUS_DEFAULT + ".txt")).read_text()
    # its first 2 saves cut, each followed by a cut in the first save after the boot (none
    # after a cut in the very first: the race's start is lost, the keys after the boot play
    # no race and save nothing)
    report = cuts.matrix(cuts.sim_runner(firmware), previous, RACE, 1, 2)
    assert report.losses == []
    assert report.writes >= 10 and report.pairs == 3


def test_its_games_export(played, tmp_path, monkeypatch):
    nvm = tmp_path / "nvm.bin"
    nvm.write_bytes(played[1].nvm)

    def run(*args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = export.main(["--nvm", str(nvm), *args])
        assert code == 0, err.getvalue()
        return out.getvalue()

    games = json.loads(run("--format", "json"))
    assert [g["mode"] for g in games] == ["radishes", "radishes"]
    assert [[p["total"] for p in g["players"]] for g in games] == [[10, 6, 1], [2, 0, 0]]
    assert [p["winner"] for p in games[0]["players"]] == [True, False, False]
    monkeypatch.setitem(bgstats.GAMES, "radishes", ("Radish Race", None))  # § 6's entry
    plays = [json.loads(line) for line in run("--format", "bgstats").splitlines()]
    assert [p["game"]["name"] for p in plays] == ["Radish Race", "Radish Race"]
    assert [p["score"] for p in plays[0]["players"]] == [10, 6, 1]
