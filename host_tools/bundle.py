"""Zip what deploy puts on a CIRCUITPY drive, for people who copy it by hand (no Python).

    python -m host_tools bundle [--out build/bundle] [--major 9|10 ...] [--py]

One zip per CircuitPython major, ``potager-circuitpython-<major>.zip``: its top is the
drive's top (``code.py``, ``potager/``, ``lib/`` with the pinned libraries, deploy's record
``.potager-deploy.json``) plus a ``README.txt`` saying how to copy it and for which
CircuitPython it is. One zip per major rather than one zip with a folder per major: its
files go straight onto the drive (unzipped onto it, or copied all at once), with no folder
to pick nor a level to strip, and a wrong pick shows in the file's name.

The files are deploy's own selection (``deploy.firmware_files``: the same sources, libraries
and record). ``potager/`` and ``lib/`` go as ``.mpy`` compiled by the mpy-cross of that
major: the CircuitPython kit's (host_tools/cpkit.py), else one deploy would find (on PATH or
in ``mpy-cross/``); without one, as ``.py`` sources, said in one line (they run on either
major). The libraries are those every supported board needs (pins.TABLES): on the boards
that have one built in, the core module is imported first. The zips are byte for byte the
same from one run to the next: fixed timestamps and modes, sorted entries.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
import zipfile
from collections.abc import Sequence
from pathlib import Path

from host_tools import cpkit
from host_tools.common import firmware
from host_tools.deploy import (
    MANIFEST,
    add_firmware_arguments,
    firmware_files,
    printable,
    record_bytes,
    sha,
)
from host_tools.drive import (
    DEVICE_REQUIREMENTS,
    FIRMWARE,
    PACKAGE,
    ROOT,
    Refused,
    check_mpy_cross,
    circuitpython_major,
    required_modules,
    search_mpy_cross,
)

OUT = ROOT / "build" / "bundle"
MAJORS = (9, 10)
KIT_MPY_CROSS = {9: cpkit.MPY_CROSS_9, 10: cpkit.MPY_CROSS}
README = "README.txt"
STAMP = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can say: no build time in the bytes
BOARD_NAMES = {
    "raspberry_pi_pico": "Raspberry Pi Pico",
    "raspberry_pi_pico2": "Raspberry Pi Pico 2",
    "adafruit_feather_rp2040": "Adafruit Feather RP2040",
    "adafruit_macropad_rp2040": "Adafruit MacroPad RP2040",
}


def zip_name(major: int) -> str:
    return f"potager-circuitpython-{major}.zip"


def boards() -> list[str]:
    """The boards the firmware has a pin table for."""
    return list(firmware("potager.hw.pins").TABLES)


def find_mpy_cross(major: int) -> Path | None:
    """The kit's mpy-cross of `major`, else one deploy would find; None when there is none."""
    kit = cpkit.executable(KIT_MPY_CROSS[major]) if major in KIT_MPY_CROSS else None
    if kit is not None:
        try:
            if circuitpython_major(check_mpy_cross(kit)) == major:
                return kit
        except Refused:
            pass  # a kit binary that does not run here: look further
    return search_mpy_cross(major)


def drive_files(
    mpy_cross: Path | None, source: Path = FIRMWARE, requirements: Path = DEVICE_REQUIREMENTS
) -> dict[str, bytes]:
    """What deploy writes on a drive of any supported board, its record included: path ->
    content. Boards needing the same libraries are compiled for once."""
    files: dict[str, bytes] = {}
    done: set[tuple[str, ...]] = set()
    for board in boards():
        modules = tuple(required_modules(requirements, board))
        if modules not in done:
            done.add(modules)
            files.update(firmware_files(source, mpy_cross, board, requirements))
    files[MANIFEST] = record_bytes({rel: sha(data) for rel, data in files.items()})
    return files


def _version(source: Path) -> str:
    init = source / PACKAGE / "__init__.py"
    found = re.search(r'^VERSION = "([^"]+)"', init.read_text(encoding="utf-8"), re.M)
    return found.group(1) if found else "?"


def readme(major: int, files: dict[str, bytes], mpy_line: str | None, version: str) -> str:
    """README.txt: what the zip holds, for which CircuitPython, how to copy it."""
    libraries = sorted({Path(rel.split("/")[1]).stem for rel in files if rel.startswith("lib/")})
    listed = " and ".join(filter(None, [", ".join(libraries[:-1]), *libraries[-1:]]))
    if mpy_line is not None:
        by = re.search(r"CircuitPython (\d+\.\d+\.\d+)", mpy_line)
        form = (
            f"The firmware and the libraries are .mpy files compiled for CircuitPython "
            f"{major}.x (by mpy-cross {by.group(1) if by else major}): they do not load on "
            "another major version."
        )
    else:
        form = (
            "The firmware and the libraries are .py sources (this zip was made without "
            "mpy-cross): they run on CircuitPython 9.x and 10.x, in more of the board's RAM."
        )
    title = f"Potager {version} for CircuitPython {major}.x"
    names = ", ".join(BOARD_NAMES.get(b, b) for b in boards())
    paragraphs = [
        f"Everything Potager needs on the board's CIRCUITPY drive: code.py, the potager folder "
        f"(the firmware) and, in lib, the libraries it uses ({listed}), at the versions "
        "Potager is tested with. Nothing else to download.",
        form,
        "Which CircuitPython the board runs: the first line of boot_out.txt on the CIRCUITPY "
        f'drive ("Adafruit CircuitPython {major}.x.y ..."). For another version take the zip '
        f"of that version ({' or '.join(zip_name(m) for m in MAJORS)}). CircuitPython itself "
        f"comes from circuitpython.org (boards: {names}).",
        "To copy it onto the board:",
        "1. Plug the board in: the CIRCUITPY drive appears.",
        "2. If the drive has Potager on it already, delete its potager folder and, in lib, the "
        f"files named {listed} (.py or .mpy): a file an older Potager left there could be "
        "loaded instead of the new one.",
        "3. Copy everything in this zip onto CIRCUITPY (unzip it there, or unzip it elsewhere "
        "and copy all its files and folders), replacing what is there. Your own code.py is "
        "replaced: keep a copy first. This README.txt may come along: the board ignores it. "
        "The hidden file .potager-deploy.json tells Potager's deploy tool which files are "
        "Potager's; copying it or not both work.",
        "4. Wait until the copy has finished (eject the drive), then press the board's reset "
        "button or plug it in again. The screen asks for the language.",
        'With Python and the Potager repository, "python -m host_tools deploy --to CIRCUITPY" '
        "does the same more safely: it copies only what changed, removes what an older Potager "
        "left, and the board never runs half of one firmware and half of another.",
    ]
    lines = [title, "=" * len(title)]
    for text in paragraphs:
        indent = "   " if text[:1].isdigit() else ""
        numbered = text[:1].isdigit() and not text.startswith("1.")
        lines += [""] if not numbered else []
        lines += textwrap.wrap(text, 88, subsequent_indent=indent, break_on_hyphens=False)
    return "\r\n".join(lines) + "\r\n"  # CRLF: Notepad too


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """files, sorted, with fixed times and modes (the same bytes each run), written beside
    path and renamed over it."""
    partial = path.with_name(path.name + ".partial")
    with zipfile.ZipFile(partial, "w") as archive:
        for rel in sorted(files):
            info = zipfile.ZipInfo(rel, date_time=STAMP)
            info.create_system = 3  # unix: the mode below is read by unzip and the like
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[rel], compresslevel=9)
    os.replace(partial, path)


def bundle(
    out: Path,
    major: int,
    py: bool = False,
    source: Path = FIRMWARE,
    requirements: Path = DEVICE_REQUIREMENTS,
) -> Path:
    """The zip for CircuitPython `major` in `out`; returns its path."""
    mpy_cross = None if py else find_mpy_cross(major)
    mpy_line = check_mpy_cross(mpy_cross) if mpy_cross is not None else None
    if mpy_cross is None and not py:
        kit = cpkit.kit_dir() / KIT_MPY_CROSS.get(major, "mpy-cross")
        print(
            f"bundle: no mpy-cross for CircuitPython {major} (not {kit}, none on PATH or in "
            f"{ROOT / 'mpy-cross'}): {zip_name(major)} holds .py sources",
            file=sys.stderr,
        )
    files = drive_files(mpy_cross, source, requirements)  # never a README.txt: deploy's paths
    files[README] = readme(major, files, mpy_line, _version(source)).encode()
    out.mkdir(parents=True, exist_ok=True)
    path = out / zip_name(major)
    write_zip(path, files)
    form = ".py sources" if mpy_cross is None else f".mpy by {mpy_cross.name}"
    size = sum(len(data) for rel, data in files.items() if rel != README)
    print(
        f"bundle: {path}: CircuitPython {major}.x, {len(files) - 1} files for the drive "
        f"({size:,} bytes, {form}) and {README}"
    )
    return path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools bundle",
        description="Zip the CIRCUITPY drive's files (firmware, libraries, README.txt), one "
        "zip per CircuitPython major, for copying onto a board without Python.",
    )
    parser.add_argument(
        "--out", type=Path, default=OUT, help="folder for the zips (default: %(default)s)"
    )
    parser.add_argument(
        "--major",
        type=int,
        action="append",
        choices=MAJORS,
        help="one CircuitPython major (repeatable; default: all of %(choices)s)",
    )
    parser.add_argument("--py", action="store_true", help="sources, not .mpy")
    add_firmware_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if not args.requirements.is_file():
            raise Refused(f"{args.requirements} not found")
        for major in args.major or MAJORS:
            bundle(args.out, major, args.py, args.source, args.requirements)
    except Refused as exc:
        print(f"bundle: {printable(str(exc), limit=1000)}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
