"""Copy the firmware and its libraries onto a CIRCUITPY drive.

    python -m host_tools deploy --to /media/$USER/CIRCUITPY [--dry-run] [--py | --mpy-cross PATH]
                                [--replace] [--cluster-size BYTES]

What goes there (host_tools/drive.py): ``code.py``, ``boot.py`` (only when ``firmware/`` has
one), the ``potager/`` package and, in ``lib/``, the libraries of requirements-device.txt at
their pinned versions, from this venv. By default ``potager/`` and the libraries go as
``.mpy`` (less RAM on the board), compiled with the mpy-cross of the board's CircuitPython
major version (read from ``boot_out.txt``): ``--mpy-cross PATH``, else ``$MPY_CROSS``, else
the first ``mpy-cross*`` on PATH or in ``mpy-cross/`` of the project whose ``--version`` says
that major. When none is found, the sources go, with one line saying so and how to get
``.mpy``; one given by ``--mpy-cross`` or ``$MPY_CROSS`` that is not right is refused.
``--py`` deploys the sources. CircuitPython 9 and 10 only, either way; a garbled
``boot_out.txt`` is refused. ``python -m host_tools bundle`` zips the same files for copying
by hand.

The user's files are never hurt. Deploy keeps a record of what it wrote on the drive
(``.potager-deploy.json``: path -> sha256); a file is deploy's when the record has it
unchanged, or it already holds what deploy would write. Deploy then:
- writes only changed files (CircuitPython auto-reloads as little as possible);
- removes only its own files that the firmware no longer has (a ``.py`` twin would be
  imported instead of the new ``.mpy``); what it did not write stays, and one that is in the
  way (at a path deploy writes, or a twin of one) stops it, naming them, unless ``--replace``;
- never follows a symbolic link, never writes through one, looks only at ``code.py``,
  ``boot.py``, ``potager/``, ``lib/`` and its record: a symlink, FIFO, socket or device there,
  a file where a folder should be (or the reverse), an unreadable or read-only file: one line
  saying what and where, exit 2, nothing written.

A deploy is a transaction (docs/deploy.md), so the board never runs old and new modules
mixed, whatever stops it:
1. the record becomes an intent: what each file deploy touches holds now, and will hold;
2. each new file is written beside its final name (``NAME.potager-tmp``), fsynced, read back;
   a full drive, an I/O error or a bad read-back here removes them: the drive is as it was;
3. when more than one file changes, ``code.py`` becomes a placeholder that imports nothing
   (CircuitPython reloads after writes, and would run whatever is there); the new files are
   renamed into place, stale ones removed, ``code.py`` last;
4. the record says what the drive holds now.
Step 2 prints its progress (files and bytes written of the total) a line at each tenth.
A deploy killed anywhere is finished by the next plain deploy: the intent says which contents
are deploy's, the ``.potager-tmp`` files are deploy's own, and so is the placeholder.

Exit status:
  0  done (or, with --dry-run, what a real run would do is printed);
  2  refused before writing anything: bad arguments, not a CIRCUITPY drive, a CircuitPython
     other than 9 or 10, a garbled boot_out.txt, an mpy-cross given that is not the board's,
     an odd or foreign file in the way, not enough space;
  3  the copy failed: read-only or full drive, I/O error, or a file read back differently
     (the message says whether the drive was left as it was or the next deploy finishes it).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import sys
from collections.abc import Callable, Sequence
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
    search_mpy_cross,
    source_files,
    where_to_get_mpy_cross,
)

MANIFEST = ".potager-deploy.json"
MANIFEST_FORMAT = 1
SUPPORTED_MAJORS = (9, 10)
# What a freshly installed CircuitPython puts in code.py: replacing it hurts nobody.
STOCK_CODE = (b'print("Hello World!")\n', b'print("Hello World!")\r\n', b"")
# Deploy's own temporary names: NAME + TMP is written, then renamed to NAME. Not importable
# (CircuitPython imports only .py and .mpy), and any file so named is deploy's to remove.
TMP = ".potager-tmp"
# code.py while modules are switched: imports nothing, so a reload meanwhile (CircuitPython
# reloads after writes) never runs old and new modules mixed; deploy's too, by its content.
GUARD_CODE = (
    b"# Potager: deploy is switching the firmware's files, or was stopped while it did.\n"
    b'print("Potager: deploy did not finish: run deploy again")\n'
)
GUARD_TMP = "code.py.guard" + TMP
# Where statvfs is missing: CircuitPython's FAT12 on a 1-2 MB flash has 512-byte clusters.
DEFAULT_CLUSTER = 512
FAT_ENTRY = 32  # bytes of a FAT directory entry; a long name takes one more per 13 characters
# A refusal names this many of the files in deploy's way, then counts the rest.
NAMED_IN_THE_WAY = 12
PROGRESS_STEPS = 10  # progress lines while writing: one at each tenth of the bytes
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
BINARY = getattr(os, "O_BINARY", 0)

__all__ = [
    "BUILT_IN",
    "check_mpy_cross",
    "firmware_files",
    "main",
    "module_for",
    "record_bytes",
    "required_modules",
]


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


def printable(text: str, limit: int = 100) -> str:
    """text as a terminal shows it safely: control characters escaped as repr() does."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


@dataclass
class Record:
    """What ``.potager-deploy.json`` says is deploy's: a file is when it holds one of these."""

    files: dict[str, str | None]  # path -> sha256 as deploy left it; None (older deploys):
    # deploy was writing it when it was stopped, any content is deploy's
    pending: dict[str, str | None] = field(default_factory=dict)  # an unfinished deploy's
    # intent: path -> sha256 it was to hold, None: to be removed
    raw: bytes | None = None  # the record as it is on the drive; None: there is none
    torn: bool = False  # cut short by a deploy that wrote it in place: what was left is kept

    def owns(self, rel: str, data: bytes) -> bool:
        if rel in self.files and self.files[rel] is None:
            return True
        digest = sha(data)
        return digest in (self.files.get(rel), self.pending.get(rel))

    def paths(self) -> set[str]:
        return set(self.files) | set(self.pending)


def record_bytes(files: dict[str, str], pending: dict[str, str | None] | None = None) -> bytes:
    content: dict[str, object] = {"format": MANIFEST_FORMAT, "files": files}
    if pending:
        content["pending"] = pending
    # one entry a line: a record torn by an older deploy is read line by line (_salvage)
    return json.dumps(content, indent=0, sort_keys=True).encode() + b"\n"


@dataclass
class Plan:
    files: dict[str, bytes]  # drive-relative POSIX path -> content wanted there
    record: dict[str, str]  # what deploy wrote and still finds unchanged: path -> sha256
    old_record: Record = field(default_factory=lambda: Record({}))
    add: list[str] = field(default_factory=list)
    update: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)  # not deploy's, in the way
    replaced: list[str] = field(default_factory=list)  # not deploy's, taken over (--replace)
    kept: list[str] = field(default_factory=list)  # not deploy's, left alone
    new_dirs: list[str] = field(default_factory=list)
    leftovers: list[str] = field(default_factory=list)  # temporaries of a deploy cut short
    owned: dict[str, str] = field(default_factory=dict)  # deploy's files now: path -> sha256

    @property
    def to_write(self) -> list[str]:
        # lib/ and the package first, boot.py and code.py last: the entry point changes last
        def order(rel: str) -> tuple[int, str]:
            return (TOP_FILES.index(rel) + 1 if rel in TOP_FILES else 0, rel)

        return sorted(self.add + self.update, key=order)

    @property
    def bytes_to_write(self) -> int:
        return sum(len(self.files[rel]) for rel in self.staged)

    @property
    def guarded(self) -> bool:
        """More than one file switches: code.py stands aside meanwhile (a single rename or
        removal is all or nothing by itself)."""
        return len(self.to_write) + len(self.remove) > 1

    @property
    def staged(self) -> list[str]:
        """What is written under a temporary name first: what changes, and code.py when it
        stands aside (it comes back last, even unchanged)."""
        rels = self.to_write
        if self.guarded and "code.py" not in rels:
            rels.append("code.py")
        return rels

    @property
    def emptied(self) -> list[str]:
        """Files gone from the drive whose folders may now be empty: what this run removes,
        and what a stopped run removed before it could remove their folders."""
        gone = [rel for rel, digest in self.old_record.pending.items() if digest is None]
        return self.remove + self.leftovers + gone

    def intent(self) -> bytes:
        pending: dict[str, str | None] = {rel: sha(self.files[rel]) for rel in self.staged}
        pending.update({rel: None for rel in self.remove})
        return record_bytes(self.owned, pending)

    def final_record(self) -> bytes:
        return record_bytes(self.record)


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

    def temporaries(self, folder: str) -> list[str]:
        """Deploy's temporary files directly in folder ("" for the top), not read."""
        self.folder_path(folder)
        if folder and folder not in self.folders:
            return []
        try:
            names = sorted(e.name for e in os.scandir(self.path / folder) if e.name.endswith(TMP))
        except OSError as exc:
            raise Refused(f"{folder or 'the drive'} cannot be listed ({exc.strerror})") from exc
        found = []
        for name in names:
            rel = f"{folder}/{name}" if folder else name
            st = self.lstat(rel)
            if st is None:
                continue
            if not stat.S_ISREG(st.st_mode):
                raise Refused(
                    f"{rel} on the drive is {_kind(st.st_mode)} named like deploy's temporary "
                    "files: move it away"
                )
            found.append(rel)
        return found


def open_drive(path: Path) -> tuple[Drive, bytes]:
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
    return drive, drive.read("boot_out.txt", st)


def read_boot_out(raw: bytes) -> tuple[str, int, str | None]:
    """(version line, CircuitPython major, board id or None) from boot_out.txt; a garbled or
    unsupported one is refused. CircuitPython writes it anew at each start: ASCII, its
    version first, then ``Board ID:``; what boot.py printed comes after ``boot.py output:``."""
    again = "reset the board (CircuitPython writes boot_out.txt at each start), then deploy again"
    lines = [line.rstrip("\r") for line in raw.decode("utf-8", errors="replace").split("\n")]
    if "boot.py output:" in lines:
        lines = lines[: lines.index("boot.py output:")]
    for line in lines:
        if "\ufffd" in line or not line.replace("\t", " ").isprintable():
            raise Refused(f"boot_out.txt on the drive is garbled ('{printable(line)}'): {again}")
    version = lines[0].strip()
    major = circuitpython_major(version)
    if major is None:
        raise Refused(
            f"boot_out.txt on the drive does not say which CircuitPython the board runs "
            f"(it begins '{printable(version)}'): {again}"
        )
    if major not in SUPPORTED_MAJORS:
        raise Refused(
            f"the drive runs {printable(version)}: the firmware needs CircuitPython 9.x or "
            "10.x (install 10.x from circuitpython.org)"
        )
    board = None
    for line in lines:
        if line.startswith("Board ID:"):
            board = line.removeprefix("Board ID:").strip()
            if not re.fullmatch(r"[A-Za-z0-9_]+", board):
                raise Refused(
                    f"boot_out.txt on the drive is garbled ('{printable(line)}'): {again}"
                )
    return version, major, board


def _ours_path(rel: str) -> bool:
    """Paths deploy may own: never outside code.py, boot.py, potager/ and lib/."""
    parts = rel.split("/")
    if rel.startswith("/") or "\\" in rel or any(p in ("", ".", "..") for p in parts):
        return False
    return rel in TOP_FILES or (len(parts) > 1 and parts[0] in (PACKAGE, "lib"))


def _entries(section: object) -> dict[str, str | None]:
    """The entries of a record's section that deploy may act on (never outside its paths)."""
    if not isinstance(section, dict):
        return {}
    return {
        rel: digest
        for rel, digest in section.items()
        if isinstance(rel, str)
        and _ours_path(rel)
        and (digest is None or (isinstance(digest, str) and re.fullmatch("[0-9a-f]{64}", digest)))
    }


RECORD_HEAD = '{\n"files": {\n'
RECORD_LINE = re.compile(r'("(?:[^"\\]|\\.)*"): ("[0-9a-f]{64}"|null),?')


def _salvage(data: bytes) -> tuple[dict[str, object], dict[str, object]] | None:
    """The complete entries of a record cut short (deploys before the transaction wrote it
    in place: a kill left a prefix of it, or nothing); None when data is no such thing."""
    try:
        text = data.rstrip(b"\0").decode("ascii")  # a torn FAT write may end in zeros
    except UnicodeDecodeError:
        return None
    if not (RECORD_HEAD.startswith(text) or text.startswith(RECORD_HEAD)):
        return None
    sections: dict[str, dict[str, object]] = {"files": {}, "pending": {}}
    section: dict[str, object] | None = sections["files"]
    for line in text[len(RECORD_HEAD) :].split("\n")[:-1]:  # the last line may be torn
        entry = RECORD_LINE.fullmatch(line)
        if entry and section is not None:
            section[json.loads(entry.group(1))] = json.loads(entry.group(2))
        elif line in ("}", "},"):
            section = None
        elif line == '"pending": {':
            section = sections["pending"]
        elif not re.fullmatch(rf'"format": {MANIFEST_FORMAT},?', line):
            return None
    return sections["files"], sections["pending"]


def read_record(drive: Drive) -> Record:
    data = drive.file(MANIFEST)
    if data is None:
        return Record({})
    torn = False
    try:
        record = json.loads(data)
        files, pending = record["files"], record.get("pending", {})
        assert record["format"] == MANIFEST_FORMAT and isinstance(files, dict)
    except (ValueError, KeyError, TypeError, AttributeError, AssertionError):
        salvaged = _salvage(data)
        if salvaged is None:
            raise Refused(
                f"{MANIFEST} on the drive is not deploy's record: delete it, then deploy with "
                "--replace"
            ) from None
        (files, pending), torn = salvaged, True
    return Record(_entries(files), _entries(pending), data, torn)


def make_plan(
    drive: Drive, files: dict[str, bytes], also_ours: dict[str, bytes], replace: bool
) -> Plan:
    """What to add, update, remove; `also_ours`: what the other form (.py/.mpy) would be."""
    record = read_record(drive)

    def ours(rel: str, data: bytes) -> bool:
        if record.owns(rel, data):
            return True
        if data == files.get(rel) or data == also_ours.get(rel):
            return True
        return rel == "code.py" and (data in STOCK_CODE or data == GUARD_CODE)

    plan = Plan(files, {}, record)
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
            if not ours(rel, data):
                plan.replaced.append(rel)
        else:
            plan.foreign.append(rel)
    # what else of ours may be there: the package, and what the record names
    in_package = set(drive.walk(PACKAGE)) - set(files)
    leftovers = {rel for rel in in_package if rel.endswith(TMP)}
    others = in_package - leftovers
    for rel in sorted(record.paths() - set(files)):
        if drive.file(rel) is not None:
            others.add(rel)
    # x.py beside x.mpy is imported instead of it: such a twin must go
    shadows = {w[: -len(".mpy")] + ".py" for w in files if w.endswith(".mpy")} - set(files)
    for rel in sorted(shadows - others):
        if rel.startswith("lib/") and drive.file(rel) is not None:
            others.add(rel)
    # a deploy stopped midway left temporaries beside the names it writes
    lib_folders = {rel.rpartition("/")[0] for rel in set(files) | record.paths() | shadows}
    for folder in sorted(f for f in lib_folders if f == "lib" or f.startswith("lib/")) + [""]:
        leftovers.update(drive.temporaries(folder))
    plan.leftovers = sorted(leftovers)
    wanted = {rel.casefold() for rel in files}  # FAT is case-insensitive
    for rel in sorted(others):
        data = drive.seen[rel]
        if rel.casefold() in wanted:
            continue  # the file we are about to write, under another case
        twin = rel in shadows
        if ours(rel, data) or (twin and replace):
            plan.remove.append(rel)
            if not ours(rel, data):
                plan.replaced.append(rel)
        elif twin:
            plan.foreign.append(rel)
        else:
            plan.kept.append(rel)
    for rel in [*plan.update, *plan.remove, *plan.leftovers, MANIFEST]:
        st = drive.lstat(rel)
        if st is not None and not st.st_mode & stat.S_IWUSR:
            raise Refused(f"{rel} on the drive is read-only: deploy would have to change it")
    for rel in plan.add:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            sub = "/".join(parts[:i])
            if sub not in drive.folders and sub not in plan.new_dirs:
                plan.new_dirs.append(sub)
    for rel in [*plan.to_write, *plan.remove, *plan.leftovers, MANIFEST]:
        parent = rel.rpartition("/")[0]
        if parent in drive.folders or parent == "":
            st = drive.lstat(parent or ".")
            if st is not None and not st.st_mode & stat.S_IWUSR:
                raise Refused(f"{parent or 'the drive'} is read-only: deploy cannot write in it")
    # deploy's files as they stand (what a stopped run may have left them holding is in the
    # intent), then the record after this run: deploy's files, none of the user's
    plan.owned = {rel: sha(drive.seen[rel]) for rel in plan.unchanged + plan.update + plan.remove}
    plan.record = {rel: sha(data) for rel, data in files.items()}
    return plan


# ---------------------------------------------------------------------------------- space


def _clusters(size: int, cluster: int) -> int:
    return -(-size // cluster)


def drive_space(drive: Drive, cluster: int | None) -> tuple[int, int]:
    """(cluster size, free clusters): FAT allocates whole clusters, so bytes free is not
    what fits. statvfs gives the drive's own cluster (f_frsize); without it (Windows),
    `cluster` or DEFAULT_CLUSTER."""
    if hasattr(os, "statvfs"):
        st = os.statvfs(drive.path)
        unit = st.f_frsize or st.f_bsize
        free = st.f_bavail * unit
        cluster = cluster or unit
    else:
        free = shutil.disk_usage(drive.path).free
        cluster = cluster or DEFAULT_CLUSTER
    return cluster, free // cluster


def clusters_needed(drive: Drive, plan: Plan, cluster: int) -> int:
    """Clusters the drive must have free at the transaction's fullest: every staged file
    beside the one it replaces, the placeholder code.py, the intent and the final record,
    the new folders, and the directory entries of the temporary (long) names."""
    staged = [len(plan.files[rel]) for rel in plan.staged]
    if plan.guarded:
        staged.append(len(GUARD_CODE))
    records = [len(plan.intent()), len(plan.final_record())]
    need = sum(_clusters(size, cluster) for size in staged + records) + len(plan.new_dirs)
    entries: dict[str, int] = {}
    for rel in plan.staged:
        folder, _, name = rel.rpartition("/")
        names = [name + TMP] + ([name] if rel in plan.add else [])
        entries[folder] = entries.get(folder, 0) + sum(
            FAT_ENTRY * (1 + _clusters(len(n), 13)) for n in names
        )
    # the top folder of FAT12/16 has a fixed table: no clusters
    need += sum(_clusters(size, cluster) for folder, size in entries.items() if folder)
    # a stopped deploy's temporaries go first
    for rel in plan.leftovers:
        st = drive.lstat(rel)
        need -= _clusters(st.st_size, cluster) if st is not None else 0
    return need


def check_space(drive: Drive, plan: Plan, cluster_option: int | None) -> None:
    if not (plan.to_write or plan.remove):
        return
    cluster, free = drive_space(drive, cluster_option)
    need = clusters_needed(drive, plan, cluster)
    if need > free:
        raise Refused(
            f"not enough space on {drive.path}: the update needs {need:,} clusters of {cluster} B "
            f"free ({need * cluster:,} bytes: the new files are written beside the old ones "
            f"before they switch), {free:,} are ({free * cluster:,} bytes); free "
            f"{(need - free) * cluster:,} bytes on the drive"
        )


# ------------------------------------------------------------------------------- writing


# How a failed copy left the drive, as the message ends.
AS_IT_WAS = "the drive is as it was"
OLD_WHOLE = "the old firmware is whole on the drive; deploy again to clean up"
MIDWAY = "deploy again to finish"
GUARDED = "the board shows that deploy did not finish until deploy runs again and finishes"


class CopyFailed(Exception):
    """Exit 3: why, and how the drive was left (AS_IT_WAS, OLD_WHOLE, MIDWAY, GUARDED)."""

    def __init__(self, why: str, left: str):
        super().__init__(f"{why}; {left}")


def _write(drive: Drive, rel: str, data: bytes) -> None:
    """A new file at rel (deploy's temporary name: never an existing file, never a link)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | NONBLOCK | BINARY
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


def _put(drive: Drive, rel: str, data: bytes) -> None:
    """rel holds data, all or nothing: written beside it, then renamed over it."""
    try:
        _write(drive, rel + TMP, data)
        os.replace(drive.path / (rel + TMP), drive.path / rel)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(drive.path / (rel + TMP))
        raise


def _sync() -> None:
    if hasattr(os, "sync"):
        os.sync()


def _why(exc: OSError, rel: str) -> str:
    return f"{exc.strerror or exc}: {rel}"


class Progress:
    """Files and bytes written of the total, a line at each tenth of the bytes and at the
    last file: whole lines, flushed, so a log shows them as a terminal does."""

    def __init__(self, files: int, size: int, steps: int = PROGRESS_STEPS):
        self.files, self.size, self.steps = files, size, steps
        self.done, self.written, self.shown = 0, 0, 0

    def wrote(self, size: int) -> None:
        self.done += 1
        self.written += size
        step = self.written * self.steps // self.size if self.size else self.steps
        if step > self.shown or self.done == self.files:
            self.shown = step
            percent = self.written * 100 // self.size if self.size else 100
            print(
                f"  wrote   {self.done}/{self.files} files, {self.written:,} of "
                f"{self.size:,} bytes ({percent}%)",
                flush=True,
            )


def apply(drive: Drive, plan: Plan, progress: Progress | None = None) -> None:
    """Write the plan as a transaction (module docstring); CopyFailed says how it ended.
    `progress` hears of each file staged."""
    at = MANIFEST
    try:
        for at in plan.leftovers:  # not importable, only in the way: no transaction needed
            os.unlink(drive.path / at)
        if not (plan.to_write or plan.remove):
            at = "a folder emptied"
            _remove_emptied_folders(drive, plan.emptied)
            if plan.old_record.raw != plan.final_record():
                at = MANIFEST
                _put(drive, MANIFEST, plan.final_record())
            return
    except OSError as exc:
        raise CopyFailed(_why(exc, at), MIDWAY) from None
    made: list[str] = []
    staged: list[str] = []  # temporaries, and the record once the intent replaced it
    try:
        _put(drive, MANIFEST, plan.intent())  # first: the next run must know what is in flight
        staged.append(MANIFEST)
        for at in plan.new_dirs:
            os.mkdir(drive.path / at)
            made.append(at)
        for at in plan.staged:
            staged.append(at + TMP)
            _write(drive, at + TMP, plan.files[at])
            if progress is not None:
                progress.wrote(len(plan.files[at]))
        if plan.guarded:
            at = "code.py"
            staged.append(GUARD_TMP)
            _write(drive, GUARD_TMP, GUARD_CODE)
        _sync()
        bad = []
        for rel in plan.staged:  # before anything switches: a bad copy changes nothing
            st = os.lstat(drive.path / (rel + TMP))
            if not stat.S_ISREG(st.st_mode) or drive.read(rel + TMP, st) != plan.files[rel]:
                bad.append(rel)
    except (OSError, Refused) as exc:
        why = _why(exc, at) if isinstance(exc, OSError) else str(exc)
        left = AS_IT_WAS if _undo(drive, plan, staged, made) else OLD_WHOLE
        raise CopyFailed(why + " (read-only or full drive?)", left) from None
    if bad:
        left = AS_IT_WAS if _undo(drive, plan, staged, made) else OLD_WHOLE
        raise CopyFailed(f"read back differently: {', '.join(bad)}", left)
    left = MIDWAY
    try:
        if plan.guarded:
            at = "code.py"
            os.replace(drive.path / GUARD_TMP, drive.path / "code.py")
            left = GUARDED
        for at in plan.remove:
            if stat.S_ISREG(os.lstat(drive.path / at).st_mode):
                os.unlink(drive.path / at)
        for at in plan.staged:  # code.py last
            os.replace(drive.path / (at + TMP), drive.path / at)
        left = MIDWAY
        at = "a folder emptied"
        _remove_emptied_folders(drive, plan.emptied)  # while the intent still names them
        _sync()
        at = MANIFEST
        _put(drive, MANIFEST, plan.final_record())
    except OSError as exc:
        raise CopyFailed(_why(exc, at), left) from None


def _undo(drive: Drive, plan: Plan, staged: list[str], made: list[str]) -> bool:
    """Back to the drive as it was; False when some of it failed (the next run mends: the
    intent, the last thing put back, says what was in flight)."""
    done = True
    for rel in staged:
        if rel != MANIFEST:
            done &= _try(os.unlink, drive.path / rel)
    for sub in reversed(made):
        done &= _try(os.rmdir, drive.path / sub)
    if MANIFEST in staged:
        if plan.old_record.raw is None:
            done &= _try(os.unlink, drive.path / MANIFEST)
        else:
            done &= _try(_put, drive, MANIFEST, plan.old_record.raw)
    return done


def _try(action: Callable[..., object], *args: object) -> bool:
    try:
        action(*args)
    except FileNotFoundError:
        pass  # a temporary file not made yet
    except OSError:
        return False
    return True


def _remove_emptied_folders(drive: Drive, removed: list[str]) -> None:
    """Folders that held only files deploy removed (never lib/ itself nor the top)."""
    folders = {rel.rpartition("/")[0] for rel in removed}
    for folder in sorted(folders, key=lambda f: -f.count("/")):
        while folder and folder not in (PACKAGE, "lib"):
            try:
                os.rmdir(drive.path / folder)  # only when empty
            except OSError as exc:
                if exc.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOENT):
                    break
                raise
            folder = folder.rpartition("/")[0]


# ------------------------------------------------------------------------------------ main


def _cluster_size(text: str) -> int:
    size = int(text)
    if size < 512 or size & (size - 1):
        raise argparse.ArgumentTypeError("a cluster is a power of two, 512 bytes or more")
    return size


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
        "--cluster-size",
        type=_cluster_size,
        metavar="BYTES",
        help="the drive's cluster, for the space check (default: what the system says, "
        f"else {DEFAULT_CLUSTER}, CircuitPython's FAT12)",
    )
    add_firmware_arguments(parser)
    return parser


def add_firmware_arguments(parser: argparse.ArgumentParser) -> None:
    """--source and --requirements: what goes on a drive (deploy's, and the bundle's)."""
    parser.add_argument(
        "--source", type=Path, default=FIRMWARE, help="firmware folder (default: %(default)s)"
    )
    parser.add_argument(
        "--requirements",
        type=Path,
        default=DEVICE_REQUIREMENTS,
        help="device libraries, PyPI names pinned with == (default: %(default)s)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse's usage errors: status 2 like every refusal
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return _deploy(args)
    except Refused as exc:  # names on the drive may hold control characters: escaped
        print(f"deploy: {printable(str(exc), limit=1000)}", file=sys.stderr)
        return 2


def firmware_files(
    source: Path, mpy_cross: Path | None, board: str | None, requirements: Path
) -> dict[str, bytes]:
    """What deploy puts on a drive (and the bundle in its zip): path -> content."""
    files = source_files(source, mpy_cross)
    files.update(library_files(mpy_cross, board, requirements))
    return files


def choose_mpy_cross(given: Path | None, major: int) -> Path | None:
    """The mpy-cross for the board's major; None, said in one line, when none is found. One
    the user named (--mpy-cross, $MPY_CROSS) is used or refused, never passed over."""
    if given is not None or os.environ.get("MPY_CROSS"):
        return find_mpy_cross(major, given)
    found = search_mpy_cross(major)
    if found is None:
        print(
            f"deploy: no mpy-cross for CircuitPython {major} found, so the .py sources go (the "
            f"board then needs more RAM); for .mpy, {where_to_get_mpy_cross(major)}",
            file=sys.stderr,
            flush=True,
        )
    return found


def in_the_way(plan: Plan) -> str:
    """The refusal naming the files not deploy's in its way (NAMED_IN_THE_WAY of them, then a
    count) and what --replace would do to them."""
    rels = plan.foreign
    torn = f" ({MANIFEST} was cut short, so deploy may have lost its own)"
    torn = torn if plan.old_record.torn else ""
    twins = [rel for rel in rels if rel not in plan.files]
    if len(rels) == 1:
        what = "remove it" if twins else "overwrite it"
        return (
            f"{rels[0]} on the drive was not written by deploy and is in its way{torn}: move "
            f"it off the drive, or deploy with --replace to {what}"
            + (" (CircuitPython would import it instead of the .mpy)" if twins else "")
        )
    named = ", ".join(rels[:NAMED_IN_THE_WAY])
    if len(rels) > NAMED_IN_THE_WAY:
        named += f" and {len(rels) - NAMED_IN_THE_WAY} more (--dry-run --replace lists them all)"
    what = "overwrite them"
    if twins:
        what += (
            f" ({len(twins)} of them .py beside the .mpy deploy writes: removed, as CircuitPython "
            "would import them instead)"
        )
    return (
        f"{len(rels)} files on the drive were not written by deploy and are in its way{torn}: "
        f"{named}; move them off the drive, or deploy with --replace to {what}"
    )


def _deploy(args: argparse.Namespace) -> int:
    drive, boot_out = open_drive(args.to)
    version, major, board = read_boot_out(boot_out)
    if not args.requirements.is_file():
        raise Refused(f"{args.requirements} not found")
    mpy_cross = None if args.py else choose_mpy_cross(args.mpy_cross, major)
    form = "sources" if mpy_cross is None else f".mpy by {mpy_cross}"
    print(f"deploy: {args.source} -> {drive.path} ({version}; board {board}; {form})")
    files = firmware_files(args.source, mpy_cross, board, args.requirements)
    also_ours = {}
    if mpy_cross is not None:  # a past --py deploy of the same firmware is deploy's too
        also_ours = firmware_files(args.source, None, board, args.requirements)
    plan = make_plan(drive, files, also_ours, args.replace)
    if plan.foreign:
        raise Refused(in_the_way(plan))
    check_space(drive, plan, args.cluster_size)

    if plan.old_record.torn:
        kept = len(plan.old_record.paths())
        print(f"  mend    {MANIFEST} (cut short by a stopped deploy: {kept} entries left)")
    elif plan.old_record.pending:
        print("  finish  the deploy that was stopped midway")
    for rel in plan.leftovers:
        print(f"  clean   {rel} (a stopped deploy's temporary file)")
    for verb, rels in (("add", plan.add), ("update", plan.update), ("remove", plan.remove)):
        for rel in rels:
            if rel in plan.replaced:  # what --replace takes over: the user sees it named
                print(f"  {'replace' if verb == 'update' else verb:<7} {rel} (not deploy's)")
            else:
                print(f"  {verb:<7} {rel}")
    for rel in plan.kept:  # a user's name may not be valid text: printed escaped, never fatal
        shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        print(f"  keep    {printable(shown, 200)} (not written by deploy)")
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
    sys.stdout.flush()  # the plan before the progress, in a log too
    try:
        apply(drive, plan, Progress(len(plan.staged), plan.bytes_to_write))
    except CopyFailed as exc:
        print(f"deploy: copy failed: {printable(str(exc), limit=1000)}", file=sys.stderr)
        return 3
    print(
        f"deployed: {counts}; {plan.bytes_to_write:,} bytes written and verified "
        f"(firmware and libraries: {total:,} bytes in {len(files)} files)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
