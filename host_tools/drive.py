"""What a CIRCUITPY drive holds for Potager: the firmware and its libraries, file by file.

The libraries come from this venv's own installed packages, at the versions
``requirements.txt`` pins, so the board runs exactly the library code the tests ran (a
bundle installed with ``circup`` holds whatever version is current that day). Deploy and the
emulated Pico's drive image both build from here.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

from host_tools.deploy import (
    ROOT,
    Refused,
    compile_mpy,
    module_for,
    required_modules,
    source_files,
)

FIRMWARE = ROOT / "firmware"
DEVICE_REQUIREMENTS = ROOT / "requirements-device.txt"
HOST_REQUIREMENTS = ROOT / "requirements.txt"
DEFAULT_BOARD = "raspberry_pi_pico"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


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
    board_id: str = DEFAULT_BOARD, requirements: Path = DEVICE_REQUIREMENTS
) -> dict[str, tuple[Path, str]]:
    """Each library file for lib/: drive path -> (site-packages folder, path inside it).

    Refuses a library whose installed version is not the one requirements.txt pins."""
    pins = pinned_versions()
    found: dict[str, tuple[Path, str]] = {}
    for module in required_modules(requirements, board_id):
        dist = _distribution_of(module)
        name = _normal(dist.metadata["Name"])
        if pins.get(name) != dist.version:
            raise Refused(
                f"{name} {dist.version} is installed but requirements.txt pins "
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
    board_id: str = DEFAULT_BOARD,
    requirements: Path = DEVICE_REQUIREMENTS,
) -> dict[str, bytes]:
    """lib/ of the drive: drive path -> bytes, compiled to .mpy when mpy_cross is given."""
    files: dict[str, bytes] = {}
    by_base: dict[Path, list[str]] = {}
    for drive_rel, (base, rel) in library_sources(board_id, requirements).items():
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


__all__ = ["circuitpy_files", "library_files", "library_sources", "module_for", "pinned_versions"]
