"""The CircuitPython kit: CircuitPython's own 32-bit unix VM and its mpy-cross, for the tests
and benchmarks that want the board's runtime without a board.

No package registry ships these binaries: they are looked for in ``$POTAGER_CIRCUITPYTHON``,
else ``../shared/circuitpython`` beside the project. They may lie read-only and without their
run bit, so each is used from a copy in the temporary folder. Where one is absent, ``missing``
says in one line what is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KIT_ENV = "POTAGER_CIRCUITPYTHON"
VM = "micropython-unix-circuitpy32-10.2.1-static"  # 32-bit, the boards' 2 KiB Python stack
MPY_CROSS = "mpy-cross-10.2.1-static"
MPY_CROSS_9 = "mpy-cross-9.2.9-static"


def kit_dir() -> Path:
    return Path(os.environ.get(KIT_ENV) or ROOT.parent / "shared" / "circuitpython")


def missing(*names: str) -> str | None:
    """One line naming what is absent, or None when every binary is there."""
    absent = [name for name in names if not (kit_dir() / name).is_file()]
    if not absent:
        return None
    return f"CircuitPython kit: {', '.join(absent)} not in {kit_dir()} (set ${KIT_ENV})"


def executable(name: str) -> Path | None:
    """A runnable copy of the kit's binary `name`, or None when the kit lacks it."""
    source = kit_dir() / name
    if not source.is_file():
        return None
    folder = Path(tempfile.gettempdir(), f"potager-cpkit-{os.getuid()}")
    folder.mkdir(exist_ok=True)
    copy = folder / name
    stat = source.stat()
    if not copy.is_file() or copy.stat().st_size != stat.st_size:
        partial = folder / f".{name}.{os.getpid()}"
        shutil.copyfile(source, partial)
        partial.chmod(0o755)
        os.replace(partial, copy)  # atomic: parallel runs never see half a binary
    return copy


def compile_tree(mpy_cross: Path, sources: list[Path], out: Path) -> Path:
    """Every .py under each folder of `sources` compiled into `out` as .mpy (other files
    copied), the way the drive holds them; returns `out`."""
    for top in sources:
        for path in sorted(top.rglob("*")):
            rel = path.relative_to(top)
            if not path.is_file() or "__pycache__" in rel.parts:
                continue
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix == ".py":
                cmd = [str(mpy_cross), "-o", str(target.with_suffix(".mpy")), "-s"]
                subprocess.run([*cmd, rel.as_posix(), str(path)], check=True, timeout=60)
            else:
                shutil.copyfile(path, target)
    return out


def run_vm(
    script: Path,
    *args: object,
    heap: str,
    path: list[Path],
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    """`script` on CircuitPython's 32-bit VM with ``-X heapsize=heap``, MICROPYPATH = path."""
    vm = executable(VM)
    if vm is None:
        raise FileNotFoundError(missing(VM))
    env = {"MICROPYPATH": ":".join(str(p) for p in path), "PATH": "/usr/bin:/bin"}
    cmd = [str(vm), "-X", "heapsize=" + heap, str(script), *[str(a) for a in args]]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
