"""The spec's deterministic budgets, measured by `make bench`'s own code over the demo session
of every mode (docs/scripts): display traffic per key press, flash wear, idle allocation."""

import json

import pytest

from host_tools import bench

SESSIONS = bench.sessions()


@pytest.fixture(scope="module")
def presses():
    per_press, _ = bench.display(SESSIONS)
    return per_press


def test_every_mode_has_a_demo_session():
    from potager.core import registry

    assert set(registry.names()) <= set(SESSIONS)


def test_a_typical_key_press_sends_at_most_100_bytes_to_the_display(presses):
    presses = sorted(presses)
    assert presses[len(presses) // 2] <= 100  # its changed characters: 25 bytes for one
    assert max(presses) < bench.FULL_FRAME * 2  # never more than a repaint


@pytest.fixture(scope="module")
def flash():
    return bench.flash(SESSIONS)


def test_flash_wear_within_budget(flash):
    writes, naive, gap = flash["writes_per_game"], flash["naive_writes_per_game"], None
    gap = flash["min_interval_ms"]
    assert gap is None or gap >= 2000  # never two writes within 2 s
    for mode, erases in flash["erases_per_game"].items():
        assert erases <= 1, mode  # the spec: at most one sector erase per game on average
    for count in flash["saves_between_erases"].values():
        assert count >= 60  # a journal: dozens of saves between two erases
    for mode, count in writes.items():
        # a 4 KiB sector, ~100,000 erases, must last 1,000 games: at most 100 writes a game
        assert count <= 100, mode
        assert count < naive[mode] or naive[mode] <= 1, mode  # fewer than a write per change


def test_the_idle_loop_allocates_nothing_under_micropython():
    result = bench.run_app(bench.SCRIPTS / "free.txt", 256, idle=10_000)
    assert result is not None and result["idle_growth_bytes"] == 0


def test_the_committed_bench_results_have_the_documented_keys_and_the_bench_page_shows_them():
    results = json.loads(bench.RESULTS.read_text())
    assert set(results) == {
        "display", "heap_kib", "idle_growth_bytes", "nvm", "sim_presses_per_s",
        "arboretum_cli_ms", "deploy_bytes", "circuitpython", "presses", "pico", "resume",
        "macropad",
    }  # fmt: skip
    assert results["pico"] is None or set(results["pico"]) == {"uf2", "sessions"}  # (no kit: null)
    macropad = results["macropad"]
    assert macropad is None or set(macropad) == {"uf2", "sessions", "resume"}
    assert set(results["circuitpython"]) == {"heap_kib", "drive_bytes"}
    assert set(results["display"]) == {
        "bytes_per_press_median", "bytes_per_press_max", "naive_bytes_per_press",
    }  # fmt: skip
    assert set(results["nvm"]) == {
        "writes_per_game",
        "naive_writes_per_game",
        "erases_per_game",
        "min_interval_ms",
        "bytes_per_record",
        "saves_between_erases",
    }
    page = bench.BENCH_PAGE.read_text(encoding="utf-8")
    assert bench.table(results) in page  # `make bench` writes it into docs/bench.md
    assert macropad is None or bench.macropad_table(results) in page


def test_the_bench_plays_on_the_vm_the_games_the_vm_tests_play():
    """make bench measures on CircuitPython's VM the whole game of each mode that
    test_circuitpython_vm.py plays, kept as files in bench/games/ so that the bench imports
    nothing from tests/. When a test's game changes, write its file again."""
    import test_circuitpython_vm

    kept = {path.stem: path.read_text("utf-8") for path in sorted(bench.VM_GAMES.glob("*.txt"))}
    assert kept == test_circuitpython_vm.GAMES, "bench/games/ is not test_circuitpython_vm.GAMES"


def test_the_bench_measures_one_part_alone_and_refuses_what_it_does_not_know(capsys):
    assert bench.main(["--pico", "--resume"]) == 2  # one part at a time: no hour started
    assert "one part at a time" in capsys.readouterr().err
    assert bench.main(["--pcio"]) == 2
    assert "unknown argument '--pcio'" in capsys.readouterr().err
    results = json.loads(bench.RESULTS.read_text())
    for flag, (key, _measure, part_table, marks) in bench.partial_measures().items():
        assert flag == "--" + key and key in results
        page = bench.BENCH_PAGE.read_text(encoding="utf-8")
        assert results[key] is None or part_table(results) in page, flag
        assert marks[0] in page and marks[1] in page
