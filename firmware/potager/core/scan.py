"""Reading the journal of a potager.core.persist.Store: load(store). A boot imports this
module, reads, and forgets it (the App's boot), so that its code leaves RAM once read.

A record that does not check (torn by a power cut, or a self-test's pattern) is stepped over:
the next record was written after its last programmed byte, so the scan looks for the next
magic. The sector is then erased only when it is full, never because a save was torn."""

import struct

from potager.core import persist
from potager.core.crc import crc16


def load(self):
    """Find the valid records of the Store `self`; the status (persist.OK...) says what the
    NVM holds."""
    self.records = []
    self.seq = self.end = 0
    if self.nvm is None:
        return persist.BLANK
    nvm, pos, size = self.nvm, 0, self.size
    status = None
    skips = 32  # a torn record holds a stray magic or two; garbage full of them ends the scan
    while pos + persist.HEADER_SIZE <= size and skips:
        if bytes(nvm[pos : pos + 2]) == persist.MAGIC:
            _, version, kind, seq, length, crc = struct.unpack(persist._HEADER, nvm[pos : pos + 12])
            if pos == 0 and version != persist.FORMAT and version != 0xFF:  # 0xFF: torn there
                status = persist.OLD_FORMAT if version < persist.FORMAT else persist.NEWER_FORMAT
                break
            start = pos + persist.HEADER_SIZE
            if (
                version == persist.FORMAT
                and length <= size - start
                and kind <= 1
                and not (self.records and seq != self.seq + 1)
                and crc16(nvm[start : start + length], crc16(nvm[pos : pos + 10])) == crc
            ):
                if kind == 0 or self.records:  # a chain starts with a snapshot
                    self.records.append((kind, start, length))
                self.seq = seq
                pos = self.end = start + length
                continue
        next_at = bytes(nvm[pos + 1 : size]).find(persist.MAGIC)  # the next record, if any
        if next_at < 0:
            break
        pos += 1 + next_at
        skips -= 1
    if status is not None:
        self.blank = False  # another firmware's save: the next save starts the sector afresh
        return status
    # the next record goes after the last programmed byte: over erased bytes, no erase
    top = size
    while top > self.end:
        chunk = bytes(nvm[max(self.end, top - 256) : top])
        kept = len(chunk.rstrip(b"\xff"))
        top -= len(chunk) - kept
        if kept:
            break
    self.tail = top - self.end  # bytes stepped over after the newest record (a torn save)
    self.end = top
    self.blank = skips > 0  # else a record past the scan's reach: the next save starts afresh
    if self.records:
        return persist.OK
    if top == 0:
        return persist.BLANK
    head = bytes(nvm[0:3]).rstrip(b"\xff")
    if head and (persist.MAGIC + bytes([persist.FORMAT])).startswith(head):
        return persist.TORN  # our first record, cut before it was complete
    return persist.CORRUPT
