"""The UI explorer (host_tools/explore.py): a short fixed-seed run finds nothing on the firmware,
and each of its checks finds the trap planted for it in a copy of the firmware."""

import shutil
from pathlib import Path

from soak import SCALE

from host_tools import explore
from host_tools.sim.runner import DEFAULT_FIRMWARE

START = "free-4p-start"


def planted(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """A copy of the firmware with `old` replaced by `new` in `file` (potager/...)."""
    copy = tmp_path / "firmware"
    shutil.copytree(DEFAULT_FIRMWARE, copy)
    path = copy / "potager" / file
    text = path.read_text()
    assert old in text, f"the trap's place moved: {old!r} is no longer in {file}"
    path.write_text(text.replace(old, new, 1))
    return copy


def explorer(firmware: Path = DEFAULT_FIRMWARE) -> tuple[explore.Explorer, explore.Start]:
    found = explore.Explorer(firmware, seed=1, budget=0, walk_steps=0)
    start = next(s for s in explore.starts() if s.name == START)
    found.start = start
    return found, start


def checks(found: explore.Explorer) -> set[str]:
    return {finding.check for finding in found.findings.values()}


def test_a_short_run_finds_nothing():
    report = explore.explore(
        seed=1,
        budget=20 * SCALE,
        walk_steps=30 * SCALE,
        only=("free-4p-start", "diced_tomatoes-4p-start"),
    )
    assert report["findings"] == []
    assert report["coverage"]["visited"] > 5


def found_after(firmware: Path, *keys: tuple[str, bool]) -> set[str]:
    """The checks that fire when `keys` are pressed on the start's game, on `firmware`."""
    found, start = explorer(firmware)
    dev = found.device(start)
    try:
        for key in keys:
            found.act(dev, key)
    finally:
        dev.close()
    return checks(found)


def test_back_that_does_nothing_is_found(tmp_path):
    firmware = planted(
        tmp_path, "ui/screens.py", "elif key == keys.BACK and kind == SHORT:", "elif False:"
    )
    assert "back" in found_after(firmware, ("OK", False), ("BACK", False))  # (the game menu)


def test_hold_ok_without_help_is_found(tmp_path):
    firmware = planted(
        tmp_path,
        "ui/screens.py",
        'app.push(registry.load("potager.ui.menu").HelpScreen(self.HELP))',
        "pass",
    )
    assert "help" in found_after(firmware, ("OK", True))


def test_a_crash_and_a_clipped_row_are_found(tmp_path):
    firmware = planted(
        tmp_path,
        "ui/free.py",
        'out.append(fit(app.tr("f.hint"), COLS))',
        'out.append(app.tr("f.hint") + "-" * 30)\n        1 / (state["sc"][0] - 1)',
    )
    # P1 1: the planted division by zero
    assert {"clip", "crash", "error-screen"} <= found_after(firmware, ("RIGHT", False))


def test_a_turn_that_cannot_be_handed_over_is_found(tmp_path):
    firmware = planted(  # the turn's seconds uncapped, as they were
        tmp_path,
        "core/clock.py",
        "return min(max(0, self.turn_ms(now) // 1000), MAX_SECONDS)",
        "return max(0, self.turn_ms(now) // 1000)",
    )
    found, start = explorer(firmware)
    went = []
    for wait_s in (0, explore.MAX_SECONDS + 1):
        dev = found.device(start, console=True)
        try:
            went.append(found.clock_edge(dev, wait_s, "TURN", None, bool(went)))
        finally:
            dev.close()
    assert went == [True, False] and "clock" in checks(found)


def test_a_game_lost_to_a_power_cut_is_found(tmp_path):
    firmware = planted(
        tmp_path,
        "saving.py",
        "    def due(self, now, last_input):\n",
        "    def due(self, now, last_input):\n        return False\n",
    )
    found, start = explorer(firmware)
    found.images[start.name] = explore.build_image(start, DEFAULT_FIRMWARE, None)  # saved once
    found.check_survives(start, [("RIGHT", False)])
    assert {"cut", "reload"} <= checks(found)


def test_every_screen_class_is_known_with_its_modes():
    screens = explore.screens_that_exist(DEFAULT_FIRMWARE)
    assert screens["free.GameScreen"] == ("free",)
    assert screens["screens.HomeScreen"] == (None,)
    assert "arboretum" not in screens["stats.StatsScreen"]
    assert "screens.Screen" not in screens
