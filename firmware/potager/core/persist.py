"""Saves in NVM: a journal of CRC-checked records appended into the erased bytes of the sector.

On the RP2040 a write over erased bytes (all 0xFF) only programs pages; any other write erases
the whole 4 KiB sector first. So a save appends one record after the last; a power cut tears
only that record and the one before stands; the next record goes after the torn bytes (the
load steps over them). When the sector is full, and only then, one write erases it and puts the
game back as the first record (a snapshot): the one moment a cut loses the save.

Record (little-endian): b"PG", format (u8), kind (u8: 0 a snapshot, 1 a delta), sequence (u32),
payload length (u16), CRC-16 of the header's first 10 bytes and the payload (u16), payload.
Payload: first (u16), JSON length (u16), compact JSON, the actions (5 bytes each). A snapshot's
JSON is the whole meta (settings, mode, base, history, records) and its actions the undo log;
a delta's JSON holds only what changed (often nothing), and it cuts the log back to `first`
actions since the snapshot (undo) before appending its own. Sequence numbers follow on, so
the newest chain is the last snapshot and the deltas after it.
"""

import json
import struct

from potager.core.compat import const
from potager.core.crc import crc16

MAGIC = b"PG"
FORMAT = 2  # 1: two slots rewritten alternately
_HEADER = "<2sBBIHH"
HEADER_SIZE = 12
_ACTION = "<Bhh"
ACTION_SIZE = 5

# scan.load() status
# kinds of record: 0 a snapshot, 1 a delta (plain ints: each name costs RAM on the board)

OK = const(0)
BLANK = const(1)  # all erased: a new device, or a power cut inside an erase (cannot tell)
CORRUPT = const(2)  # written by something else, or damaged
OLD_FORMAT = const(3)  # written by an older firmware
NEWER_FORMAT = const(4)  # written by a newer firmware
TORN = const(5)  # our record, cut before it was complete, and nothing before it


def encode_payload(meta, log, first=0):
    text = json.dumps(meta, separators=(",", ":")).encode() if meta else b""
    out = bytearray(4 + len(text) + ACTION_SIZE * len(log))
    struct.pack_into("<H", out, 0, first)
    struct.pack_into("<H", out, 2, len(text))
    out[4 : 4 + len(text)] = text
    pos = 4 + len(text)
    for op, a, b in log:
        struct.pack_into(_ACTION, out, pos, op, a, b)
        pos += ACTION_SIZE
    return out


def decode_payload(payload):
    """(first, meta or None, actions). Anything may raise on a payload we never wrote (on the
    board struct raises RuntimeError): callers catch Exception."""
    first = struct.unpack_from("<H", payload, 0)[0]
    size = struct.unpack_from("<H", payload, 2)[0]
    if 4 + size > len(payload) or (len(payload) - 4 - size) % ACTION_SIZE:
        raise ValueError("length")
    meta = json.loads(bytes(payload[4 : 4 + size]).decode()) if size else None
    log = []
    for pos in range(4 + size, len(payload), ACTION_SIZE):
        log.append(struct.unpack_from(_ACTION, payload, pos))
    return first, meta, log


class Store:
    """The journal over any bytearray-like NVM (``microcontroller.nvm`` on a board). Writing
    only: reading it back is potager.core.scan's load(store), which only a boot runs (its code
    is then forgotten: RAM)."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.size = len(nvm) if nvm is not None else 0
        self.seq = 0
        self.end = 0  # where the next record goes
        self.blank = True  # every byte from `end` on is erased
        self.tail = 0  # bytes of a torn record the last load stepped over, after the newest
        self.records = []  # (kind, payload start, length) of the valid records, in order
        self.writes = 0

    def payload(self, i):
        _, start, length = self.records[i]
        return bytes(self.nvm[start : start + length])

    def fits(self, payload):
        """The record fits in the sector (after an erase if need be)."""
        return HEADER_SIZE + len(payload) <= self.size

    def room(self, payload):
        """The record can be appended without an erase."""
        return self.blank and self.end + HEADER_SIZE + len(payload) <= self.size

    def save(self, payload, kind=0):
        """Append one record, or erase the sector and write it first when there is no room
        (a delta then cannot stand alone: pass a snapshot). False if it cannot be written."""
        if self.nvm is None or not self.fits(payload):
            return False
        header = bytearray(HEADER_SIZE)
        struct.pack_into(_HEADER, header, 0, MAGIC, FORMAT, kind, self.seq + 1, len(payload), 0)
        struct.pack_into("<H", header, 10, crc16(payload, crc16(memoryview(header)[:10])))
        record = bytes(header) + bytes(payload)
        if self.room(payload):
            self.nvm[self.end : self.end + len(record)] = record
        else:  # one write: the sector is erased and programmed with this record alone
            self.end = 0
            self.nvm[0 : self.size] = record + b"\xff" * (self.size - len(record))
            self.blank = True
        self.end += len(record)
        self.seq += 1
        self.writes += 1
        return True

    def wipe(self):
        self.nvm[0 : self.size] = b"\xff" * self.size
        self.seq = self.end = 0
        self.blank = True
        self.records = []
