"""`python -m host_tools export`: the history through a noisy serial line and NVM images.

The lines come from the firmware's own ``history_lines.export_lines`` and the images from its own
``persist.Store`` + ``persist.encode_payload``; the serial port is a fake with pyserial's
``readline()`` (partial data when its timeout runs out) on a virtual clock, so the timeouts
cost no real time.
"""

import contextlib
import csv
import io
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
import serial
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from host_tools import export

ROOT = Path(__file__).resolve().parent.parent
history = export.firmware("potager.core.history")
history_lines = export.firmware("potager.core.history_lines")
persist = export.firmware("potager.core.persist")
scan = export.firmware("potager.core.scan")
view = export.firmware("potager.ui.view")
crc16 = export.firmware("potager.core.crc").crc16

NVM_SIZE = 4096


DEVICE = "e66138509322352b"
# the host's time when the export arrives (and the NVM image's date), in UTC: see `utc`
T0 = datetime(2026, 12, 1, 21, 0, 0, tzinfo=UTC)


def make_history():
    """Three games: one before a power cut (session 1), two after it (session 2)."""
    h: list = []
    history.add(h, "hortis", [0, 1, 6], [12, 30, 30], [1, 2], None, [0, 600, 1, 900])
    history.add(h, "free", [3, 2], [-5, 0], [1], ["Zoé", ""], [1, 1200, 2, 1500])
    history.add(h, "arboretum", [4, 5, 7, 2], [18, 22, 9, 0], [1], None, [2, 1800, 2, 3400])
    return h


HISTORY = make_history()
SESSION, UP = 2, 4000  # the device's power session and uptime at the export
LINES = [
    (line + "\r\n").encode() for line in history_lines.export_lines(HISTORY, [DEVICE, SESSION, UP])
]
# the start of each game: session 2 began at T0 - 4000 s; session 1 is placed just before it
DATES = ["2026-12-01 19:43:20", "2026-12-01 19:58:20", "2026-12-01 20:20:00"]


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """Local time is UTC, and the host's clock reads T0, so dates are the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(export, "wall", lambda: T0)
    yield
    monkeypatch.undo()
    time.tzset()


def expected_json(exact=True):
    """What --json holds for HISTORY: exact dates for session 2's games on the serial line,
    estimates from an NVM image (its file date stands for the last save's)."""
    kinds = ["estimate", "exact" if exact else "estimate", "exact" if exact else "estimate"]
    return [
        {
            "seq": 1,
            "mode": "hortis",
            "date": DATES[0],
            "date_is": kinds[0],
            "duration_s": 600,
            "start_player": "P1",
            "players": [
                {"seat": "P1", "name": "P1", "colour": "red", "total": 12, "winner": False,
                 "start": True},
                {"seat": "P2", "name": "P2", "colour": "blue", "total": 30, "winner": True,
                 "start": False},
                {"seat": "P3", "name": "P3", "colour": "white", "total": 30, "winner": True,
                 "start": False},
            ],
        },
        {
            "seq": 2,
            "mode": "free",
            "date": DATES[1],
            "date_is": kinds[1],
            "duration_s": 1200,
            "start_player": "P2",
            "players": [
                {"seat": "P1", "name": "Zoé", "colour": "yellow", "total": -5, "winner": False,
                 "start": False},
                {"seat": "P2", "name": "P2", "colour": "green", "total": 0, "winner": True,
                 "start": True},
            ],
        },
        {
            "seq": 3,
            "mode": "arboretum",
            "date": DATES[2],
            "date_is": kinds[2],
            "duration_s": 1800,
            "start_player": "P3",
            "players": [
                {"seat": "P1", "name": "P1", "colour": "purple", "total": 18, "winner": False,
                 "start": False},
                {"seat": "P2", "name": "P2", "colour": "orange", "total": 22, "winner": True,
                 "start": False},
                {"seat": "P3", "name": "P3", "colour": "pink", "total": 9, "winner": False,
                 "start": True},
                {"seat": "P4", "name": "P4", "colour": "green", "total": 0, "winner": False,
                 "start": False},
            ],
        },
    ]  # fmt: skip


EXPECTED_JSON = expected_json(exact=False)  # from an NVM image
SERIAL_JSON = expected_json(exact=True)


def expected_csv(exact=True):
    e = "exact" if exact else "estimate"
    return f"""seq,mode,player,colour,total,winner,name,start,date,date_is,duration_s
1,hortis,P1,red,12,no,P1,yes,{DATES[0]},estimate,600
1,hortis,P2,blue,30,yes,P2,no,{DATES[0]},estimate,600
1,hortis,P3,white,30,yes,P3,no,{DATES[0]},estimate,600
2,free,P1,yellow,-5,no,Zoé,no,{DATES[1]},{e},1200
2,free,P2,green,0,yes,P2,yes,{DATES[1]},{e},1200
3,arboretum,P1,purple,18,no,P1,no,{DATES[2]},{e},1800
3,arboretum,P2,orange,22,yes,P2,no,{DATES[2]},{e},1800
3,arboretum,P3,pink,9,no,P3,yes,{DATES[2]},{e},1800
3,arboretum,P4,green,0,no,P4,no,{DATES[2]},{e},1800
"""


EXPECTED_CSV = expected_csv(exact=False)
SERIAL_CSV = expected_csv(exact=True)


def records(games):
    """The history records the games were read from (format 1 ones have 5 fields)."""
    out = []
    for g in games:
        record = [g.seq, g.mode, list(g.colours), list(g.totals), list(g.winners)]
        if g.first is not None:
            record += [list(g.names), g.first, g.dur, g.session, g.up]
        out.append(record)
    return out


# --- a fake serial port ----------------------------------------------------------------------
class FakeSerial:
    """pyserial's ``readline()`` on a virtual clock: the line up to and including b"\\n", or
    whatever arrived when ``timeout`` ran out (b"" if nothing). The script is what the device
    does: bytes (sent now), a float (seconds of silence), an exception (raised by the read)."""

    def __init__(self, script, timeout=export.READ_SLICE):
        self.script = list(script)
        self.timeout = timeout
        self.t = 0.0
        self.buffer = b""
        self.closed = False

    def clock(self):
        return self.t

    def _take(self, end):
        line, self.buffer = self.buffer[:end], self.buffer[end:]
        return line

    def readline(self):
        waited = 0.0
        while True:
            newline = self.buffer.find(b"\n")
            if newline >= 0:
                return self._take(newline + 1)
            if not self.script:  # the device is silent for good
                self.t += self.timeout - waited
                return self._take(len(self.buffer))
            item = self.script[0]
            if isinstance(item, bytes):
                self.buffer += self.script.pop(0)
            elif isinstance(item, BaseException):
                self.script.pop(0)
                raise item
            else:
                step = min(item, self.timeout - waited)
                self.t += step
                waited += step
                if item - step > 1e-9:
                    self.script[0] = item - step
                else:
                    self.script.pop(0)
                if waited >= self.timeout - 1e-9:
                    return self._take(len(self.buffer))

    def close(self):
        self.closed = True


def receive(script, timeout=10.0):
    port = FakeSerial(script)
    messages: list[str] = []
    rx = export.read_serial(port, timeout, messages.append, port.clock)
    return rx, messages, port


def test_fake_serial_behaves_like_pyserial():
    port = FakeSerial([b"ab", 0.1, b"c\nde", 1.0, b"f\n"])
    assert port.readline() == b"abc\n"
    assert port.readline() == b"de"  # the timeout ran out in the silence: partial data
    assert port.t == pytest.approx(0.3)
    assert port.readline() == b""
    assert port.readline() == b""
    assert port.readline() == b""
    assert port.readline() == b""
    assert port.readline() == b"f\n"
    assert port.t == pytest.approx(1.1)


# --- serial: the round trip -------------------------------------------------------------------
def test_clean_export_round_trip():
    rx, messages, port = receive(LINES)
    assert messages == []
    assert rx.complete
    assert records(rx.sorted_games()) == HISTORY
    assert port.t == 0.0  # stops at END: no waiting for a timeout


def test_empty_history_is_a_complete_export():
    rx, messages, _ = receive([(line + "\n").encode() for line in history_lines.export_lines([])])
    assert (rx.complete, rx.sorted_games(), messages) == (True, [], [])


def test_console_output_before_the_export_is_ignored_quietly():
    title = "\x1b]0;🐍code.py | 9.2.1\x1b\\".encode()  # CircuitPython's title bar, no newline
    script = [
        b"soft reboot\r\n",
        b"\r\n",
        b"Auto-reload is on. Simply save files over USB to run them.\r\n",
        b"code.py output:\r\n",
        b"\xff\xfe boot noise\r\n",
        2.5,
        title + LINES[0],
        *LINES[1:],
    ]
    rx, messages, _ = receive(script)
    assert messages == []
    assert rx.complete
    assert records(rx.sorted_games()) == HISTORY


def test_the_user_has_the_timeout_to_start_the_export():
    rx, messages, port = receive([9.0, *LINES])
    assert rx.complete and messages == []
    rx, messages, port = receive([11.0, *LINES])
    assert messages == ["timeout: no export received within 10 s (--timeout S waits longer)"]
    assert not rx.complete and rx.sorted_games() == []
    assert port.t == pytest.approx(10.0, abs=export.READ_SLICE)


def test_garbage_lines_inside_the_export_are_reported_but_lose_nothing():
    script = [LINES[0], b"%$#!garbage\r\n", LINES[1], b"\x80\x81\xfe\r\n", *LINES[2:]]
    rx, messages, _ = receive(script)
    assert messages == [
        "line 2: not an export line, skipped",
        "line 4: not UTF-8 text, skipped",
    ]
    assert rx.complete
    assert records(rx.sorted_games()) == HISTORY


def flip_checksum(line: bytes) -> bytes:
    star = line.rindex(b"*")
    digit = b"0" if line[star + 1 : star + 2] != b"0" else b"1"
    return line[: star + 1] + digit + line[star + 2 :]


def test_a_bad_checksum_skips_that_game_only():
    script = [LINES[0], LINES[1], flip_checksum(LINES[2]), *LINES[3:]]
    rx, messages, _ = receive(script)
    assert messages == [
        "line 3: checksum mismatch, skipped",
        "line 5: END: 3 games sent, 2 received intact",
    ]
    assert not rx.complete
    assert records(rx.sorted_games()) == [HISTORY[0], HISTORY[2]]


def test_a_changed_field_is_a_checksum_mismatch():
    damaged = LINES[1].replace(b" 12,", b" 13,")
    rx, messages, _ = receive([LINES[0], damaged, *LINES[2:]])
    assert messages[0] == "line 2: checksum mismatch, skipped"
    assert records(rx.sorted_games()) == HISTORY[1:]


def test_a_line_cut_by_a_reset_then_no_end():
    script = [
        *LINES[:2],
        LINES[2][:12],  # the device resets in the middle of the line
        b"\r\nsoft reboot\r\n\r\ncode.py output:\r\n",
    ]
    rx, messages, port = receive(script)
    assert messages == [
        "line 3: cut off (no checksum), skipped",
        "line 4: not an export line, skipped",
        "line 6: not an export line, skipped",
        "timeout: no END (no export line for 10 s)",
    ]
    assert not rx.complete
    assert records(rx.sorted_games()) == HISTORY[:1]
    # ten seconds from the last export line, not from the last noise
    assert port.t == pytest.approx(10.0, abs=export.READ_SLICE)


def test_a_cut_line_glued_to_the_next_one():
    script = [LINES[0], LINES[1][:20], *LINES[2:]]
    rx, messages, _ = receive(script)
    assert messages == [
        "line 2: an export line cut off before this one, skipped",
        "line 4: END: 3 games sent, 2 received intact",
    ]
    assert records(rx.sorted_games()) == HISTORY[1:]
    assert not rx.complete


def test_a_missing_end_keeps_every_game():
    rx, messages, port = receive(LINES[:-1])
    assert messages == ["timeout: no END (no export line for 10 s)"]
    assert not rx.complete
    assert records(rx.sorted_games()) == HISTORY
    assert port.t == pytest.approx(10.0, abs=export.READ_SLICE)


def test_the_last_line_without_its_newline_still_counts():
    rx, messages, _ = receive([*LINES[:-1], LINES[-1].rstrip()])
    assert messages == []
    assert rx.complete


def test_a_line_arriving_in_pieces():
    pieces = [LINES[1][:7], 0.5, LINES[1][7:19], 3.0, LINES[1][19:]]
    rx, messages, _ = receive([LINES[0], *pieces, *LINES[2:]])
    assert messages == [] and rx.complete


def test_noise_does_not_extend_the_timeout():
    chatter = [x for _ in range(40) for x in (0.7, b"debug: tick\r\n")]
    rx, messages, port = receive([*LINES[:2], *chatter], timeout=5)
    assert messages[-1] == "timeout: no END (no export line for 5 s)"
    assert messages[:-1] == ["line %d: not an export line, skipped" % n for n in range(3, 10)]
    assert port.t == pytest.approx(5.0, abs=export.READ_SLICE)
    assert records(rx.sorted_games()) == HISTORY[:1]


def test_an_unplugged_device_keeps_what_was_read():
    gone = serial.SerialException(
        "device reports readiness to read but returned no data "
        "(device disconnected or multiple access on port?)"
    )
    rx, messages, _ = receive([*LINES[:3], LINES[3][:9], 0.5, gone])
    assert messages == [
        "line 4: cut off (no checksum), skipped",
        "port: read failed (device reports readiness to read but returned no data (device "
        "disconnected or multiple access on port?)): the device was unplugged or reset?",
    ]
    assert records(rx.sorted_games()) == HISTORY[:2]
    assert not rx.complete


def test_ctrl_c_keeps_what_was_read():
    rx, messages, _ = receive([*LINES[:2], KeyboardInterrupt()])
    assert messages == ["interrupted"]
    assert records(rx.sorted_games()) == HISTORY[:1]


def test_a_new_export_after_a_reset_completes_the_transfer():
    later = make_history()
    history.add(later, "free", [0, 1], [3, 4], [1])
    again = [(line + "\r\n").encode() for line in history_lines.export_lines(later)]
    rx, messages, _ = receive([*LINES[:2], LINES[2][:15], b"\r\n", 2.0, *again])
    assert messages == [
        "line 3: cut off (no checksum), skipped",
        "line 4: a new export started before END: the games already received are kept",
    ]
    assert rx.complete
    assert records(rx.sorted_games()) == later


def test_joining_in_the_middle_of_an_export():
    rx, messages, _ = receive(LINES[2:])
    assert messages == [
        "line 1: GAME before the POTAGER header: the start of the export was missed",
        "line 3: END: 3 games sent, 2 received intact",
    ]
    assert records(rx.sorted_games()) == HISTORY[1:]
    assert not rx.complete


def checked(text: str) -> bytes:
    return (text + "*%04X\r\n" % crc16(text.encode())).encode()


def test_checked_lines_with_bad_contents():
    script = [
        LINES[0],
        checked("GAME 1 hortis 0,1 12 0"),  # 2 colours, 1 total
        checked("GAME x hortis 0 1 0"),
        checked("GAME 2 free 0,1 5,5 4"),  # no seat 5
        checked("GAME 3 free 0 1,,2 0"),
        checked("GAME 4 free"),
        checked("END three"),
        *LINES[1:],
    ]
    rx, messages, _ = receive(script)
    assert messages == [
        "line 2: malformed GAME line (2 colours for 1 totals), skipped",
        "line 3: malformed GAME line (seq is not a whole number), skipped",
        "line 4: malformed GAME line (a winner is not a seat of the game), skipped",
        "line 5: malformed GAME line (not a list of whole numbers: 1,,2), skipped",
        "line 6: malformed GAME line (5 or 10 fields expected), skipped",
        "line 7: malformed END line (1 whole number(s) expected), skipped",
    ]
    assert rx.complete  # the export itself came through whole
    assert records(rx.sorted_games()) == HISTORY


def test_an_unknown_export_format_is_never_complete():
    script = [checked("POTAGER 3 3 2 4000 -"), *LINES[1:]]
    rx, messages, _ = receive(script)
    assert messages == [
        "line 1: export format 3, this tool reads formats 1 and 2: the games may be misread"
    ]
    assert not rx.complete
    assert records(rx.sorted_games()) == HISTORY


def test_a_game_sent_twice():
    rx, messages, _ = receive([*LINES[:2], LINES[1], *LINES[2:]])
    assert messages == ["line 3: game 1 received twice, the last copy kept"]
    assert rx.complete
    assert records(rx.sorted_games()) == HISTORY


def test_an_endless_line_is_judged_in_pieces():
    rx, messages, _ = receive([LINES[0], b"x" * 10000, b"\r\n", *LINES[1:]])
    assert records(rx.sorted_games()) == HISTORY
    assert rx.complete
    assert messages and all(m.endswith("not an export line, skipped") for m in messages)


# --- serial: random noise (Hypothesis, seeded) -------------------------------------------------
NOISE = st.binary(min_size=1, max_size=30).map(lambda b: b.replace(b"\n", b"."))
DAMAGE = st.one_of(
    st.tuples(st.just("ok")),
    st.tuples(st.just("prefix"), NOISE),  # noise glued before the line: still intact
    st.tuples(st.just("flip"), st.integers(0, 200), st.integers(1, 255)),
    st.tuples(st.just("cut"), st.integers(0, 200)),
    st.tuples(st.just("tail"), NOISE),  # noise glued after the checksum
    st.tuples(
        st.just("drop"),
    ),
)


def damage(line: bytes, how) -> tuple[list[bytes], bool]:
    """(the bytes sent instead of `line`, whether the line is still intact)."""
    body = line.rstrip(b"\r\n")
    if how[0] == "ok":
        return [line], True
    if how[0] == "prefix":
        return [how[1] + line], True
    if how[0] == "flip":
        i = how[1] % len(body)
        new = (body[i] + how[2]) % 256
        new = new if new != 0x0A else 0x0B
        return [body[:i] + bytes([new]) + body[i + 1 :] + b"\r\n"], False
    if how[0] == "cut":
        return [body[: how[1] % (len(body) - 1) + 1] + b"\r\n"], False
    if how[0] == "tail":
        return [body + how[1].strip() + b"!\r\n"], False
    return [], False  # dropped


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    hows=st.lists(DAMAGE, min_size=len(LINES), max_size=len(LINES)),
    extra=st.lists(st.tuples(st.integers(0, len(LINES)), NOISE), max_size=6),
)
def test_random_noise_never_loses_an_intact_game(hows, extra):
    pieces: list[list[bytes]] = []
    intact: list[bool] = []
    for line, how in zip(LINES, hows, strict=True):
        sent, ok = damage(line, how)
        pieces.append(sent)
        intact.append(ok)
    noise_at: dict[int, list[bytes]] = {}
    for where, noise in extra:
        noise_at.setdefault(where, []).append(noise + b"\r\n")
    script: list[bytes] = []
    line_of: dict[int, int] = {}  # index in LINES -> line number it arrives on
    for i, sent in enumerate(pieces):
        script += noise_at.get(i, [])
        if sent:
            line_of[i] = sum(s.count(b"\n") for s in script) + 1
        script += sent
    script += noise_at.get(len(LINES), [])

    rx, messages, _ = receive(script)

    kept = records(rx.sorted_games())
    expected = [HISTORY[i - 1] for i in range(1, len(LINES) - 1) if intact[i]]
    assert kept == expected  # every intact game, and nothing else
    assert rx.complete == all(intact)
    if intact[0]:  # once the header is in, every damaged line is named by its number
        for i in range(1, len(LINES)):
            if i in line_of and not intact[i]:
                assert any(m.startswith("line %d: " % line_of[i]) for m in messages)
    if not intact[-1]:
        assert messages[-1].startswith("timeout: ")
    assert all("\n" not in m for m in messages)


# --- NVM images --------------------------------------------------------------------------------
META = {
    "lang": "en", "set": {"bri": 2}, "mode": None, "base": None, "rec": {},
    "hx": [DEVICE, SESSION, UP, 0, 0],
}  # fmt: skip


def image(*hists, size=NVM_SIZE):
    """An NVM image after one save per history given (the firmware's own store)."""
    nvm = bytearray(b"\xff" * size)
    store = persist.Store(nvm)
    for hist in hists:
        assert store.save(persist.encode_payload(dict(META, hist=hist), [(1, 2, 3)]))
    return nvm


@pytest.fixture
def run(tmp_path, capsysbinary):
    """main(argv) -> (exit status, stdout text, stderr lines)."""

    def go(*argv):
        status = export.main([str(a) for a in argv])
        out, err = capsysbinary.readouterr()
        return status, out.decode(), err.decode().splitlines()

    return go


def write_image(tmp_path, data, name="nvm.bin"):
    """The image as a file last written at T0 (its date stands for the last save's)."""
    path = tmp_path / name
    path.write_bytes(bytes(data))
    os.utime(path, (T0.timestamp(), T0.timestamp()))
    return path


def test_nvm_valid_image_to_stdout(tmp_path, run):
    path = write_image(tmp_path, image(HISTORY[:1], HISTORY))
    status, out, err = run("--nvm", path)
    assert (status, err) == (0, [])
    assert json.loads(out) == EXPECTED_JSON


def test_nvm_the_newest_save_is_read(tmp_path, run):
    for saves in ([HISTORY[:1], HISTORY[:2]], [HISTORY[:1], HISTORY[:2], HISTORY]):
        path = write_image(tmp_path, image(*saves))
        status, out, _ = run("--nvm", path)
        assert status == 0
        assert [g["seq"] for g in json.loads(out)] == [r[0] for r in saves[-1]]


def test_nvm_the_journal_is_read_snapshot_then_deltas(tmp_path, run):
    nvm = image(HISTORY[:1])
    store = persist.Store(nvm)
    scan.load(store)
    games = {"games": HISTORY[1:]}  # a delta: the games filed since the snapshot
    assert store.save(persist.encode_payload(games, [], 0), 1)
    assert store.save(persist.encode_payload({"gone": 1}, [], 0), 1)  # oldest dropped
    status, out, err = run("--nvm", write_image(tmp_path, nvm))
    assert (status, err) == (0, [])
    assert json.loads(out) == EXPECTED_JSON[1:]


@pytest.mark.parametrize("fill", [b"\xff", b"\x00"])
def test_nvm_blank_image(tmp_path, run, fill):
    path = write_image(tmp_path, fill * NVM_SIZE)
    status, out, err = run("--nvm", path)
    assert (status, json.loads(out)) == (0, [])
    assert err == ["--nvm %s: a blank image (never saved): no games" % path]


def test_nvm_without_history(tmp_path, run):
    nvm = bytearray(b"\xff" * NVM_SIZE)
    persist.Store(nvm).save(persist.encode_payload(META, []))
    status, out, err = run("--nvm", write_image(tmp_path, nvm))
    assert (status, json.loads(out), err) == (0, [], [])


def assert_refused(status, out, err, *words):
    assert status == 2
    assert out == ""
    assert len(err) == 1, err
    assert "Traceback" not in err[0]
    for word in words:
        assert word in err[0], err


def test_nvm_corrupt_image(tmp_path, run):
    data = bytearray(image(HISTORY))
    data[persist.HEADER_SIZE + 20] ^= 0x40  # one bit of the only save
    path = write_image(tmp_path, data)
    assert_refused(*run("--nvm", path), "corrupt (the only save is incomplete")
    path = write_image(tmp_path, bytes(range(256)) * 16)
    assert_refused(*run("--nvm", path), "corrupt")


def raw_save(payload: bytes, version=persist.FORMAT) -> bytearray:
    """A slot-0 record around any payload, its CRC valid (something else wrote it)."""
    nvm = bytearray(b"\xff" * NVM_SIZE)
    header = bytearray(persist.HEADER_SIZE)
    header[0:2] = persist.MAGIC
    header[2] = version
    header[4:8] = (1).to_bytes(4, "little")
    header[8:10] = len(payload).to_bytes(2, "little")
    crc = crc16(payload, crc16(bytes(header[:10])))
    header[10:12] = crc.to_bytes(2, "little")
    nvm[: persist.HEADER_SIZE + len(payload)] = bytes(header) + payload
    return nvm


def json_payload(meta) -> bytes:
    text = json.dumps(meta).encode()
    return b"\0\0" + len(text).to_bytes(2, "little") + text


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        (b"", ["corrupt (the newest save cannot be decoded)"]),  # no room for its JSON length
        (b"\x05\x00{nope", ["cannot be decoded"]),
        (b"\x05\x00\xff\xfe\xfd\xfc\xfb", ["cannot be decoded"]),
        (json_payload([1, 2, 3]), ["corrupt (the save holds no history list)"]),
        (json_payload({"hist": {"1": 2}}), ["no history list"]),
        (json_payload({"hist": "[" * 1500}), ["no history list"]),
        (b"\0\0\xdc\x05" + b"[" * 1500, ["cannot be decoded"]),  # nested too deeply for json
    ],
)
def test_nvm_valid_crc_but_not_a_save_we_wrote(tmp_path, run, payload, words):
    assert_refused(*run("--nvm", write_image(tmp_path, raw_save(payload))), *words)


def test_nvm_another_format(tmp_path, run):
    nvm = raw_save(bytes(persist.encode_payload(dict(META, hist=HISTORY), [])), version=7)
    assert_refused(
        *run("--nvm", write_image(tmp_path, nvm)), "another format than %d" % persist.FORMAT
    )


def test_nvm_bad_records_are_skipped(tmp_path, run):
    hist = [HISTORY[0], [9, "free", [0], [1, 2], []], "junk", [10, "free", [0], [True], []]]
    nvm = raw_save(bytes(persist.encode_payload(dict(META, hist=hist + HISTORY[1:]), [])))
    path = write_image(tmp_path, nvm)
    status, out, err = run("--nvm", path)
    assert status == 1
    assert err == [
        "--nvm %s: history record 2: 1 colours for 2 totals, skipped" % path,
        "--nvm %s: history record 3: not a history record (5 or 10 fields), skipped" % path,
        "--nvm %s: history record 4: totals is not a list of whole numbers, skipped" % path,
    ]
    assert json.loads(out) == EXPECTED_JSON


@pytest.mark.parametrize("torn_at", [1, 2, 7, 11, 12, 40, -1])
def test_nvm_torn_write_falls_back_to_the_older_save(tmp_path, run, torn_at):
    """The newest save was cut after `torn_at` bytes: the older slot is read, as on the device."""
    before = image(HISTORY[:1], HISTORY[:2])  # the next save goes to slot 0
    after = image(HISTORY[:1], HISTORY[:2], HISTORY)
    record_len = persist.HEADER_SIZE + int.from_bytes(after[8:10], "little")
    cut = record_len + torn_at if torn_at < 0 else torn_at
    torn = after[:cut] + before[cut:]
    path = write_image(tmp_path, torn)
    status, out, err = run("--nvm", path)
    assert status == 0
    assert [g["seq"] for g in json.loads(out)] == [1, 2]
    if torn != before:  # slot 0 holds neither save: it is named
        assert err == [
            "--nvm %s: slot 0 is damaged (a write cut by a power loss?): read the save in slot 1"
            % path
        ]
    else:
        assert err == []


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    flips=st.lists(st.tuples(st.integers(0, NVM_SIZE - 1), st.integers(1, 255)), max_size=4),
    cut=st.integers(0, NVM_SIZE),
)
def test_nvm_any_damage_never_a_traceback(tmp_path_factory, flips, cut):
    data = bytearray(image(HISTORY[:2], HISTORY))
    data[cut:] = b"\xff" * (NVM_SIZE - cut) if cut % 3 == 0 else data[cut:]
    for pos, xor in flips:
        data[pos] ^= xor
    path = tmp_path_factory.mktemp("nvm") / "nvm.bin"
    path.write_bytes(bytes(data))
    messages: list[str] = []
    try:
        games, _ = export.read_nvm(path, messages.append)
    except export.BadInput as e:
        assert "\n" not in str(e)
        return
    assert records(games) in ([], HISTORY[:2], HISTORY)


@pytest.mark.parametrize(
    ("contents", "words"),
    [
        (b"\xff" * 4097, ["4097 bytes, not an NVM image"]),
        (b"", ["0 bytes, not an NVM image"]),
        (b"\xff" * (2 << 20), ["bytes, not an NVM image"]),
    ],
)
def test_nvm_wrong_sizes(tmp_path, run, contents, words):
    assert_refused(*run("--nvm", write_image(tmp_path, contents)), *words)


def test_nvm_unreadable(tmp_path, run):
    assert_refused(*run("--nvm", tmp_path / "absent.bin"), "cannot read", "absent.bin")
    assert_refused(*run("--nvm", tmp_path), "cannot read")


# --- outputs -----------------------------------------------------------------------------------
def test_csv_and_json_files(tmp_path, run):
    path = write_image(tmp_path, image(HISTORY))
    csv_path, json_path = tmp_path / "h.csv", tmp_path / "h.json"
    status, out, err = run("--nvm", path, "--csv", csv_path, "--json", json_path)
    assert (status, out, err) == (0, "", [])
    assert csv_path.read_text("utf-8") == EXPECTED_CSV
    assert json.loads(json_path.read_text("utf-8")) == EXPECTED_JSON


# names the device takes (printable ASCII, 10 letters) that a spreadsheet would run
FORMULA_NAMES = ["=1+1", "@SUM(1)", "+A1", "-x"]


def test_csv_never_hands_a_spreadsheet_a_formula_and_json_keeps_the_names(tmp_path, run):
    roster = export.firmware("potager.roster")
    assert all(roster.check(name.encode(), []) is None for name in FORMULA_NAMES)
    h: list = []
    history.add(h, "free", [0, 1, 2, 3], [-3, 2, 0, -12], [1], FORMULA_NAMES, [0, 60, 2, 3000])
    path = nvm_with(tmp_path, h)
    csv_path, json_path = tmp_path / "h.csv", tmp_path / "h.json"
    status, out, err = run("--nvm", path, "--csv", csv_path, "--json", json_path)
    assert (status, err) == (0, [])
    rows = list(csv.DictReader(io.StringIO(csv_path.read_text("utf-8"))))
    assert [row["name"] for row in rows] == ["'=1+1", "'@SUM(1)", "'+A1", "'-x"]
    assert [row["total"] for row in rows] == ["-3", "2", "0", "-12"]  # numbers stay numbers
    status, out, err = run("--nvm", path, "--format", "csv")  # standard output: the same
    assert (status, out, err) == (0, csv_path.read_text("utf-8"), [])
    players = json.loads(json_path.read_text("utf-8"))[0]["players"]
    assert [p["name"] for p in players] == FORMULA_NAMES  # JSON is data, not formulas
    assert [p["total"] for p in players] == [-3, 2, 0, -12]


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+1", "'=1+1"), ("@SUM(1)", "'@SUM(1)"), ("+A1", "'+A1"), ("-x", "'-x"),
        ("\tx", "'\tx"), ("\r=1", "'\r=1"), ("-", "'-"), ("+3", "'+3"), ("-3e5", "'-3e5"),
        ("-٣", "'-٣"),  # a digit of another script is no plain number
        (-3, "-3"), ("-3", "-3"), ("-2.5", "-2.5"), (0, "0"), ("Zoé", "Zoé"), ("a=b", "a=b"),
        ("", ""), ("'=x", "'=x"),
    ],
)  # fmt: skip
def test_a_cell_starting_like_a_formula_gets_a_quote(cell, written):
    assert export.csv_cell(cell) == written


def test_tab_and_carriage_return_leading_names_in_the_csv():
    # (the device and the export's checks refuse control characters in names: the writer
    # quotes them all the same)
    game = export.Game(1, "free", (0, 1, 2), (-1, 4, 2), (1,), ("\tTab", "\rCR", "Bo"), 0)
    rows = export.csv_text([game]).split("\n")[1:4]
    assert [row.split(",")[6] for row in rows] == ["'\tTab", "'\rCR", "Bo"]
    assert [row.split(",")[4] for row in rows] == ["-1", "4", "2"]


def test_unknown_colours_get_a_name_and_grey(tmp_path):
    game = export.make_game(5, "free", [12], [3], [0])
    assert game.players()[0]["colour"] == "colour 12"
    assert export.chart_bars(game)[0].rgb == export.PNG_UNKNOWN_COLOUR


def test_an_output_that_cannot_be_written(tmp_path, run):
    path = write_image(tmp_path, image(HISTORY))
    json_path = tmp_path / "h.json"
    status, out, err = run("--nvm", path, "--csv", tmp_path / "no" / "h.csv", "--json", json_path)
    assert (status, out) == (2, "")
    assert len(err) == 1 and "cannot write" in err[0] and "h.csv" in err[0]
    assert json.loads(json_path.read_text("utf-8")) == EXPECTED_JSON  # the others still are


def rgb(colour_index):
    value = view.COLOURS[colour_index][0]
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)


@pytest.mark.parametrize("seq", [1, 2, 3])
def test_png_bar_chart(tmp_path, run, seq):
    path = write_image(tmp_path, image(HISTORY))
    png = tmp_path / "game.png"
    status, out, err = run("--nvm", path, "--png", png, "--game", seq)
    assert (status, out, err) == (0, "", [])
    picture = Image.open(png).convert("RGB")
    assert picture.size == export.PNG_SIZE == (640, 400)
    record = HISTORY[seq - 1]
    game = export.game_from_record(record)
    bars = export.chart_bars(game)
    assert len(bars) == len(record[2])
    pixels = picture.load()
    assert pixels is not None
    for p, bar in enumerate(bars):
        x0, y0, x1, y1 = bar.box
        assert bar.rgb == rgb(record[2][p])
        assert pixels[(x0 + x1) // 2, (y0 + y1) // 2] == rgb(record[2][p])
        assert pixels[x0, (y0 + y1) // 2] == export.PNG_INK  # outlined: a white bar shows
        assert pixels[x0 - 3, (y0 + y1) // 2] == export.PNG_BACKGROUND
        star = pixels[(x0 + x1) // 2, y0 - 36]  # the winner's star above the total
        assert (star == export.PNG_INK) == (p in record[4])
    # taller bar, bigger total
    heights = [bar.box[3] - bar.box[1] for bar in bars]
    magnitudes = [abs(t) for t in record[3]]
    assert sorted(range(len(bars)), key=heights.__getitem__) == sorted(
        range(len(bars)), key=magnitudes.__getitem__
    )
    # same picture every time
    again = tmp_path / "again.png"
    run("--nvm", path, "--png", again, "--game", seq)
    assert again.read_bytes() == png.read_bytes()


def test_png_of_an_unknown_game(tmp_path, run):
    path = write_image(tmp_path, image(HISTORY))
    status, out, err = run("--nvm", path, "--png", tmp_path / "g.png", "--game", 9)
    assert_refused(status, out, err, "--game 9: no such game received (games: 1, 2, 3)")
    assert not (tmp_path / "g.png").exists()


def test_png_with_eight_players(tmp_path):
    game = export.make_game(4, "free", list(range(8)), [5, -3, 0, 12, 12, 7, 1, 2], [3, 4])
    picture = export.render_png(game)
    bars = export.chart_bars(game)
    assert all(a.box[2] < b.box[0] for a, b in itertools.pairwise(bars))
    for p, bar in enumerate(bars):
        x0, y0, x1, y1 = bar.box
        assert picture.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == rgb(p)
        assert x0 >= 0 and x1 < 640 and y0 >= 0 and y1 < 400


# --- main with a serial port ---------------------------------------------------------------
@pytest.fixture
def fake_port(monkeypatch):
    def install(script):
        port = FakeSerial(script)
        monkeypatch.setattr(export, "open_port", lambda device: port)
        monkeypatch.setattr(export, "clock", port.clock)
        return port

    return install


WAITING = "waiting up to 10 s for the export: on the device choose Settings > Export history (USB)"


def test_port_complete_transfer(tmp_path, run, fake_port):
    port = fake_port([b"hello\r\n", 1.0, *LINES])
    csv_path = tmp_path / "h.csv"
    status, out, err = run("--port", "/dev/ttyACM0", "--csv", csv_path)
    assert (status, out, err) == (0, "", [WAITING])
    assert csv_path.read_text("utf-8") == SERIAL_CSV
    assert port.closed


def test_port_incomplete_transfer_is_still_written(tmp_path, run, fake_port):
    port = fake_port([LINES[0], LINES[1], flip_checksum(LINES[2]), LINES[3]])
    json_path = tmp_path / "h.json"
    status, out, err = run("--port", "COM3", "--timeout", "2.5", "--json", json_path)
    assert (status, out) == (1, "")
    assert err == [
        "waiting up to 2.5 s for the export: on the device choose Settings > Export history (USB)",
        "line 3: checksum mismatch, skipped",
        "timeout: no END (no export line for 2.5 s)",
        "incomplete transfer: 2 of 3 games received intact, written anyway",
    ]
    assert json.loads(json_path.read_text("utf-8")) == [SERIAL_JSON[0], SERIAL_JSON[2]]
    assert port.closed


def test_port_nothing_received_writes_nothing(tmp_path, run, fake_port):
    fake_port([b"\x00\xff\r\n"])
    csv_path = tmp_path / "h.csv"
    csv_path.write_text("an earlier export\n")
    status, out, err = run("--port", "/dev/ttyACM0", "--csv", csv_path)
    assert (status, out) == (1, "")
    assert err == [
        WAITING,
        "timeout: no export received within 10 s (--timeout S waits longer)",
        "incomplete transfer: 0 games received intact, nothing written",
    ]
    assert csv_path.read_text() == "an earlier export\n"


def test_port_png_of_a_game_lost_in_transit(tmp_path, run, fake_port):
    fake_port([LINES[0], LINES[1], flip_checksum(LINES[2]), *LINES[3:]])
    status, _, err = run("--port", "x", "--png", tmp_path / "g.png", "--game", 2)
    assert status == 1
    assert err[-1] == "--game 2: no such game received (games: 1, 3)"


def test_port_cannot_be_opened(run, monkeypatch):
    status, out, err = run("--port", "/dev/potager-absent")
    assert_refused(status, out, err, "--port /dev/potager-absent: cannot open")

    def refuse(device):
        raise serial.SerialException("[Errno 16] could not open port: Device or resource busy")

    monkeypatch.setattr(export, "open_port", refuse)
    assert_refused(*run("--port", "/dev/ttyACM0"), "cannot open", "busy")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_port_through_a_real_pseudo_terminal(tmp_path, run, monkeypatch):
    """pyserial itself, on a pty: what the device's USB CDC port looks like to the host."""
    master, slave = os.openpty()
    device = os.ttyname(slave)
    real_open = export.open_port

    def opening(name):
        port = real_open(name)
        os.write(master, b"".join([b"code.py output:\r\n", *LINES]))
        return port

    monkeypatch.setattr(export, "open_port", opening)
    try:
        status, out, err = run("--port", device, "--timeout", "5")
    finally:
        os.close(slave)
        os.close(master)
    assert status == 0
    assert err == [WAITING.replace(" 10 s", " 5 s")]
    assert json.loads(out) == SERIAL_JSON


# --- arguments ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([], ["one of the arguments --port --nvm is required"]),
        (["--port", "a", "--nvm", "b"], ["not allowed with argument"]),
        (["--nvm", "b", "--timeout", "3"], ["--timeout goes with --port"]),
        (["--port", "a", "--timeout", "0"], ["above 0"]),
        (["--port", "a", "--timeout", "soon"], ["not a number of seconds"]),
        (["--nvm", "b", "--png", "g.png"], ["--png OUT.png goes with --game SEQ"]),
        (["--nvm", "b", "--game", "3"], ["--game SEQ goes with --png OUT.png"]),
        (["--nvm", "b", "--format", "bgstats", "--game", "3"], ["--game SEQ goes with --png"]),
        (["--nvm", "b", "--png", "g.png", "--game", "three"], ["--game SEQ is a game's number"]),
        # the name of the free-score games has its own flag: --game is only ever a number
        (["--nvm", "b", "--format", "bgstats", "--game", "Cascadia"], ["--free-name NAME"]),
        (["--nvm", "b", "--free-name", "Cascadia"], ["--free-name is for BG Stats plays"]),
        (["--nvm", "b", "--csv", "h.csv", "--location", "Home"], ["--location is for BG Stats"]),
        (["--nvm", "b", "--format", "xml"], ["invalid choice"]),
        (["--nvm", "b", "--format", "csv", "--out", "d"], ["--out DIR is for BG Stats"]),
        (["--nvm", "b", "--format", "bgstats", "--free-name", "\ud800"], ["--free-name: not a"]),
        (["--nvm", "b", "--format", "bgstats", "--location", "x" * 101], ["--location"]),
        (["--nvm", "b", "--json", "b"], ["is the input b: it is never written over"]),
        (["--nvm", "b", "--png", "./b", "--game", "1"], ["never written over"]),
        (["--nvm", "b", "--csv", "x", "--json", "x"], ["two outputs name the same file"]),
        (["--nvm", "b", "--xml", "x"], ["unrecognized arguments: --xml"]),
        (["--nvm"], ["expected one argument"]),
    ],
)
def test_bad_arguments(run, argv, words):
    status, out, err = run(*argv)
    assert_refused(status, out, err, "export: ", "(usage: python -m host_tools export --help)")
    for word in words:
        assert word in err[0]


def test_help(run):
    status, out, err = run("--help")
    assert status == 0 and err == []
    for word in ("--port", "--nvm", "--csv", "--json", "--png", "--game", "--free-name",
                 "--timeout", "default 10"):  # fmt: skip
        assert word in out


def cli(*args):
    env = dict(os.environ, PYTHONPATH="", LC_ALL="C")
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "export", *map(str, args)],
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


@pytest.mark.skipif(
    not (ROOT / "host_tools" / "__main__.py").exists(), reason="no host_tools dispatcher"
)
def test_through_the_dispatcher(tmp_path):
    good = write_image(tmp_path, image(HISTORY))
    result = cli("--nvm", good)
    assert (result.returncode, result.stderr) == (0, b"")
    assert json.loads(result.stdout) == EXPECTED_JSON
    bad = write_image(tmp_path, bytes(range(256)) * 16, "bad.bin")
    result = cli("--nvm", bad)
    assert result.returncode == 2 and result.stdout == b""
    assert result.stderr.count(b"\n") == 1 and b"Traceback" not in result.stderr


# --- BG Stats ------------------------------------------------------------------------------
# The documented fields of a createPlay link's JSON, the only ones the export may send: BG Stats,
# "Push plays to BG Stats from other apps or websites",
# https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
# (its example play; docs/export.md). A player's colour is not among them.
DOCUMENTED = {
    "": {"sourceName", "sourcePlayId", "playDate", "durationMin", "location", "comments",
         "board", "game", "players"},
    "game": {"name", "bggId", "highestWins", "noPoints", "sourceGameId"},
    "players": {"name", "score", "winner", "startPlayer", "rank", "role", "sourcePlayerId"},
}  # fmt: skip
PLAY_FIELDS, GAME_FIELDS, PLAYER_FIELDS = DOCUMENTED[""], DOCUMENTED["game"], DOCUMENTED["players"]
DATA = ROOT / "tests" / "data"


def undocumented(value, where=""):
    """Every field of a play (at any depth) that DOCUMENTED does not list, as "game.x"."""
    found = []
    if isinstance(value, list):
        for item in value:
            found += undocumented(item, where)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in DOCUMENTED.get(where, set()):
                found.append((where + "." if where else "") + key)
            elif isinstance(item, dict | list):
                found += undocumented(item, key)
    return found


def check_play_fields(play):
    """Only documented fields, each of its documented type."""
    assert undocumented(play) == []
    assert {"sourceName", "sourcePlayId", "game", "players"} <= set(play)
    assert isinstance(play["game"]["name"], str)
    if "playDate" in play:
        datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S")
    if "durationMin" in play:
        assert isinstance(play["durationMin"], int) and play["durationMin"] >= 0
    for player in play["players"]:
        assert set(player) <= PLAYER_FIELDS
        assert isinstance(player["name"], str) and player["name"]
        assert isinstance(player["score"], int) and isinstance(player["winner"], bool)
        assert isinstance(player["startPlayer"], bool)
        assert isinstance(player["rank"], int) and 1 <= player["rank"] <= len(play["players"])
    assert sum(p["startPlayer"] for p in play["players"]) <= 1


def sim(script, nvm):
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "sim", "--headless", "--script", script,
         "--nvm", nvm],
        capture_output=True, cwd=ROOT, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


@pytest.fixture(scope="module")
def game_night(tmp_path_factory):
    """A game night on the simulated board: two games, a power cut during the second, the
    device off and on again, a third game, then the export on the USB serial console."""
    nvm = tmp_path_factory.mktemp("night") / "nvm.bin"
    sim(DATA / "bgstats-night-1.txt", nvm)
    console = sim(DATA / "bgstats-night-2.txt", nvm)
    lines = [line + b"\n" for line in console.splitlines() if b"*" in line]
    return nvm, lines


# what the scripts play: totals, winners and the start player of each game, and the places
NIGHT = [
    ([0, 3, 1, 0], [1], 1, [3, 1, 2, 3]),
    ([3, 0, 0, 0], [0], 0, [1, 2, 2, 2]),
    ([-1, 0, 0, 0], [1, 2, 3], 0, [4, 1, 1, 1]),
]


def check_night(plays):
    assert len(plays) == 3  # one play per finished game
    for play, (totals, winners, first, places) in zip(plays, NIGHT, strict=True):
        check_play_fields(play)
        assert play["sourceName"] == "Potager"
        assert play["game"]["name"] == "Free score (Potager)"
        assert [p["name"] for p in play["players"]] == ["P1", "P2", "P3", "P4"]
        assert [p["rank"] for p in play["players"]] == places
        assert [p["score"] for p in play["players"]] == totals
        assert [p["winner"] for p in play["players"]] == [p in winners for p in range(4)]
        assert [p["startPlayer"] for p in play["players"]] == [p == first for p in range(4)]
    # game 1: 2 minutes of waits; game 2 counts the time the device was on up to its last
    # save before the cut, then after; game 3: 45 s
    assert [p["durationMin"] for p in plays] == [2, 1, 1]
    assert len({p["sourcePlayId"] for p in plays}) == 3


def test_bgstats_from_a_simulator_image(game_night, tmp_path, run):
    nvm, _ = game_night
    image_copy = tmp_path / "nvm.bin"
    image_copy.write_bytes(nvm.read_bytes())
    os.utime(image_copy, (T0.timestamp(), T0.timestamp()))
    status, out, err = run("--nvm", image_copy, "--format", "bgstats")
    assert (status, err) == (0, [EARLIER_SESSIONS, "note: game 3: date estimated (from the date "
                                 "of the saved image)"])  # fmt: skip
    plays = [json.loads(line) for line in out.splitlines()]
    check_night(plays)
    # an image has no clock: every date is an estimate, and the play's note says so, shortly
    assert [p["comments"] for p in plays] == [
        "Potager game 1 · Date estimated",
        "Potager game 2 · Date estimated",
        "Potager game 3 · Date estimated · Tie: a shared win",
    ]
    # the last game's session is the image's: dated back from the file's date
    status, out, _ = run("--nvm", image_copy)
    games = json.loads(out)
    assert [g["date_is"] for g in games] == ["estimate"] * 3
    # whole seconds counted while the device is up: its start-up after the cut and the keys'
    # 20 ms scan move a second's boundary by one
    durations = [g["duration_s"] for g in games]
    assert all(abs(d - want) <= 1 for d, want in zip(durations, [121, 33, 45], strict=True))
    assert games[0]["date"] < games[1]["date"] < games[2]["date"]
    # importing the same export twice: the same sourcePlayIds
    status, again, _ = run("--nvm", image_copy, "--format", "bgstats")
    assert [json.loads(line)["sourcePlayId"] for line in again.splitlines()] == [
        p["sourcePlayId"] for p in plays
    ]


EARLIER_SESSIONS = (
    "note: games 1, 2: dates estimated (played before the device was last switched on, for how "
    "long it was off is unknown: the latest it can have been)"
)


def test_bgstats_from_the_serial_export(game_night, tmp_path, run, fake_port):
    nvm, lines = game_night
    assert lines[0].startswith(b"POTAGER 2 3 3 ")  # format 2, 3 games, power session 3
    fake_port(lines)
    status, out, err = run("--port", "/dev/ttyACM0", "--format", "bgstats")
    assert (status, err) == (0, [WAITING, EARLIER_SESSIONS])
    plays = [json.loads(line) for line in out.splitlines()]
    check_night(plays)
    # game 3 was played in the session of the export: dated exactly from the uptime
    header = lines[0].split(b"*")[0].split()
    up_now = int(header[4])
    game3 = lines[3].split(b"*")[0].split()
    ended = T0 - timedelta(seconds=up_now - int(game3[9]))
    started = ended - timedelta(seconds=int(game3[7]))
    assert plays[2]["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")
    assert plays[2]["comments"] == "Potager game 3 · Tie: a shared win"  # exact: not a word
    # games 1 and 2 were played before the device was switched on again: estimates
    assert [p["comments"] for p in plays[:2]] == [
        "Potager game 1 · Date estimated",
        "Potager game 2 · Date estimated",
    ]
    assert plays[0]["playDate"] < plays[1]["playDate"] < plays[2]["playDate"]
    # the image of the same device gives the same plays the same ids: no duplicate import
    status, out, _ = run("--nvm", nvm, "--format", "bgstats")
    assert [json.loads(line)["sourcePlayId"] for line in out.splitlines()] == [
        p["sourcePlayId"] for p in plays
    ]


# what the person exporting HISTORY from an image is told of its dates (its plays just say
# "Date estimated")
IMAGE_NOTES = [
    "note: game 1: date estimated (played before the device was last switched on, for how long "
    "it was off is unknown: the latest it can have been)",
    "note: games 2, 3: dates estimated (from the date of the saved image)",
]


def test_bgstats_links_and_files(tmp_path, run):
    path = write_image(tmp_path, image(HISTORY))
    status, out, err = run("--nvm", path, "--format", "bgstats", "--free-name", "Cascadia")
    assert (status, err) == (0, IMAGE_NOTES)
    plays = [json.loads(line) for line in out.splitlines()]
    assert [p["game"]["name"] for p in plays] == ["HORTIS", "Cascadia", "Arboretum"]
    assert plays[2]["game"]["bggId"] == 140934  # the only id checked: the others left out
    assert "bggId" not in plays[0]["game"] and "bggId" not in plays[1]["game"]
    assert [pl["name"] for pl in plays[1]["players"]] == ["Zoé", "P2"]
    assert plays[1]["players"][0]["sourcePlayerId"] == "name:Zoé"
    assert [p["durationMin"] for p in plays] == [10, 20, 30]
    assert [p["playDate"] for p in plays] == DATES
    for play in plays:
        check_play_fields(play)
    status, out, err = run("--nvm", path, "--format", "bgstats-links", "--free-name", "Cascadia")
    links = out.splitlines()
    assert len(links) == 3
    for link, play in zip(links, plays, strict=True):
        prefix = "bgstats://app.bgstatsapp.com/createPlay.html?data="
        assert link.startswith(prefix)
        assert json.loads(urllib.parse.unquote(link[len(prefix) :])) == play
    out_dir = tmp_path / "plays"
    status, out, err = run("--nvm", path, "--out", out_dir, "--location", "Home")
    assert (status, out, err) == (0, "", IMAGE_NOTES)
    files = sorted(out_dir.glob("potager-*.json"))
    assert len(files) == 3
    written = [json.loads(f.read_text("utf-8")) for f in files]
    assert {p["sourcePlayId"] for p in written} == {p["sourcePlayId"] for p in plays}
    assert all(p["location"] == "Home" for p in written)
    page = (out_dir / "links.html").read_text("utf-8")
    assert page.count("bgstats://app.bgstatsapp.com/createPlay.html?data=") == 3
    check_links_page(page, written)


class Page(HTMLParser):
    """What a phone gets of links.html: its meta tags, and per play (li) its links and the
    SVG elements of its QR code as written."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.text = text
        self.meta: list[dict] = []
        self.items: list[dict] = []
        self.svg_start = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "meta":
            self.meta.append(found)
        elif tag == "li":
            self.items.append({"links": [], "svgs": []})
        elif tag == "a" and self.items:
            self.items[-1]["links"].append(found["href"])
        elif tag == "svg":
            self.svg_start = self.getpos()

    def handle_endtag(self, tag):
        if tag == "svg" and self.svg_start is not None:
            lines = self.text.splitlines(keepends=True)

            def offset(pos):
                return sum(len(line) for line in lines[: pos[0] - 1]) + pos[1]

            start, end = offset(self.svg_start), offset(self.getpos())
            self.items[-1]["svgs"].append(self.text[start : end + len("</svg>")])
            self.svg_start = None


def check_links_page(page, plays):
    """links.html: readable on a phone (its viewport), a play per item in the order given, its
    bgstats:// link to tap, and one QR code made from its web link (segno again gives the same
    SVG, and the code's matrix is that of the link and of no other play's)."""
    bgstats = pytest.importorskip("host_tools.bgstats")
    segno = pytest.importorskip("segno")
    parsed = Page(page)
    viewports = [m for m in parsed.meta if m.get("name") == "viewport"]
    assert [m["content"] for m in viewports] == ["width=device-width, initial-scale=1"]
    assert len(parsed.items) == len(plays)
    matrices = set()
    for item, play in zip(parsed.items, plays, strict=True):
        web = bgstats.link(play, web=True)
        assert item["links"][0] == bgstats.link(play)
        assert web in item["links"]
        assert len(item["svgs"]) == 1  # one QR code per play
        assert item["svgs"][0] == bgstats.qr_svg(web, "BG Stats: " + bgstats._label(play))
        code = segno.make_qr(web, error="l")
        again = segno.make_qr(web, error="l")
        assert code.matrix == again.matrix and code.version <= 40
        matrices.add(bytes(b for row in code.matrix for b in row))
    assert len(matrices) == len(plays)  # each play's code is its own


def test_bgstats_play_ids_are_stable_and_distinct():
    game = export.game_from_record(HISTORY[1])
    bgstats = pytest.importorskip("host_tools.bgstats")
    same = export.game_from_record(list(HISTORY[1]))
    assert bgstats.play_id(game, DEVICE) == bgstats.play_id(same, DEVICE)
    dated = export.date_games([game], export.Moment(2, 4000, T0, True))[0]
    assert bgstats.play_id(dated, DEVICE) == bgstats.play_id(game, DEVICE)  # not the date
    other = export.game_from_record([2, "free", [3, 2], [-5, 1], [1], [], 1, 1200, 2, 1500])
    assert bgstats.play_id(other, DEVICE) != bgstats.play_id(game, DEVICE)
    assert bgstats.play_id(game, "aa") != bgstats.play_id(game, DEVICE)


def test_format_1_lines_and_records_are_still_read(tmp_path, run, fake_port):
    old = [[1, "free", [0, 1], [4, 2], [0]], [2, "horticolor", [2, 3], [9, 9], [1]]]
    lines = [
        checked("POTAGER 1 2"),
        checked("GAME 1 free 0,1 4,2 0"),
        checked("GAME 2 horticolor 2,3 9,9 1"),
        checked("END 2"),
    ]
    rx, messages, _ = receive(lines)
    assert messages == [] and rx.complete
    assert records(rx.sorted_games()) == old
    path = write_image(tmp_path, image(old))
    status, out, err = run("--nvm", path, "--format", "bgstats")
    plays = [json.loads(line) for line in out.splitlines()]
    undated = "note: games 1, 2: undated (recorded before export format 2): BG Stats dates them at"
    assert (status, err, len(plays)) == (0, [undated + " the import"], 2)
    assert all("playDate" not in p and "durationMin" not in p for p in plays)
    assert [p["comments"] for p in plays] == [
        "Potager game 1 · Date unknown",
        "Potager game 2 · Date unknown · Tie: fewer cards won",  # Horticolor's tie-break
    ]
    assert not any(pl["startPlayer"] for p in plays for pl in p["players"])


def test_names_survive_the_serial_line():
    names = ["Zoé", "", "Ana María", "李", "a,b %20"]
    h: list = []
    history.add(h, "free", [0, 1, 2, 3, 4], [1, 2, 3, 4, 5], [4], names, [3, 61, 7, 99])
    lines = [(line + "\n").encode() for line in history_lines.export_lines(h, [DEVICE, 7, 100])]
    assert all(line.isascii() for line in lines)
    rx, messages, _ = receive(lines)
    assert messages == []
    assert records(rx.sorted_games()) == h
    game = rx.sorted_games()[0]
    assert [game.name(p) for p in range(5)] == ["Zoé", "P2", "Ana María", "李", "a,b %20"]
    h2: list = []
    history.add(h2, "free", [0], [1], [0], ["", ""])
    assert h2[0][5] == []  # default names cost nothing


# --- hostile input -------------------------------------------------------------------------
def nvm_with(tmp_path, hist, name="nvm.bin"):
    payload = bytes(persist.encode_payload(dict(META, hist=hist), []))
    return write_image(tmp_path, raw_save(payload), name)


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ([9, "free", [0, 1], [1, 2], [1], ["\ud800", ""], 0, 5, 1, 9], "name of P1"),
        ([9, "fr\udc80ee", [0], [1], [0]], "mode is not a name"),
        ([9, "free", [0], [10**20], [0]], "a total is beyond"),
        ([9, "free", [0], [float("nan")], [0]], "totals is not a list"),
        ([9, "free", [0], [float("inf")], [0]], "totals is not a list"),
        ([9, "free", [0] * 300, [1] * 300, [0]], "300 players"),
        ([9, "free", [0], [1], [0], [], 0, 10**40, 1, 9], "the duration"),
        ([9, "free", [0], [1], [0], [], 3, 5, 1, 9], "the start player"),
        ([9, "free", [0], [1], [0], ["x" * 65], 0, 5, 1, 9], "name of P1"),
        ([9, "free", [0], [1], [0], ["a\nb"], 0, 5, 1, 9], "name of P1"),
    ],
)
def test_hostile_nvm_records_are_skipped_in_one_line(tmp_path, run, record, words):
    path = nvm_with(tmp_path, [*HISTORY, record])
    status, out, err = run("--nvm", path, "--csv", tmp_path / "h.csv", "--format", "bgstats")
    err = [line for line in err if not line.startswith("note: ")]  # how the dates were made
    assert status == 1
    assert len(err) == 1 and "history record 4" in err[0] and words in err[0], err
    assert len(out.splitlines()) == 3  # the good games all came through
    assert (tmp_path / "h.csv").read_text("utf-8").count("\n") == 10


def test_a_number_of_1500_digits_in_a_save(tmp_path, run):
    """(4300 digits, Python's limit, would not fit in a slot; the JSON decoder refuses them.)"""
    path = nvm_with(tmp_path, [*HISTORY, [4, "free", [0], [10**1500], [0]]])
    status, out, err = run("--nvm", path)
    assert status == 1 and len(err) == 1 and "a total is beyond" in err[0]
    assert len(json.loads(out)) == 3


def test_a_name_that_is_not_utf8_on_the_line():
    surrogate = "GAME 4 free 0,1 1,2 1 0 5 2 3000 %ED%A0%80,Bo"  # UTF-8 of U+D800
    rx, messages, _ = receive([LINES[0], checked(surrogate), *LINES[1:]])
    assert messages == ["line 2: malformed GAME line (a name is not UTF-8), skipped"]
    assert records(rx.sorted_games()) == HISTORY


def test_numbers_too_long_on_the_line():
    rx, messages, _ = receive(
        [
            LINES[0],
            checked("GAME 4 free 0 " + "9" * 2000 + " 0"),
            checked("GAME 5 free 0 1 0 0 " + "1" * 11 + " 2 3000 -"),
            *LINES[1:],
        ]
    )
    assert [m.split("(")[0] for m in messages] == [
        "line 2: malformed GAME line ",
        "line 3: malformed GAME line ",
    ]
    assert records(rx.sorted_games()) == HISTORY


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_special_files_are_refused_at_once(tmp_path, run):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_refused(*run("--nvm", fifo), "not a regular file")  # no writer: a read would hang
    if Path("/dev/zero").exists():
        assert_refused(*run("--nvm", "/dev/zero"), "not a regular file")


def test_never_written_over_its_own_input(tmp_path, run):
    path = write_image(tmp_path, image(HISTORY))
    before = path.read_bytes()
    for option in ("--json", "--csv"):
        assert_refused(*run("--nvm", path, option, path), "never written over")
    link = tmp_path / "link.bin"
    os.link(path, link)  # the same file under another name
    assert_refused(*run("--nvm", path, "--json", link), "never written over")
    os.symlink(path, tmp_path / "sym.bin")
    assert_refused(*run("--nvm", path, "--png", tmp_path / "sym.bin", "--game", 1), "never")
    assert path.read_bytes() == before


def test_png_of_many_seats_or_huge_totals(tmp_path, run):
    many = [4, "free", [1] * 40, list(range(40)), [39], [], 0, 5, 2, 3500]
    huge = [5, "free", [0, 1], [10**9, -(10**9)], [0], [], 0, 5, 2, 3600]
    path = nvm_with(tmp_path, [*HISTORY, many, huge])
    status, out, err = run("--nvm", path, "--png", tmp_path / "g.png", "--game", 4)
    assert_refused(status, out, err, "40 players, a chart shows at most 16")
    status, out, err = run("--nvm", path, "--png", tmp_path / "g.png", "--game", 5)
    assert (status, err) == (0, [])
    assert Image.open(tmp_path / "g.png").size == export.PNG_SIZE


hostile_value = st.one_of(
    st.integers(-(10**12), 10**12),
    st.sampled_from([10**400, -(10**400), float("nan"), float("inf"), 2.5, True, None]),
    st.text(max_size=6),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "free", "hortis-automne", ""]),
    st.lists(st.integers(-3, 70), max_size=4),
    st.lists(st.sampled_from(["", "Zoé", "\ud800", "x" * 70]), max_size=4),
)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(st.data())
def test_hostile_records_fuzz(tmp_path, data):
    """A fixed-seed fuzz: records with hostile fields in a valid save; every output either
    holds the game or says in one line why it was skipped, never a traceback."""
    record = list(data.draw(st.sampled_from(HISTORY)))
    for _ in range(data.draw(st.integers(1, 3))):
        record[data.draw(st.integers(0, len(record) - 1))] = data.draw(hostile_value)
    tmp_path = Path(tempfile.mkdtemp(dir=tmp_path))  # one folder per example
    path = nvm_with(tmp_path, [HISTORY[0], record])
    out_dir = tmp_path / "plays"
    argv = ["--nvm", path, "--csv", tmp_path / "h.csv", "--json", tmp_path / "h.json",
            "--out", out_dir]  # fmt: skip
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = export.main([str(a) for a in argv])
    lines = err.getvalue().splitlines()
    assert status in (0, 1), lines
    assert all("Traceback" not in line for line in lines)
    games = json.loads((tmp_path / "h.json").read_text("utf-8"))
    assert len(games) == (2 if status == 0 else 1) or games[-1]["seq"] == 1
    assert len(list(out_dir.glob("potager-*.json"))) == len(games)
