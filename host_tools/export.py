"""`python -m host_tools export`: the device's history of finished games, as CSV, JSON or a PNG.

Sources (one of):
  --port DEVICE [--timeout S]   the USB serial console (pyserial, 115200 baud): waits for the
                                user to choose Settings > "Export history (USB)" on the device
                                and reads the checksummed lines until END (firmware:
                                potager.core.history.export_lines / check_line)
  --nvm FILE                    an NVM image (the simulator's --nvm file): the newest valid
                                save, read with the firmware's own potager.core.persist.Store
Outputs (any of; JSON on standard output when none is named):
  --csv OUT.csv   one row per player per game: seq,mode,player,colour,total,winner
  --json OUT.json [{"seq", "mode", "players": [{"seat", "colour", "total", "winner"}]}]
  --png OUT.png --game SEQ      a bar chart of one game's totals (Pillow, deterministic)

Every damaged line is reported on standard error as one line ("line 4: checksum mismatch,
skipped") and the games received intact are still written. Exit status: 0 complete, 1 the
transfer was incomplete (timeout, missing END, lost lines, unplugged), 2 bad arguments, an
unreadable file, a corrupt NVM image or an output that cannot be written. See docs/export.md.
"""

import argparse
import contextlib
import csv
import io
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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

CSV_COLUMNS = ("seq", "mode", "player", "colour", "total", "winner")

Warn = Callable[[str], None]
clock: Callable[[], float] = time.monotonic  # read_serial's clock in main (tests replace it)


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
@dataclass(frozen=True)
class Game:
    """One history record [seq, mode, colours, totals, winners]; players are seats 0..n-1."""

    seq: int
    mode: str
    colours: tuple[int, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def players(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": "P" + str(p + 1),
                "colour": colour_name(self.colours[p]),
                "total": self.totals[p],
                "winner": p in self.winners,
            }
            for p in range(len(self.totals))
        ]

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "mode": self.mode, "players": self.players()}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_game(seq: Any, mode: Any, colours: Any, totals: Any, winners: Any) -> Game:
    """A Game from a record's fields; ValueError naming what is wrong."""
    if not _is_int(seq) or seq < 0:
        raise ValueError("seq is not a whole number")
    if not isinstance(mode, str) or not mode or mode.split() != [mode]:
        raise ValueError("mode is not a name")
    for name, values in (("colours", colours), ("totals", totals), ("winners", winners)):
        if not isinstance(values, list | tuple) or not all(_is_int(v) for v in values):
            raise ValueError(name + " is not a list of whole numbers")
    if not totals:
        raise ValueError("no players")
    if len(colours) != len(totals):
        raise ValueError("%d colours for %d totals" % (len(colours), len(totals)))
    if any(c < 0 for c in colours):
        raise ValueError("a colour is negative")
    if len(set(winners)) != len(winners) or any(not 0 <= w < len(totals) for w in winners):
        raise ValueError("a winner is not a seat of the game")
    return Game(seq, mode, tuple(colours), tuple(totals), tuple(winners))


def game_from_record(record: Any) -> Game:
    if not isinstance(record, list) or len(record) != 5:
        raise ValueError("not a [seq, mode, colours, totals, winners] record")
    return make_game(*record)


# ----------------------------------------------------------------------------- serial
KEYWORDS = (b"POTAGER ", b"GAME ", b"END ")
_INTS = re.compile(r"-?[0-9]+(,-?[0-9]+)*\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
_CHECKSUM = re.compile(rb"\*[0-9A-Fa-f]{4}\Z")


def _ints(field: str) -> list[int]:
    if field == "-":
        return []
    if not _INTS.match(field):
        raise ValueError("not a list of whole numbers: " + field)
    return [int(v) for v in field.split(",")]


def _count(fields: list[str], n: int) -> list[int]:
    if len(fields) != n or not all(_NUMBER.match(f) for f in fields):
        raise ValueError("%d whole number(s) expected" % n)
    return [int(f) for f in fields]


class Receiver:
    """The export protocol, one received line at a time; keeps every game received intact.

    complete: a POTAGER header, then END, both announcing exactly the games received intact
    since that header, in a format this tool reads.
    """

    def __init__(self, warn: Warn) -> None:
        self.warn = warn
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
        check_line = firmware("potager.core.history").check_line
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
                self._header(*_count(rest.split(" "), 2))
            elif kind == "GAME":
                fields = rest.split(" ")
                if len(fields) != 5:
                    raise ValueError("5 fields expected")
                if not _NUMBER.match(fields[0]):
                    raise ValueError("seq is not a whole number")
                self._game(make_game(int(fields[0]), fields[1], *[_ints(f) for f in fields[2:]]))
            elif kind == "END":
                self._end(*_count(rest.split(" "), 1))
            else:  # pragma: no cover - a checked line starts with one of KEYWORDS
                raise ValueError("unknown line")
        except ValueError as e:
            self._say("malformed %s line (%s), skipped" % (kind, e))
            return False
        return True

    def _header(self, fmt: int, count: int) -> None:
        if self.started and not self.ended:
            self._say("a new export started before END: the games already received are kept")
        elif self.headerless:
            self._say("a new export started: the games already received are kept")
        self.started = True
        self.headerless = False
        self.announced = count
        self.this_export = set()
        self.unsupported = fmt != firmware("potager.core.history").EXPORT_FORMAT
        if self.unsupported:
            self._say(
                "export format %d, this tool reads format %d: the games may be misread"
                % (fmt, firmware("potager.core.history").EXPORT_FORMAT)
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


def read_serial(
    port: Port, timeout: float, warn: Warn, clock: Callable[[], float] = time.monotonic
) -> Receiver:
    """Read the export from `port` until END, a timeout, a read error or Ctrl-C.

    The timeout runs from the start (the user has `timeout` seconds to choose the export on
    the device) and again from each checked export line; other output does not extend it.
    Whatever was received intact stays in the returned Receiver.
    """
    rx = Receiver(warn)
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
                        warn("timeout: no export received within %g s" % timeout)
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
def read_nvm(path: Path, warn: Warn) -> tuple[list[Game], bool]:
    """(games, complete) of the newest valid save in an NVM image; BadInput if unreadable."""
    persist = firmware("potager.core.persist")
    try:
        size = path.stat().st_size
        if size > MAX_NVM:
            raise BadInput("--nvm %s: %d bytes, not an NVM image" % (path, size))
        data = path.read_bytes()
    except OSError as e:
        raise BadInput("--nvm %s: cannot read (%s)" % (path, _reason(e))) from None
    if len(data) < 2 * persist.HEADER_SIZE or len(data) % 2:
        raise BadInput(
            "--nvm %s: %d bytes, not an NVM image (the simulator's has 4096)" % (path, len(data))
        )
    store = persist.Store(bytearray(data))
    try:
        status, meta, _log = store.load()
    except Exception:  # a payload whose CRC holds but that no firmware wrote
        status, meta = persist.CORRUPT, None
    if status == persist.BLANK:
        warn("--nvm %s: a blank image (never saved): no games" % path)
        return [], True
    if status == persist.OLD_FORMAT:
        raise BadInput(
            "--nvm %s: saved in another format than %d: not readable by this tool"
            % (path, persist.FORMAT)
        )
    if status != persist.OK:
        checked = [persist._read_slot(data, s * store.slot_size, store.slot_size) for s in (0, 1)]
        if any(checked):  # its CRC holds, its contents do not: the device refuses it too
            raise BadInput("--nvm %s: corrupt (the newest save cannot be decoded)" % path)
        raise BadInput("--nvm %s: corrupt (no slot holds a valid save)" % path)
    for slot in (0, 1):  # the device reads the other slot too: say so when one is damaged
        start = slot * store.slot_size
        if bytes(data[start : start + 2]) == persist.MAGIC:
            found = persist._read_slot(data, start, store.slot_size)
            if found is None:
                warn(
                    "--nvm %s: slot %d is damaged (a write cut by a power loss?): "
                    "read the save in slot %d" % (path, slot, 1 - slot)
                )
    if not isinstance(meta, dict) or not isinstance(meta.get("hist", []), list | type(None)):
        raise BadInput("--nvm %s: corrupt (the save holds no history list)" % path)
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
    return [games[seq] for seq in sorted(games)], complete


# ----------------------------------------------------------------------------- outputs
def csv_text(games: Sequence[Game]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game in games:
        for player in game.players():
            writer.writerow(
                [
                    game.seq,
                    game.mode,
                    player["seat"],
                    player["colour"],
                    player["total"],
                    "yes" if player["winner"] else "no",
                ]
            )
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
        text(centre, bottom + 12, "P" + str(p + 1))
        text(centre, bottom + 32, colour_name(game.colours[p]))
        if p in game.winners:
            text(centre, bottom + 52, "winner")
    return image


def _star(draw: Any, cx: float, cy: float, r: float) -> None:
    """A five-pointed star (integer corners: the picture is the same on every machine)."""
    # unit star corners, outer radius 1, inner 0.4, first point up
    unit = (
        (0.0, -1.0), (0.235, -0.324), (0.951, -0.309), (0.380, 0.124), (0.588, 0.809),
        (0.0, 0.4), (-0.588, 0.809), (-0.380, 0.124), (-0.951, -0.309), (-0.235, -0.324),
    )  # fmt: skip
    draw.polygon([(round(cx + x * r), round(cy + y * r)) for x, y in unit], fill=PNG_INK)


def write_outputs(args: argparse.Namespace, games: list[Game], complete: bool, warn: Warn) -> int:
    """Write every output asked for; the worst exit status of them."""
    status = 0
    if args.csv is None and args.json is None and args.png is None:
        _write(sys.stdout, json_text(games))
        return 0
    for path, render in ((args.csv, csv_text), (args.json, json_text)):
        if path is not None:
            try:
                path.write_text(render(games), encoding="utf-8", newline="")
            except OSError as e:
                warn("%s: cannot write (%s)" % (path, _reason(e)))
                status = 2
    if args.png is not None:
        chosen = [g for g in games if g.seq == args.game]
        if not chosen:
            have = ", ".join(str(g.seq) for g in games) or "none"
            warn("--game %d: no such game received (games: %s)" % (args.game, have))
            return max(status, 2 if complete else 1)
        try:
            render_png(chosen[0]).save(args.png, format="PNG")
        except OSError as e:
            warn("%s: cannot write (%s)" % (args.png, _reason(e)))
            status = 2
    return status


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
    p.add_argument("--game", metavar="SEQ", type=int, help="the game --png draws")
    return p


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The arguments, checked; _Usage naming the problem, SystemExit(0) for --help."""
    args = parser().parse_args(list(argv))
    if args.timeout is not None and args.port is None:
        raise _Usage("--timeout goes with --port")
    if args.timeout is None:
        args.timeout = DEFAULT_TIMEOUT
    if (args.png is None) != (args.game is None):
        raise _Usage("--png OUT.png and --game SEQ go together")
    named = [str(p.resolve()) for p in (args.csv, args.json, args.png) if p is not None]
    if len(set(named)) != len(named):
        raise _Usage("two outputs name the same file")
    return args


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
            games, complete = read_nvm(args.nvm, warn)
        except BadInput as e:
            warn(str(e))
            return 2
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
            rx = read_serial(port, args.timeout, warn, clock)
        finally:
            with contextlib.suppress(Exception):  # an unplugged port may refuse to close
                port.close()
        games, complete = rx.sorted_games(), rx.complete
        if not complete:
            if rx.announced is not None:
                got = "%d of %d games received intact" % (len(rx.this_export), rx.announced)
            else:
                got = "%d games received intact" % len(games)
            wrote = "written anyway" if games else "nothing written"
            warn("incomplete transfer: %s, %s" % (got, wrote))
            if not games:
                return 1
    status = 0 if complete else 1
    return max(status, write_outputs(args, games, complete, warn))


if __name__ == "__main__":
    sys.exit(main())
