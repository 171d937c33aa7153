"""The host tools without the POSIX-only terminal modules, as on Windows: every module imports,
every command answers --help, a headless simulator run and a score go through, and the
interactive board says in one line what it needs."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
POSIX_ONLY = ("termios", "tty", "fcntl")
# None in sys.modules makes `import termios` raise ImportError, as it does on Windows
NO_HELP = {"bench"}  # measures whatever its arguments: minutes
PRELUDE = f"import sys\nfor name in {POSIX_ONLY!r}:\n    sys.modules[name] = None\n"


def run_without_posix(code, *args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", PRELUDE + code, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def run_command(*argv):
    code = "import runpy\nsys.argv = sys.argv[1:]\n"
    code += "runpy.run_module('host_tools', run_name='__main__')"
    return run_without_posix(code, "host_tools", *argv)


def test_the_prelude_blocks_the_modules():
    result = run_without_posix("import termios")
    assert result.returncode == 1 and "import of termios halted" in result.stderr


def test_every_host_tools_module_imports():
    code = """
import importlib, pkgutil, host_tools
names = [m.name for m in pkgutil.walk_packages(host_tools.__path__, "host_tools.")]
for name in names:
    importlib.import_module(name)
blocked = [n for n in sys.modules if n in ("termios", "tty", "fcntl") and sys.modules[n]]
print(len(names), blocked)
"""
    result = run_without_posix(code)
    assert result.returncode == 0, result.stderr
    count, blocked = result.stdout.split(maxsplit=1)
    assert int(count) >= 20 and blocked.strip() == "[]"


@pytest.mark.parametrize("command", sorted(set(COMMANDS) - NO_HELP))
def test_every_command_answers_help(command):
    result = run_command(command, "--help")
    assert result.returncode == 0, result.stderr
    assert "usage" in result.stdout.lower()


def test_a_headless_run_and_a_score(tmp_path):
    png, frames = tmp_path / "board.png", tmp_path / "frames.jsonl"
    script = ROOT / "docs" / "scripts" / "free.txt"
    result = run_command(
        "sim", "--headless", "--script", str(script), "--png", str(png), "--frames", str(frames)
    )
    assert result.returncode == 0, result.stderr
    assert png.stat().st_size > 0 and len(frames.read_text("utf-8").splitlines()) > 5
    game = {"players": [{"name": n, "card_points": p, "synergy": 0, "earthworm": 0,
                         "validated_cards": 3} for n, p in (("Ana", 9), ("Bo", 4))]}  # fmt: skip
    source = tmp_path / "game.json"
    source.write_text(json.dumps(game), "utf-8")
    result = run_command("score", "horticolor", str(source))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["Ana"]


def test_the_interactive_board_says_what_it_needs():
    code = "from host_tools.sim.tui import terminal_problem\nprint(terminal_problem())"
    result = run_without_posix(code)
    assert result.returncode == 0, result.stderr
    assert "POSIX terminal" in result.stdout and "--headless --script FILE" in result.stdout
