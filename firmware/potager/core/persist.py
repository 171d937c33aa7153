"""Saves in NVM: two slots written alternately, each versioned and CRC-checked.

Slot layout (little-endian): b"PG", format version (u8), reserved (u8), sequence (u32),
payload length (u16), CRC-16 of the header's first 10 bytes and the payload (u16), payload.
The payload is a u16 length, compact JSON (settings, mode, base snapshot) and the action log,
5 bytes an action. A save is one slice assignment into the slot that does not hold the newest
record, so a write torn at any byte leaves the other slot, and the game before it, intact.
"""

import json
import struct

from potager.core.compat import const
from potager.core.crc import crc16

MAGIC = b"PG"
FORMAT = 1
_HEADER = "<2sBxIHH"
HEADER_SIZE = 12
_ACTION = "<Bhh"
ACTION_SIZE = 5

# load() status
OK = const(0)
BLANK = const(1)  # never written: first boot
CORRUPT = const(2)  # written by something else, or damaged
OLD_FORMAT = const(3)  # a format this firmware cannot read


def encode_payload(meta, log):
    text = json.dumps(meta, separators=(",", ":")).encode()
    out = bytearray(2 + len(text) + ACTION_SIZE * len(log))
    struct.pack_into("<H", out, 0, len(text))
    out[2 : 2 + len(text)] = text
    pos = 2 + len(text)
    for op, a, b in log:
        struct.pack_into(_ACTION, out, pos, op, a, b)
        pos += ACTION_SIZE
    return out


def decode_payload(payload):
    (size,) = struct.unpack_from("<H", payload, 0)
    meta = json.loads(bytes(payload[2 : 2 + size]).decode())
    log = []
    pos = 2 + size
    while pos + ACTION_SIZE <= len(payload):
        log.append(struct.unpack_from(_ACTION, payload, pos))
        pos += ACTION_SIZE
    return meta, log


def _record(seq, payload):
    header = bytearray(HEADER_SIZE)
    struct.pack_into(_HEADER, header, 0, MAGIC, FORMAT, seq, len(payload), 0)
    crc = crc16(payload, crc16(memoryview(header)[:10]))
    struct.pack_into("<H", header, 10, crc)
    return bytes(header) + bytes(payload)


def _read_slot(nvm, start, size):
    """(seq, payload) of a valid slot, (None, None) for another format, or None."""
    header = bytes(nvm[start : start + HEADER_SIZE])
    if header[:2] != MAGIC:
        return None
    _, version, seq, length, crc = struct.unpack(_HEADER, header)
    if length > size - HEADER_SIZE:
        return None
    payload = bytes(nvm[start + HEADER_SIZE : start + HEADER_SIZE + length])
    if crc16(payload, crc16(header[:10])) != crc:
        return None
    if version != FORMAT:
        return (None, None)
    return (seq, payload)


class Store:
    """Two-slot save store over any bytearray-like NVM (``microcontroller.nvm`` on a board)."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.slot_size = len(nvm) // 2 if nvm is not None else 0
        self.seq = 0
        self.next_slot = 0
        self.writes = 0

    @property
    def capacity(self):
        return self.slot_size - HEADER_SIZE

    def load(self):
        """Return (status, meta, log); meta and log are None unless status is OK."""
        if self.nvm is None:
            return BLANK, None, None
        best = None
        old = False
        for slot in (0, 1):
            found = _read_slot(self.nvm, slot * self.slot_size, self.slot_size)
            if found is None:
                continue
            if found[0] is None:
                old = True
            elif best is None or found[0] > best[0]:
                best = (found[0], found[1], slot)
        if best is None:
            if old:
                return OLD_FORMAT, None, None
            return (BLANK if self._blank() else CORRUPT), None, None
        self.seq = best[0]
        self.next_slot = 1 - best[2]
        try:
            meta, log = decode_payload(best[1])
        except (ValueError, KeyError, IndexError):  # a valid CRC over a payload we never wrote
            return CORRUPT, None, None
        return OK, meta, log

    def _blank(self):
        for slot in (0, 1):
            start = slot * self.slot_size
            for byte in self.nvm[start : start + HEADER_SIZE]:
                if byte not in (0x00, 0xFF):
                    return False
        return True

    def fits(self, payload):
        return len(payload) <= self.capacity

    def save(self, payload):
        """Write one record (one flash write); False if there is no NVM or it is too big."""
        if self.nvm is None or not self.fits(payload):
            return False
        record = _record(self.seq + 1, payload)
        start = self.next_slot * self.slot_size
        self.nvm[start : start + len(record)] = record
        self.seq += 1
        self.next_slot = 1 - self.next_slot
        self.writes += 1
        return True

    def wipe(self):
        blank = b"\xff" * HEADER_SIZE
        for slot in (0, 1):
            start = slot * self.slot_size
            self.nvm[start : start + HEADER_SIZE] = blank
        self.seq = 0
        self.next_slot = 0
