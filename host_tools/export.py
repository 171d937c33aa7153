"""`python -m host_tools export`: the device's history of finished games, as CSV, JSON, a PNG
or BG Stats plays.

Sources (one of):
  --port DEVICE [--timeout S]   the USB serial console (pyserial, 115200 baud): waits for the
                                user to choose Settings > "Export history (USB)" on the device
                                and reads the checksummed lines until END (firmware:
                                potager.core.history_lines.export_lines / check_line)
  --nvm FILE                    an NVM image (the simulator's --nvm file): the newest valid
                                save, read with the firmware's own potager.core.persist.Store
Outputs (any of; JSON on standard output when none is named):
  --format F      standard output: json, csv, bgstats (a BG Stats play per line) or
                  bgstats-links (a bgstats:// link per line)
  --out DIR       BG Stats plays as DIR/<sourcePlayId>.json, and DIR/links.html (a link and
                  a QR code per play, for the phone)
  --csv OUT.csv   one row per player per game: seq,mode,player,colour,total,winner,name,
                  start,date,date_is,duration_s
  --json OUT.json [{"seq", "mode", "date", "date_is", "duration_s", "start_player",
                    "players": [{"seat", "name", "colour", "total", "winner", "start"}]}]
  --png OUT.png --game SEQ      a bar chart of one game's totals (Pillow, deterministic)
  --free-name NAME, --location TEXT
                                BG Stats: the free-score games' name, where they were played

Games are dated from the device's power session and uptime (exact for the export's own
session, else an estimate; see date_games). Input is bounded and checked: an NVM image is a
regular file of at most MAX_NVM bytes, a record that is not the device's is skipped with a
line, no output is written over the input. Every damaged line is reported on standard error
as one line ("line 4: checksum mismatch, skipped") and the games received intact are still
written. Exit status: 0 complete, 1 the transfer was incomplete (timeout, missing END, lost
lines, unplugged), 2 bad arguments, an unreadable file, a corrupt NVM image or an output that
cannot be written. See docs/export.md.
"""

import argparse
import contextlib
import csv
import importlib
import io
import json
import os
import re
import stat
import sys
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NoReturn, Optional, Protocol

from host_tools.common import firmware, write_utf8

BAUD = 115200
READ_SLICE = 0.2  # seconds a single readline() may block: the deadline is checked between them
DEFAULT_TIMEOUT = 10.0
MAX_LINE = 4096  # bytes without a newline before they are judged as one (noise) line
MAX_NVM = 1 << 20  # larger files are not NVM images (the simulator's is 4096 bytes)

PNG_SIZE = (640, 400)
PNG_BACKGROUND = (244, 244, 240)
PNG_INK = (24, 24, 24)
PNG_UNKNOWN_COLOUR = (128, 128, 128)
PNG_MAX_SEATS = 16  # bars still apart and labelled

CSV_COLUMNS = (
    "seq", "mode", "player", "colour", "total", "winner",
    "name", "start", "date", "date_is", "duration_s",
)  # fmt: skip

Warn = Callable[[str], None]
clock: Callable[[], float] = time.monotonic  # read_serial's clock in main (tests replace it)
wall: Optional[Callable[[], datetime]] = None  # the host's time (None: now; tests replace it)


class BadInput(Exception):
    """Refused input (exit 2): its message is the line for standard error."""


class Port(Protocol):
    """What read_serial needs of a port: pyserial's readline() (partial data on timeout)."""

    def readline(self) -> bytes: ...


# ----------------------------------------------------------------------------- firmware
def colour_name(index: int) -> str:
    """The colour's English name, from the firmware's own tables ("colour 9" if unknown)."""
    colours = firmware("potager.ui.view").COLOURS
    if 0 <= index < len(colours):
        texts = firmware("potager.lang")
        name = texts.Texts([firmware("potager.lang.en").T]).get(colours[index][2])
        if name:
            return str(name)
    return "colour " + str(index)


def colour_rgb(index: int) -> tuple[int, int, int]:
    colours = firmware("potager.ui.view").COLOURS
    if not 0 <= index < len(colours):
        return PNG_UNKNOWN_COLOUR
    rgb = int(colours[index][0])
    return (rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF


# ----------------------------------------------------------------------------- games
MAX_SEATS = 64  # a record with more is not the device's (it seats 6)
MAX_TOTAL = 10**9
MAX_SECONDS = 10**9  # ~31 years: durations and uptimes beyond are not the device's
MAX_NAME = 64
_MODE = re.compile(r"[a-z0-9_-]{1,32}\Z")
_DEVICE = re.compile(r"[0-9a-f]{1,32}\Z")


@dataclass(frozen=True)
class Game:
    """One history record; players are seats 0..n-1. Fields of format 2 records (names,
    first, dur, session, up) are None for a format 1 record; session 0 is unknown.
    The date (the game's start, the host's local time) is filled in by dating: `date_is`
    "exact" (same power session as the export), "estimate" or "unknown"."""

    seq: int
    mode: str
    colours: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    names: tuple[str, ...] = ()
    first: Optional[int] = None
    dur: Optional[int] = None
    session: int = 0
    up: Optional[int] = None
    date: Optional[datetime] = None
    date_is: str = "unknown"
    date_why: str = ""  # how an estimate was made

    def name(self, p: int) -> str:
        """The player's name as on the device: P1.. when none was given."""
        return (self.names[p] if p < len(self.names) else "") or "P" + str(p + 1)

    def players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": "P" + str(p + 1),
                "name": self.name(p),
                "colour": colour_name(self.colours[p]),
                "total": self.totals[p],
                "winner": p in self.winners,
                "start": p == self.first,
            }
            for p in range(len(self.totals))
        ]

    def as_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "mode": self.mode,
            "date": date_text(self.date),
            "date_is": self.date_is,
            "duration_s": self.dur,
            "start_player": None if self.first is None else "P" + str(self.first + 1),
            "players": self.players(),
        }


def date_text(date: Optional[datetime]) -> Optional[str]:
    return None if date is None else date.strftime("%Y-%m-%d %H:%M:%S")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: Any) -> bool:
    """A str that encodes to UTF-8 (no lone surrogate) and has no control character."""
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return value.isprintable()


def _whole(name: str, value: Any, lo: int, hi: int) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        raise ValueError("%s is not a whole number %d to %d" % (name, lo, hi))
    return int(value)


def make_game(
    seq: Any,
    mode: Any,
    colours: Any,
    totals: Any,
    winners: Any,
    names: Any = None,
    first: Any = None,
    dur: Any = None,
    session: Any = 0,
    up: Any = None,
) -> Game:
    """A Game from a record's fields; ValueError naming what is wrong."""
    _whole("seq", seq, 0, 2**31)
    if not isinstance(mode, str) or not _MODE.match(mode):
        raise ValueError("mode is not a name")
    for name, values in (("colours", colours), ("totals", totals), ("winners", winners)):
        if not isinstance(values, list | tuple) or not all(_is_int(v) for v in values):
            raise ValueError(name + " is not a list of whole numbers")
    if not totals:
        raise ValueError("no players")
    if len(totals) > MAX_SEATS:
        raise ValueError("%d players, more than %d" % (len(totals), MAX_SEATS))
    if len(colours) != len(totals):
        raise ValueError("%d colours for %d totals" % (len(colours), len(totals)))
    if any(not 0 <= c < 1000 for c in colours):
        raise ValueError("a colour is out of range")
    if any(not -MAX_TOTAL <= t <= MAX_TOTAL for t in totals):
        raise ValueError("a total is beyond %d" % MAX_TOTAL)
    if len(set(winners)) != len(winners) or any(not 0 <= w < len(totals) for w in winners):
        raise ValueError("a winner is not a seat of the game")
    names = [] if names is None else names
    if not isinstance(names, list | tuple) or (names and len(names) != len(totals)):
        raise ValueError("names are not a name per player")
    for p, text in enumerate(names):
        if not _is_text(text) or len(text) > MAX_NAME:
            raise ValueError("the name of P%d is not a short line of text" % (p + 1))
    if first is not None:
        first = _whole("the start player", first, 0, len(totals) - 1)
        dur = _whole("the duration", dur, 0, MAX_SECONDS)
        session = _whole("the session", session, 0, MAX_SECONDS)
        up = _whole("the uptime", up, 0, MAX_SECONDS)
    return Game(
        int(seq),
        mode,
        tuple(colours),
        tuple(totals),
        tuple(winners),
        tuple(names),
        first,
        dur,
        session if first is not None else 0,
        up,
    )


def game_from_record(record: Any) -> Game:
    if not isinstance(record, list) or len(record) not in (5, 10):
        raise ValueError("not a history record (5 or 10 fields)")
    return make_game(*record)


# ----------------------------------------------------------------------------- serial
KEYWORDS = (b"POTAGER ", b"GAME ", b"END ")
READ_FORMATS = (1, 2)  # history_lines.EXPORT_FORMAT and the ones before it
_INTS = re.compile(r"-?[0-9]{1,10}(,-?[0-9]{1,10})*\Z")
_NUMBER = re.compile(r"[0-9]{1,10}\Z")
_CHECKSUM = re.compile(rb"\*[0-9A-Fa-f]{4}\Z")
_QUOTED = re.compile(r"([0-9A-Za-z]|%[0-9A-F]{2})*\Z")


def _ints(field: str) -> list[int]:
    if field == "-":
        return []
    if not _INTS.match(field):
        raise ValueError("not a list of whole numbers: " + field[:20])
    return [int(v) for v in field.split(",")]


def _count(fields: list[str], n: int) -> list[int]:
    if len(fields) != n or not all(_NUMBER.match(f) for f in fields):
        raise ValueError("%d whole number(s) expected" % n)
    return [int(f) for f in fields]


def _names(field: str) -> list[str]:
    """The names of a GAME line (history.quote undone)."""
    if field == "-":
        return []
    names = []
    for quoted in field.split(","):
        if not _QUOTED.match(quoted):
            raise ValueError("a name is not quoted")
        try:
            names.append(urllib.parse.unquote_to_bytes(quoted).decode("utf-8"))
        except UnicodeDecodeError:
            raise ValueError("a name is not UTF-8") from None
    return names


def game_from_line(rest: str) -> Game:
    """The Game of a GAME line's fields (format 1: 5 of them, format 2: 10)."""
    fields = rest.split(" ")
    if len(fields) not in (5, 10):
        raise ValueError("5 or 10 fields expected")
    if not _NUMBER.match(fields[0]):
        raise ValueError("seq is not a whole number")
    colours, totals, winners = [_ints(f) for f in fields[2:5]]
    seq, mode = int(fields[0]), fields[1]
    if len(fields) == 5:
        return make_game(seq, mode, colours, totals, winners)
    first, dur, session, up = _count(fields[5:9], 4)
    names = _names(fields[9])
    return make_game(seq, mode, colours, totals, winners, names, first, dur, session, up)


@dataclass(frozen=True)
class Moment:
    """What the export knows of "now": the device's power session and uptime, and the host's
    time then (exact: read from the live export; else an estimate, e.g. a file's date)."""

    session: int
    up: int
    when: datetime
    exact: bool


class Receiver:
    """The export protocol, one received line at a time; keeps every game received intact.

    complete: a POTAGER header, then END, both announcing exactly the games received intact
    since that header, in a format this tool reads.
    """

    def __init__(self, warn: Warn, wall: Optional[Callable[[], datetime]] = None) -> None:
        self.warn = warn
        self.wall = wall or local_now
        self.moment: Optional[Moment] = None  # the newest format 2 header's
        self.device = ""
        self.games: dict[int, Game] = {}
        self.lineno = 0
        self.started = False  # a POTAGER header was received
        self.ended = False  # an END line was received: the transfer is over
        self.announced: Optional[int] = None  # the header's count
        self.end_count: Optional[int] = None
        self.this_export: set[int] = set()  # the seqs received since the last header
        self.headerless = False  # lines of an export whose header was missed
        self.unsupported = False

    @property
    def complete(self) -> bool:
        return (
            self.started
            and self.ended
            and not self.headerless
            and not self.unsupported
            and self.announced == self.end_count == len(self.this_export)
        )

    def sorted_games(self) -> list[Game]:
        return [self.games[seq] for seq in sorted(self.games)]

    def _say(self, text: str) -> None:
        self.warn("line %d: %s" % (self.lineno, text))

    def _verify(self, stripped: bytes) -> tuple[Optional[str], str, bool]:
        """(text, "", cut_before) for a line whose checksum holds, else (None, problem, _).
        Noise glued before the export line (the console's title escapes, a line cut by a
        reset) is looked past: the export line may start at any of its keywords."""
        check_line = firmware("potager.core.history_lines").check_line
        starts = sorted(
            pos
            for word in KEYWORDS
            for pos in (m.start() for m in re.finditer(re.escape(word), stripped))
        )
        for pos in starts:
            try:
                candidate = stripped[pos:].decode("utf-8")
            except UnicodeDecodeError:
                continue
            text = check_line(candidate)
            if text is not None:
                return str(text), "", any(w in stripped[:pos] for w in KEYWORDS)
        if starts:
            tail = stripped[starts[0] :]
            try:
                tail.decode("utf-8")
            except UnicodeDecodeError:
                return None, "not UTF-8 text, skipped", False
            if _CHECKSUM.search(tail):
                return None, "checksum mismatch, skipped", False
            return None, "cut off (no checksum), skipped", False
        try:
            stripped.decode("utf-8")
        except UnicodeDecodeError:
            return None, "not UTF-8 text, skipped", False
        return None, "not an export line, skipped", False

    def feed(self, raw: bytes) -> bool:
        """One line as read (any line ending); True when it was a checked export line."""
        self.lineno += 1
        stripped = raw.strip()
        if not stripped:
            return False
        text, problem, cut_before = self._verify(stripped)
        if text is None:
            # before the header the console may print anything: only export-like lines count
            if self.started or any(w in stripped for w in KEYWORDS):
                self._say(problem)
            return False
        if cut_before:
            self._say("an export line cut off before this one, skipped")
        kind, _, rest = text.partition(" ")
        try:
            if kind == "POTAGER":
                self._header(rest.split(" "))
            elif kind == "GAME":
                self._game(game_from_line(rest))
            elif kind == "END":
                self._end(*_count(rest.split(" "), 1))
            else:  # pragma: no cover - a checked line starts with one of KEYWORDS
                raise ValueError("unknown line")
        except ValueError as e:
            self._say("malformed %s line (%s), skipped" % (kind, e))
            return False
        return True

    def _header(self, fields: list[str]) -> None:
        if not fields or not _NUMBER.match(fields[0]):
            raise ValueError("the format is not a whole number")
        fmt = int(fields[0])
        moment = None
        if fmt == 1:
            count = _count(fields, 2)[1]
        elif fmt == 2:
            if len(fields) != 5:
                raise ValueError("5 fields expected")
            _, count, session, up = _count(fields[:4], 4)
            device = "" if fields[4] == "-" else fields[4]
            if device and not _DEVICE.match(device):
                raise ValueError("the device id is not hexadecimal")
            moment = Moment(session, up, self.wall(), True)
        else:  # a format this tool does not know: its count, if it reads as one
            count = int(fields[1]) if len(fields) > 1 and _NUMBER.match(fields[1]) else -1
        if moment is not None:
            self.moment = moment
            self.device = device
        if self.started and not self.ended:
            self._say("a new export started before END: the games already received are kept")
        elif self.headerless:
            self._say("a new export started: the games already received are kept")
        self.started = True
        self.headerless = False
        self.announced = count
        self.this_export = set()
        self.unsupported = fmt not in READ_FORMATS
        if self.unsupported:
            self._say(
                "export format %d, this tool reads formats 1 and 2: the games may be misread" % fmt
            )

    def _game(self, game: Game) -> None:
        if not self.started and not self.headerless:
            self._say("GAME before the POTAGER header: the start of the export was missed")
            self.headerless = True
        if game.seq in self.this_export:
            self._say("game %d received twice, the last copy kept" % game.seq)
        self.games[game.seq] = game
        self.this_export.add(game.seq)

    def _end(self, count: int) -> None:
        self.ended = True
        self.end_count = count
        if not self.started and not self.headerless:
            self._say("END without a POTAGER header: the start of the export was missed")
            self.headerless = True
        if self.announced is not None and count != self.announced:
            self._say("END announces %d games, the header %d" % (count, self.announced))
        if count != len(self.this_export):
            self._say("END: %d games sent, %d received intact" % (count, len(self.this_export)))


def local_now() -> datetime:
    """The host's time now, in its own time zone."""
    return datetime.now().astimezone()


def read_serial(
    port: Port,
    timeout: float,
    warn: Warn,
    clock: Callable[[], float] = time.monotonic,
    wall: Optional[Callable[[], datetime]] = None,
) -> Receiver:
    """Read the export from `port` until END, a timeout, a read error or Ctrl-C.

    The timeout runs from the start (the user has `timeout` seconds to choose the export on
    the device) and again from each checked export line; other output does not extend it.
    Whatever was received intact stays in the returned Receiver.
    """
    rx = Receiver(warn, wall)
    pending = b""
    deadline = clock() + timeout
    try:
        while True:
            chunk = port.readline()
            if chunk:
                pending += chunk
                if pending.endswith(b"\n") or len(pending) >= MAX_LINE:
                    line, pending = pending, b""
                    if rx.feed(line):
                        deadline = clock() + timeout
                    if rx.ended:
                        break
            if clock() >= deadline:
                if pending:  # a line without its end: it may still check, or be reported
                    line, pending = pending, b""
                    rx.feed(line)
                if not rx.ended:
                    if rx.started or rx.headerless:
                        warn("timeout: no END (no export line for %g s)" % timeout)
                    else:
                        warn(
                            "timeout: no export received within %g s (--timeout S waits longer)"
                            % timeout
                        )
                break
    except OSError as e:  # pyserial's SerialException included: unplugged, port gone
        if pending:
            rx.feed(pending)
        warn("port: read failed (%s): the device was unplugged or reset?" % _reason(e))
    except KeyboardInterrupt:
        if pending:
            rx.feed(pending)
        warn("interrupted")
    return rx


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


def open_port(device: str) -> Any:
    """The device's USB serial port (pyserial); OSError/ValueError if it cannot be opened."""
    try:
        import serial
    except ImportError:
        raise BadInput("--port: pyserial is not installed (pip install pyserial)") from None
    return serial.Serial(device, BAUD, timeout=READ_SLICE)


# ----------------------------------------------------------------------------- NVM image
@dataclass(frozen=True)
class History:
    """What a source gave: the games (seq order), whether it was complete, the moment that
    dates them (None: undated) and the device's id ("" unknown)."""

    games: list[Game]
    complete: bool
    moment: Optional[Moment] = None
    device: str = ""


def read_regular(path: Path, limit: int, what: str, too_big: str = "") -> tuple[bytes, float]:
    """(contents, modification time) of a regular file of at most `limit` bytes; BadInput
    for anything else (a device such as /dev/zero or a FIFO is refused before any read)."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise BadInput(
                "%s %s: cannot read (not a regular file: a folder, a device or a FIFO)"
                % (what, path)
            )
        data = b""
        if info.st_size <= limit:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as e:
        raise BadInput("%s %s: cannot read (%s)" % (what, path, _reason(e))) from None
    if info.st_size > limit or len(data) > limit:
        raise BadInput("%s %s: more than %d bytes%s" % (what, path, limit, too_big))
    return data, info.st_mtime


def read_nvm(path: Path, warn: Warn) -> tuple[list[Game], bool]:
    """(games, complete) of the newest valid save in an NVM image; BadInput if unreadable."""
    got = load_nvm(path, warn)
    return got.games, got.complete


def load_nvm(path: Path, warn: Warn) -> History:
    """The history in the newest valid save of an NVM image; BadInput if unreadable. Its
    games are dated from the file's modification time, taken as the last save's (an
    estimate)."""
    persist = firmware("potager.core.persist")
    scan = firmware("potager.core.scan")
    data, mtime = read_regular(path, MAX_NVM, "--nvm", ", not an NVM image")
    if len(data) < 2 * persist.HEADER_SIZE or len(data) % 2:
        raise BadInput(
            "--nvm %s: %d bytes, not an NVM image (the simulator's has 4096)" % (path, len(data))
        )
    store = persist.Store(bytearray(data))
    status = scan.load(store)
    if status == persist.BLANK or not any(data):
        warn("--nvm %s: a blank image (never saved): no games" % path)
        return History([], True)
    if status in (persist.OLD_FORMAT, persist.NEWER_FORMAT):
        raise BadInput(
            "--nvm %s: saved in another format than %d: not readable by this tool"
            % (path, persist.FORMAT)
        )
    if status == persist.TORN:
        raise BadInput(
            "--nvm %s: corrupt (the only save is incomplete: cut by a power loss?)" % path
        )
    if status != persist.OK:
        raise BadInput("--nvm %s: corrupt (no valid save)" % path)
    # the newest chain, as the device reads it: the last snapshot, then the deltas after it
    first = max(i for i, r in enumerate(store.records) if r[0] == 0)  # snapshots
    hist: list[Any] = []
    clock = None  # the newest "hx" of the chain: the device's clock at that save
    for i in range(first, len(store.records)):
        try:
            meta = persist.decode_payload(store.payload(i))[1]
        except Exception:  # a payload whose CRC holds but that no firmware wrote
            if i == first:
                raise BadInput(
                    "--nvm %s: corrupt (the newest save cannot be decoded)" % path
                ) from None
            warn("--nvm %s: record %d cannot be decoded: read the ones before it" % (path, i))
            break
        if i == first:
            if not isinstance(meta, dict) or not isinstance(meta.get("hist", []), list | None):
                raise BadInput("--nvm %s: corrupt (the save holds no history list)" % path)
            hist = list(meta.get("hist") or [])
            clock = meta.get("hx")
        elif isinstance(meta, dict):
            clock = meta.get("hx", clock)
            drop = meta.get("gone", 0)
            hist = hist[drop:] if isinstance(drop, int) and drop >= 0 else hist
            added = meta.get("games", [])
            hist += added if isinstance(added, list) else []
    if store.tail:
        warn(
            "--nvm %s: the newest record is damaged (a write cut by a power loss?): "
            "read the ones before it" % path
        )
    meta = {"hist": hist, "hx": clock}
    games: dict[int, Game] = {}
    complete = True
    for i, record in enumerate(meta.get("hist") or []):
        try:
            game = game_from_record(record)
        except ValueError as e:
            warn("--nvm %s: history record %d: %s, skipped" % (path, i + 1, e))
            complete = False
            continue
        games[game.seq] = game
    moment, device = None, ""
    clock = meta.get("hx")
    if clock is not None:
        try:
            device, session, up = clock[0], clock[1], clock[2]
            if not (isinstance(device, str) and (device == "" or _DEVICE.match(device))):
                raise ValueError("the device id is not hexadecimal")
            _whole("the session", session, 0, MAX_SECONDS)
            _whole("the uptime", up, 0, MAX_SECONDS)
            when = datetime.fromtimestamp(mtime).astimezone()
            moment = Moment(session, up, when, False)
        except (ValueError, TypeError, IndexError, KeyError, OverflowError, OSError) as e:
            warn("--nvm %s: the save's clock is unreadable (%s): games undated" % (path, e))
            device = ""
    return History([games[seq] for seq in sorted(games)], complete, moment, device)


# ----------------------------------------------------------------------------- dates
def date_games(games: Sequence[Game], moment: Optional[Moment]) -> list[Game]:
    """The games with their start dates: `moment` ties the device's session and uptime to
    the host's time. A game of that session is dated exactly (if the moment is exact); a game
    of an earlier session is an estimate, its session placed just before the next one (the
    time the device was off is unknown: the date is at the latest); others stay undated."""
    if moment is None:
        return list(games)
    ends: dict[int, tuple[datetime, int]] = {}  # session -> (its end, the uptime then)
    try:
        start = moment.when - timedelta(seconds=moment.up)  # of the moment's session
        ends[moment.session] = (moment.when, moment.up)
        earlier = {g.session for g in games if g.up is not None and 0 < g.session < moment.session}
        for session in sorted(earlier, reverse=True):
            last = max(g.up for g in games if g.session == session and g.up is not None)
            ends[session] = (start, last)
            start -= timedelta(seconds=last)
    except OverflowError:
        pass
    out = []
    for game in games:
        at = ends.get(game.session)
        if game.up is None or game.dur is None or at is None or game.up > at[1]:
            out.append(game)
            continue
        same = game.session == moment.session
        try:
            when = at[0] - timedelta(seconds=at[1] - game.up + game.dur)
        except OverflowError:
            out.append(game)
            continue
        if same and moment.exact:
            out.append(replace(game, date=when, date_is="exact"))
            continue
        why = (
            "from the date of the saved image"
            if same
            else "played before the device was last switched on, for how long it was off "
            "is unknown: the latest it can have been"
        )
        out.append(replace(game, date=when, date_is="estimate", date_why=why))
    return out


# ----------------------------------------------------------------------------- outputs
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet run a cell
PLAIN_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")  # ASCII digits only (\d takes any script's)


def csv_cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows and never runs: a text starting like a formula gets a
    leading ' (a name "=1+1", "@SUM(1)", "-x"); a plain number ("-3", "2.5") stays a number.
    Every CSV the host tools write goes through this."""
    text = str(value)
    if text.startswith(FORMULA_LEADS) and not PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def csv_text(games: Sequence[Game]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in games:
        for player in game.players():
            row = [
                game.seq,
                game.mode,
                player["seat"],
                player["colour"],
                player["total"],
                "yes" if player["winner"] else "no",
                player["name"],
                "yes" if player["start"] else "no",
                date_text(game.date) or "",
                game.date_is,
                "" if game.dur is None else game.dur,
            ]
            writer.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()


def json_text(games: Sequence[Game]) -> str:
    return json.dumps([g.as_json() for g in games], indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class Bar:
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 inclusive, as ImageDraw.rectangle
    rgb: tuple[int, int, int]


_PLOT = (60, 90, PNG_SIZE[0] - 30, PNG_SIZE[1] - 80)  # left, top, right, bottom


def _y_of(game: Game) -> Callable[[int], int]:
    """The pixel row of a value on the chart's axis (0 included, whatever the totals)."""
    _, top, _, bottom = _PLOT
    lo, hi = min(0, *game.totals), max(0, *game.totals)
    if hi == lo:
        hi = lo + 1
    scale = (bottom - top) / (hi - lo)
    return lambda value: round(bottom - (value - lo) * scale)


def chart_bars(game: Game) -> list[Bar]:
    """Where render_png draws each player's bar (seat order), and in which colour."""
    left, _, right, _ = _PLOT
    y = _y_of(game)
    slot = (right - left) / len(game.totals)
    width = min(round(slot * 0.6), 120)
    bars = []
    for p, total in enumerate(game.totals):
        x0 = round(left + p * slot + (slot - width) / 2)
        if total == 0:  # still a visible bar, on the zero line
            y0, y1 = y(0) - 4, y(0)
        else:
            y0, y1 = min(y(total), y(0)), max(y(total), y(0))
        bars.append(Bar((x0, y0, x0 + width - 1, y1), colour_rgb(game.colours[p])))
    return bars


def render_png(game: Game) -> Any:
    """The game's totals as a bar chart (a PIL Image): bars in the players' colours, seat
    and colour name under each bar, the total on it, a star and "winner" for the winners."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", PNG_SIZE, PNG_BACKGROUND)
    draw = ImageDraw.Draw(image)
    try:
        font: Any = ImageFont.load_default(size=15)
        title_font: Any = ImageFont.load_default(size=20)
    except TypeError:  # pragma: no cover - Pillow < 10.1: one bitmap font
        font = title_font = ImageFont.load_default()

    def text(x: float, y: float, s: str, f: Any = font, centre: bool = True) -> None:
        x0, _, x1, _ = draw.textbbox((0, 0), s, font=f)
        draw.text((round(x - (x1 - x0) / 2) if centre else round(x), round(y)), s, PNG_INK, f)

    left, _, right, bottom = _PLOT
    title = "Game %d: %s" % (game.seq, game.mode)
    if game.date is not None:
        title += "  " + game.date.strftime("%Y-%m-%d %H:%M")
        title += "" if game.date_is == "exact" else " (estimate)"
    if game.dur is not None:
        title += "  %d min" % round(game.dur / 60)
    text(left - 40, 12, title, title_font, centre=False)
    bars = chart_bars(game)
    zero = _y_of(game)(0)
    draw.line((left - 10, zero, right + 10, zero), PNG_INK, 1)
    for p, bar in enumerate(bars):
        x0, y0, x1, _ = bar.box
        draw.rectangle(bar.box, fill=bar.rgb, outline=PNG_INK)
        centre = (x0 + x1) / 2
        total = game.totals[p]
        label_y = y0 - 20  # above the bar (a negative bar hangs from the zero line)
        text(centre, label_y, str(total))
        if p in game.winners:
            star_y = label_y - 16
            _star(draw, centre, star_y, 9)
        text(centre, bottom + 12, game.name(p)[:12])
        text(centre, bottom + 32, colour_name(game.colours[p]))
        marks = ["winner"] if p in game.winners else []
        marks += ["first"] if p == game.first else []
        if marks:
            text(centre, bottom + 52, ", ".join(marks))
    return image


def _star(draw: Any, cx: float, cy: float, r: float) -> None:
    """A five-pointed star (integer corners: the picture is the same on every machine)."""
    # unit star corners, outer radius 1, inner 0.4, first point up
    unit = (
        (0.0, -1.0), (0.235, -0.324), (0.951, -0.309), (0.380, 0.124), (0.588, 0.809),
        (0.0, 0.4), (-0.588, 0.809), (-0.380, 0.124), (-0.951, -0.309), (-0.235, -0.324),
    )  # fmt: skip
    draw.polygon([(round(cx + x * r), round(cy + y * r)) for x, y in unit], fill=PNG_INK)


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.resolve() == b.resolve():
            return True
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, RuntimeError, ValueError):
        return False


def _write_file(path: Path, text: str, source: Optional[Path], warn: Warn) -> int:
    """Write one output (0), or say why not (2): never over the input."""
    if source is not None and _same_file(path, source):
        warn("%s: is the input: not written over" % path)
        return 2
    try:
        path.write_text(text, encoding="utf-8", newline="")
    except OSError as e:
        warn("%s: cannot write (%s)" % (path, _reason(e)))
        return 2
    return 0


def bgstats_plays(args: argparse.Namespace, games: list[Game], device: str) -> list[dict[str, Any]]:
    bgstats = importlib.import_module("host_tools.bgstats")
    return [bgstats.play(g, device, args.free_name, args.location) for g in games]


def bgstats_report(games: Sequence[Game]) -> list[str]:
    """For the person exporting: how the plays' dates were made, where a play's note in
    BG Stats only says "Date estimated" or "Date unknown"."""
    groups: dict[tuple[str, str], list[int]] = {}
    for game in games:
        if game.date_is == "estimate":
            key = ("estimate", game.date_why or "no exact clock")
        elif game.date_is != "exact":
            key = ("unknown", "recorded before export format 2")
        else:
            continue
        groups.setdefault(key, []).append(game.seq)
    out = []
    for (kind, why), seqs in groups.items():
        one = len(seqs) == 1
        which = ("game " if one else "games ") + ", ".join(map(str, seqs))
        if kind == "estimate":
            out.append("note: %s: %s estimated (%s)" % (which, "date" if one else "dates", why))
        else:
            them = "it" if one else "them"
            out.append(
                "note: %s: undated (%s): BG Stats dates %s at the import" % (which, why, them)
            )
    return out


def stdout_text(fmt: str, args: argparse.Namespace, games: list[Game], device: str) -> str:
    if fmt == "csv":
        return csv_text(games)
    if fmt == "bgstats":
        plays = bgstats_plays(args, games, device)
        return "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in plays)
    if fmt == "bgstats-links":
        bgstats = importlib.import_module("host_tools.bgstats")
        return "".join(bgstats.link(p) + "\n" for p in bgstats_plays(args, games, device))
    return json_text(games)


def write_outputs(
    args: argparse.Namespace, games: list[Game], complete: bool, warn: Warn, device: str = ""
) -> int:
    """Write every output asked for; the worst exit status of them."""
    status = 0
    source = args.nvm
    files = (args.csv, args.json, args.png, args.out)
    if args.out is not None or (args.format or "").startswith("bgstats"):
        for line in bgstats_report(games):
            warn(line)
    if args.format is not None or all(f is None for f in files):
        fmt = args.format or "json"
        if not (fmt.startswith("bgstats") and args.out is not None):
            _write(sys.stdout, stdout_text(fmt, args, games, device))
    for path, render in ((args.csv, csv_text), (args.json, json_text)):
        if path is not None:
            status = max(status, _write_file(path, render(games), source, warn))
    if args.out is not None:
        status = max(status, write_plays(args, games, device, source, warn))
    if args.png is not None:
        chosen = [g for g in games if g.seq == args.seq]
        if not chosen:
            have = ", ".join(str(g.seq) for g in games) or "none"
            warn("--game %d: no such game received (games: %s)" % (args.seq, have))
            return max(status, 2 if complete else 1)
        if len(chosen[0].totals) > PNG_MAX_SEATS:
            warn(
                "--png: game %d has %d players, a chart shows at most %d"
                % (args.seq, len(chosen[0].totals), PNG_MAX_SEATS)
            )
            return 2
        if source is not None and _same_file(args.png, source):
            warn("%s: is the input: not written over" % args.png)
            return 2
        try:
            render_png(chosen[0]).save(args.png, format="PNG")
        except OSError as e:
            warn("%s: cannot write (%s)" % (args.png, _reason(e)))
            status = 2
        except (ValueError, OverflowError, MemoryError) as e:  # never a traceback
            warn("--png: game %d cannot be drawn (%s)" % (args.seq, e))
            status = 2
    return status


def write_plays(
    args: argparse.Namespace, games: list[Game], device: str, source: Optional[Path], warn: Warn
) -> int:
    """--out DIR: a BG Stats play per game (<sourcePlayId>.json) and links.html."""
    bgstats = importlib.import_module("host_tools.bgstats")
    out: Path = args.out
    try:
        out.mkdir(exist_ok=True)
    except OSError as e:
        warn("--out %s: cannot make the folder (%s)" % (out, _reason(e)))
        return 2
    status = 0
    plays = bgstats_plays(args, games, device)
    if not bgstats.has_qr():
        warn("--out: segno is not installed (pip install segno): links.html has no QR codes")
    for data in plays:
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
        path = out / (data["sourcePlayId"] + ".json")
        status = max(status, _write_file(path, text, source, warn))
    return max(status, _write_file(out / "links.html", bgstats.links_html(plays), source, warn))


# ----------------------------------------------------------------------------- command line
class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number of seconds: " + repr(text)) from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError("seconds must be above 0 (and at most a day)")
    return value


def parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m host_tools export",
        description="Export the device's history of finished games (see docs/export.md).",
    )
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--port", metavar="DEVICE", help="USB serial port of the device")
    source.add_argument("--nvm", metavar="FILE", type=Path, help="an NVM image (4096 bytes)")
    p.add_argument(
        "--timeout",
        metavar="S",
        type=_positive,
        help="--port: seconds to wait for the export, and between its lines (default 10)",
    )
    p.add_argument("--csv", metavar="OUT.csv", type=Path, help="one row per player per game")
    p.add_argument("--json", metavar="OUT.json", type=Path, help="a list of games")
    p.add_argument("--png", metavar="OUT.png", type=Path, help="a bar chart of --game SEQ")
    p.add_argument("--game", metavar="SEQ", help="--png: the number of the game it draws")
    p.add_argument(
        "--free-name",
        metavar="NAME",
        help="BG Stats: the name of the free-score games (default: Free score (Potager))",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="what standard output gets (default json, when no file is named)",
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        help="BG Stats: a file per game, and links.html (links and QR codes for the phone)",
    )
    p.add_argument("--location", metavar="TEXT", help="BG Stats: where the games were played")
    return p


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The arguments, checked; _Usage naming the problem, SystemExit(0) for --help."""
    args = parser().parse_args(list(argv))
    if args.timeout is not None and args.port is None:
        raise _Usage("--timeout goes with --port")
    if args.timeout is None:
        args.timeout = DEFAULT_TIMEOUT
    args.seq = None
    if args.game is not None and not _NUMBER.match(args.game):
        raise _Usage(
            "--game SEQ is a game's number (for --png): the free-score games are named "
            "with --free-name NAME"
        )
    if args.png is not None:
        if args.game is None:
            raise _Usage("--png OUT.png goes with --game SEQ (a game's number)")
        args.seq = int(args.game)
    elif args.game is not None:
        raise _Usage("--game SEQ goes with --png OUT.png (the chart of that game)")
    bgstats = args.out is not None or (args.format or "").startswith("bgstats")
    if not bgstats:
        for option, value in (("--free-name", args.free_name), ("--location", args.location)):
            if value is not None:
                raise _Usage("%s is for BG Stats plays: --format bgstats or --out DIR" % option)
    if args.out is not None and args.format is not None and not args.format.startswith("bgstats"):
        raise _Usage("--out DIR is for BG Stats plays: --format bgstats")
    for option, text in (("--free-name", args.free_name), ("--location", args.location)):
        if text is not None and (not _is_text(text) or not 0 < len(text) <= 100):
            raise _Usage("%s: not a short line of text" % option)
    paths = [p for p in (args.csv, args.json, args.png, args.out) if p is not None]
    named = [str(p.resolve()) for p in paths]
    if len(set(named)) != len(named):
        raise _Usage("two outputs name the same file")
    source = args.nvm if args.nvm is not None else Path(args.port)
    for path in paths:
        if _same_file(path, source):
            raise _Usage("%s is the input %s: it is never written over" % (path, source))
    return args


FORMATS = ("json", "csv", "bgstats", "bgstats-links")


def _write(stream: Any, text: str) -> None:
    write_utf8(stream, text)


def warn(message: str) -> None:
    """One line on standard error (UTF-8 whatever the locale)."""
    _write(sys.stderr, " ".join(message.split()) + "\n")


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the export; returns the exit status (0 complete, 1 incomplete, 2 refused)."""
    try:
        args = parse(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except _Usage as e:
        warn("export: %s (usage: python -m host_tools export --help)" % e)
        return 2
    if args.nvm is not None:
        try:
            got = load_nvm(args.nvm, warn)
        except BadInput as e:
            warn(str(e))
            return 2
        games, complete, moment, device = got.games, got.complete, got.moment, got.device
    else:
        try:
            port = open_port(args.port)
        except BadInput as e:
            warn(str(e))
            return 2
        except (OSError, ValueError) as e:
            warn("--port %s: cannot open (%s)" % (args.port, _reason(e)))
            return 2
        warn(
            "waiting up to %g s for the export: on the device choose "
            "Settings > Export history (USB)" % args.timeout
        )
        try:
            rx = read_serial(port, args.timeout, warn, clock, wall)
        finally:
            with contextlib.suppress(Exception):  # an unplugged port may refuse to close
                port.close()
        games, complete = rx.sorted_games(), rx.complete
        moment, device = rx.moment, rx.device
        if not complete:
            if rx.announced is not None:
                got_text = "%d of %d games received intact" % (len(rx.this_export), rx.announced)
            else:
                got_text = "%d games received intact" % len(games)
            wrote = "written anyway" if games else "nothing written"
            warn("incomplete transfer: %s, %s" % (got_text, wrote))
            if not games:
                return 1
    status = 0 if complete else 1
    games = date_games(games, moment)
    return max(status, write_outputs(args, games, complete, warn, device))


if __name__ == "__main__":
    sys.exit(main())
