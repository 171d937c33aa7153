"""Copy the firmware and its libraries onto a CIRCUITPY drive.

    python -m host_tools deploy --to /media/$USER/CIRCUITPY [--dry-run] [--py | --mpy-cross PATH]
                                [--replace]

What goes there (host_tools/drive.py): ``code.py``, ``boot.py`` (only when ``firmware/`` has
one), the ``potager/`` package and, in ``lib/``, the libraries of requirements-device.txt at
their pinned versions, from this venv. By default ``potager/`` and the libraries go as
``.mpy`` (less RAM on the board), compiled with the mpy-cross of the board's CircuitPython
major version (read from ``boot_out.txt``): ``--mpy-cross PATH``, else ``$MPY_CROSS``, else
the first ``mpy-cross*`` on PATH or in ``mpy-cross/`` of the project whose ``--version`` says
that major. ``--py`` deploys the sources.

The user's files are never hurt. Deploy keeps a record of what it wrote on the drive
(``.potager-deploy.json``: path -> sha256); a file is deploy's when the record has it
unchanged, or it already holds what deploy would write. Deploy then:
- writes only changed files (CircuitPython auto-reloads as little as possible), the entry
  point last, each read back and compared;
- removes only its own files that the firmware no longer has (a ``.py`` twin would be
  imported instead of the new ``.mpy``); what it did not write stays, and one that is in the
  way (at a path deploy writes, or a twin of one) stops it, unless ``--replace``;
- never follows a symbolic link, never writes through one, looks only at ``code.py``,
  ``boot.py``, ``potager/``, ``lib/`` and its record: a symlink, FIFO, socket or device there,
  a file where a folder should be (or the reverse), an unreadable or read-only file: one line
  saying what and where, exit 2, nothing written.

Exit status:
  0  done (or, with --dry-run, what a real run would do is printed);
  2  refused before writing anything: bad arguments, not a CIRCUITPY drive, a CircuitPython
     older than 9, no suitable mpy-cross, an odd or foreign file in the way, not enough space;
  3  the copy failed: read-only or full drive, I/O error, or a file read back differently.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import stat
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from host_tools.drive import (
    BUILT_IN,
    DEVICE_REQUIREMENTS,
    FIRMWARE,
    PACKAGE,
    TOP_FILES,
    Refused,
    check_mpy_cross,
    circuitpython_major,
    find_mpy_cross,
    library_files,
    module_for,
    required_modules,
    source_files,
)

MANIFEST = ".potager-deploy.json"
MANIFEST_FORMAT = 1
# What a freshly installed CircuitPython puts in code.py: replacing it hurts nobody.
STOCK_CODE = (b'print("Hello World!")\n', b'print("Hello World!")\r\n', b"")
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
BINARY = getattr(os, "O_BINARY", 0)

__all__ = ["BUILT_IN", "check_mpy_cross", "main", "module_for", "required_modules"]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISDIR, "a folder"),
    ):
        if test(mode):
            return name
    return "a file"


@dataclass
class Plan:
    files: dict[str, bytes]  # drive-relative POSIX path -> content wanted there
    record: dict[str, str]  # what deploy wrote and still finds unchanged: path -> sha256
    add: list[str] = field(default_factory=list)
    update: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)  # not deploy's, in the way
    kept: list[str] = field(default_factory=list)  # not deploy's, left alone
    new_dirs: list[str] = field(default_factory=list)

    @property
    def to_write(self) -> list[str]:
        # lib/ and the package first, boot.py and code.py last: the entry point changes last
        def order(rel: str) -> tuple[int, str]:
            return (TOP_FILES.index(rel) + 1 if rel in TOP_FILES else 0, rel)

        return sorted(self.add + self.update, key=order)

    @property
    def bytes_to_write(self) -> int:
        return sum(len(self.files[rel]) for rel in self.to_write)


# ---------------------------------------------------------------------- looking at the drive


class Drive:
    """The drive, looked at without following a link: every path read is lstat'ed first."""

    def __init__(self, path: Path):
        self.path = path
        self.seen: dict[str, bytes] = {}  # regular files read: rel -> content
        self.folders: set[str] = set()

    def lstat(self, rel: str) -> os.stat_result | None:
        try:
            return os.lstat(self.path / rel)
        except FileNotFoundError:
            return None
        except NotADirectoryError:
            return None  # a parent is a file: reported when the parent is looked at
        except OSError as exc:
            raise Refused(f"{rel} on the drive cannot be read ({exc.strerror})") from exc

    def read(self, rel: str, st: os.stat_result) -> bytes:
        if not st.st_mode & stat.S_IRUSR:
            raise Refused(f"{rel} on the drive is unreadable: give it read permission")
        path = self.path / rel
        try:
            # O_NOFOLLOW: a link swapped in since lstat is not followed; O_NONBLOCK: nor hangs
            fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | BINARY)
        except OSError as exc:
            raise Refused(f"{rel} on the drive cannot be read ({exc.strerror})") from exc
        try:
            now = os.fstat(fd)
            if not stat.S_ISREG(now.st_mode):
                raise Refused(f"{rel} on the drive is {_kind(now.st_mode)}, not a file")
            chunks = []
            while chunk := os.read(fd, 1 << 16):
                chunks.append(chunk)
        except OSError as exc:
            raise Refused(f"{rel} on the drive cannot be read ({exc.strerror})") from exc
        finally:
            os.close(fd)
        data = b"".join(chunks)
        self.seen[rel] = data
        return data

    def file(self, rel: str) -> bytes | None:
        """Content of the regular file at rel, None when nothing is there; anything else there
        (or on the way there) is refused."""
        self.folder_path(rel.rpartition("/")[0])
        st = self.lstat(rel)
        if st is None:
            return None
        if stat.S_ISDIR(st.st_mode):
            raise Refused(f"{rel} on the drive is a folder where deploy puts a file: move it away")
        if not stat.S_ISREG(st.st_mode):
            raise Refused(
                f"{rel} on the drive is {_kind(st.st_mode)}: deploy writes only real "
                "files; move it away"
            )
        return self.read(rel, st)

    def folder_path(self, rel: str) -> None:
        """Every folder from the top down to rel is a real folder (or absent)."""
        parts = [p for p in rel.split("/") if p]
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub in self.folders:
                continue
            st = self.lstat(sub)
            if st is None:
                return
            if not stat.S_ISDIR(st.st_mode):
                what = _kind(st.st_mode)
                raise Refused(
                    f"{sub} on the drive is {what} where deploy needs a folder: move it away"
                    + (" (deploy never writes through a link)" if stat.S_ISLNK(st.st_mode) else "")
                )
            self.folders.add(sub)

    def walk(self, top: str) -> list[str]:
        """Regular files under the folder top (read); anything odd in it is refused."""
        self.folder_path(top)
        if top not in self.folders:
            return []
        found, todo = [], [top]
        while todo:
            folder = todo.pop()
            try:
                entries = sorted(os.scandir(self.path / folder), key=lambda e: e.name)
            except OSError as exc:
                raise Refused(f"{folder} on the drive cannot be listed ({exc.strerror})") from exc
            for entry in entries:
                rel = f"{folder}/{entry.name}"
                st = self.lstat(rel)
                if st is None:
                    continue
                if stat.S_ISDIR(st.st_mode):
                    self.folders.add(rel)
                    todo.append(rel)
                elif stat.S_ISREG(st.st_mode):
                    self.read(rel, st)
                    found.append(rel)
                else:
                    raise Refused(
                        f"{rel} on the drive is {_kind(st.st_mode)}: deploy does not know what "
                        "it is; move it away"
                    )
        return sorted(found)


def open_drive(path: Path) -> tuple[Drive, str]:
    if not path.is_dir():
        raise Refused(
            f"{path} is not a CIRCUITPY drive (no boot_out.txt): give the mounted drive, "
            "e.g. --to /media/$USER/CIRCUITPY"
        )
    drive = Drive(Path(os.path.realpath(path)))  # the drive itself may be given by a link
    st = drive.lstat("boot_out.txt")
    if st is None or not stat.S_ISREG(st.st_mode):
        raise Refused(
            f"{path} is not a CIRCUITPY drive (no boot_out.txt): give the mounted drive, "
            "e.g. --to /media/$USER/CIRCUITPY"
        )
    return drive, drive.read("boot_out.txt", st).decode("utf-8", errors="replace")


def board_id(boot_out: str) -> str | None:
    match = re.search(r"^Board ID:\s*(\S+)", boot_out, re.MULTILINE)
    return match.group(1) if match else None


def _ours_path(rel: str) -> bool:
    """Paths deploy may own: never outside code.py, boot.py, potager/ and lib/."""
    parts = rel.split("/")
    if rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in parts):
        return False
    return rel in TOP_FILES or (len(parts) > 1 and parts[0] in (PACKAGE, "lib"))


def read_record(drive: Drive) -> dict[str, str | None]:
    data = drive.file(MANIFEST)
    if data is None:
        return {}
    try:
        record = json.loads(data)
        files = record["files"]
        assert record["format"] == MANIFEST_FORMAT and isinstance(files, dict)
    except (ValueError, KeyError, TypeError, AssertionError):
        raise Refused(
            f"{MANIFEST} on the drive is not deploy's record: delete it, then deploy with --replace"
        ) from None
    return {
        rel: digest
        for rel, digest in files.items()
        if isinstance(rel, str) and _ours_path(rel) and (digest is None or isinstance(digest, str))
    }


def make_plan(
    drive: Drive, files: dict[str, bytes], also_ours: dict[str, bytes], replace: bool
) -> Plan:
    """What to add, update, remove; `also_ours`: what the other form (.py/.mpy) would be."""
    record = read_record(drive)

    def ours(rel: str, data: bytes) -> bool:
        if rel in record and (record[rel] is None or record[rel] == sha(data)):
            return True  # None: deploy was writing it when it was interrupted
        if data == files.get(rel) or data == also_ours.get(rel):
            return True
        return rel == "code.py" and data in STOCK_CODE

    plan = Plan(files, {})
    present: dict[str, bytes] = {}
    for rel in sorted(files):
        data = drive.file(rel)
        if data is None:
            plan.add.append(rel)
            continue
        present[rel] = data
        if data == files[rel]:
            plan.unchanged.append(rel)
        elif ours(rel, data) or replace:
            plan.update.append(rel)
        else:
            plan.foreign.append(rel)
    # what else of ours may be there: the package, and what the record names
    others = set(drive.walk(PACKAGE)) - set(files)
    for rel in sorted(set(record) - set(files)):
        if drive.file(rel) is not None:
            others.add(rel)
    # x.py beside x.mpy is imported instead of it: such a twin must go
    shadows = {w[: -len(".mpy")] + ".py" for w in files if w.endswith(".mpy")} - set(files)
    for rel in sorted(shadows - others):
        if rel.startswith("lib/") and drive.file(rel) is not None:
            others.add(rel)
    wanted = {rel.casefold() for rel in files}  # FAT is case-insensitive
    for rel in sorted(others):
        data = drive.seen[rel]
        if rel.casefold() in wanted:
            continue  # the file we are about to write, under another case
        twin = rel in shadows
        if ours(rel, data) or (twin and replace):
            plan.remove.append(rel)
        elif twin:
            plan.foreign.append(rel)
        else:
            plan.kept.append(rel)
    for rel in plan.update + plan.remove:
        st = drive.lstat(rel)
        if st is not None and not st.st_mode & stat.S_IWUSR:
            raise Refused(f"{rel} on the drive is read-only: deploy would have to change it")
    for rel in plan.add:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub not in drive.folders and sub not in plan.new_dirs:
                plan.new_dirs.append(sub)
    for rel in plan.to_write + plan.remove:
        parent = rel.rpartition("/")[0]
        if parent in drive.folders or parent == "":
            st = drive.lstat(parent or ".")
            if st is not None and not st.st_mode & stat.S_IWUSR:
                raise Refused(f"{parent or 'the drive'} is read-only: deploy cannot write in it")
    # the record after this run: deploy's files, none of the user's
    plan.record = {rel: sha(data) for rel, data in files.items()}
    return plan


def check_space(drive: Drive, plan: Plan) -> None:
    freed = sum(len(drive.seen.get(rel, b"")) for rel in plan.remove + plan.update)
    need = plan.bytes_to_write - freed
    free = shutil.disk_usage(drive.path).free
    if need > free:
        raise Refused(
            f"not enough space on {drive.path}: {need:,} more bytes needed, {free:,} free "
            "(free some space on the drive)"
        )


# ------------------------------------------------------------------------------- writing


def _write(drive: Drive, rel: str, data: bytes) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | NOFOLLOW | NONBLOCK | BINARY
    fd = os.open(drive.path / rel, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{rel} is no longer a file")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_record(drive: Drive, files: dict[str, str | None]) -> None:
    text = json.dumps({"format": MANIFEST_FORMAT, "files": files}, indent=0, sort_keys=True)
    _write(drive, MANIFEST, text.encode() + b"\n")


def apply(drive: Drive, plan: Plan) -> list[str]:
    """Write the plan; return the files that read back differently."""
    # first the record, with what is about to be written marked as deploy's whatever it holds:
    # a run cut short leaves files the next run knows it may finish
    pending: dict[str, str | None] = {
        rel: digest for rel, digest in plan.record.items() if rel in plan.unchanged
    }
    pending.update({rel: None for rel in plan.to_write + plan.remove})
    _write_record(drive, pending)
    for rel in plan.remove:  # first: frees space, and .py twins would shadow new .mpy files
        st = os.lstat(drive.path / rel)
        if stat.S_ISREG(st.st_mode):
            os.unlink(drive.path / rel)
    for sub in plan.new_dirs:
        os.mkdir(drive.path / sub)
    for rel in plan.to_write:
        _write(drive, rel, plan.files[rel])
    if hasattr(os, "sync"):
        os.sync()
    bad = []
    for rel in plan.to_write:
        st = os.lstat(drive.path / rel)
        if not stat.S_ISREG(st.st_mode) or drive.read(rel, st) != plan.files[rel]:
            bad.append(rel)
    _write_record(drive, {rel: d for rel, d in plan.record.items() if rel not in bad})
    _remove_emptied_folders(drive, plan.remove)
    return bad


def _remove_emptied_folders(drive: Drive, removed: list[str]) -> None:
    """Folders that held only files deploy removed (never lib/ itself nor the top)."""
    folders = {rel.rpartition("/")[0] for rel in removed}
    for folder in sorted(folders, key=lambda f: -f.count("/")):
        while folder and folder not in (PACKAGE, "lib"):
            try:
                os.rmdir(drive.path / folder)  # only when empty
            except OSError:
                break
            folder = folder.rpartition("/")[0]


# ------------------------------------------------------------------------------------ main


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools deploy",
        description="Copy the Potager firmware and its libraries onto a CIRCUITPY drive.",
    )
    parser.add_argument("--to", required=True, type=Path, metavar="CIRCUITPY", help="the drive")
    parser.add_argument("--dry-run", action="store_true", help="show what would change")
    form = parser.add_mutually_exclusive_group()
    form.add_argument(
        "--mpy-cross",
        type=Path,
        metavar="PATH",
        help="CircuitPython's mpy-cross of the board's major version (default: looked for)",
    )
    form.add_argument("--py", action="store_true", help="deploy sources, not .mpy")
    parser.add_argument(
        "--replace",
        action="store_true",
        help="overwrite or remove files deploy did not write that are in its way",
    )
    parser.add_argument(
        "--source", type=Path, default=FIRMWARE, help="firmware folder (default: %(default)s)"
    )
    parser.add_argument(
        "--requirements",
        type=Path,
        default=DEVICE_REQUIREMENTS,
        help="device libraries, PyPI names pinned with == (default: %(default)s)",
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
    drive, boot_out = open_drive(args.to)
    version = boot_out.splitlines()[0].strip() if boot_out.strip() else "unknown CircuitPython"
    major = circuitpython_major(version)
    if major is not None and major < 9:
        raise Refused(f"the drive runs {version}: the firmware needs CircuitPython 9.x or 10.x")
    if not args.requirements.is_file():
        raise Refused(f"{args.requirements} not found")
    board = board_id(boot_out)
    mpy_cross = None if args.py else find_mpy_cross(major, args.mpy_cross)
    form = "sources" if mpy_cross is None else f".mpy by {mpy_cross}"
    print(f"deploy: {args.source} -> {drive.path} ({version}; board {board}; {form})")
    files = source_files(args.source, mpy_cross)
    files.update(library_files(mpy_cross, board, args.requirements))
    also_ours = {}
    if mpy_cross is not None:  # a past --py deploy of the same firmware is deploy's too
        also_ours = source_files(args.source, None)
        also_ours.update(library_files(None, board, args.requirements))
    plan = make_plan(drive, files, also_ours, args.replace)
    if plan.foreign:
        first = plan.foreign[0]
        more = f" (and {len(plan.foreign) - 1} more)" if len(plan.foreign) > 1 else ""
        raise Refused(
            f"{first}{more} on the drive was not written by deploy and is in its way: move it "
            "off the drive, or deploy with --replace to overwrite it"
        )
    check_space(drive, plan)

    for verb, rels in (("add", plan.add), ("update", plan.update), ("remove", plan.remove)):
        for rel in rels:
            print(f"  {verb:<7} {rel}")
    for rel in plan.kept:  # a user's name may not be valid text: printed escaped, never fatal
        shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        print(f"  keep    {shown} (not written by deploy)")
    counts = (
        f"{len(plan.add)} added, {len(plan.update)} updated, {len(plan.remove)} removed, "
        f"{len(plan.unchanged)} unchanged"
    )
    total = sum(len(data) for data in files.values())
    if args.dry_run:
        print(
            f"dry run, nothing written: would be {counts}; {plan.bytes_to_write:,} bytes to write"
        )
        return 0
    try:
        bad = apply(drive, plan)
    except (OSError, Refused) as exc:
        why = str(exc)
        if isinstance(exc, OSError) and exc.strerror:
            why = exc.strerror + (f": {exc.filename}" if exc.filename else "")
        print(f"deploy: copy failed: {why} (read-only or full drive?)", file=sys.stderr)
        return 3
    if bad:
        print(f"deploy: read back differently: {', '.join(bad)}; run again", file=sys.stderr)
        return 3
    print(
        f"deployed: {counts}; {plan.bytes_to_write:,} bytes written and verified "
        f"(firmware and libraries: {total:,} bytes in {len(files)} files)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
