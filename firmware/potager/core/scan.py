"""Reading the journal at boot (potager.core.persist.Store.load), in a module of its own so
that its code leaves RAM once read."""

import struct

from potager.core import persist
from potager.core.crc import crc16


def load(self):
    """Find the valid records; the status says what the NVM holds."""
    self.records = []
    self.seq = self.end = 0
    if self.nvm is None:
        return persist.BLANK
    nvm, pos, size = self.nvm, 0, self.size
    status = None
    while pos + persist.HEADER_SIZE <= size and bytes(nvm[pos : pos + 2]) == persist.MAGIC:
        _, version, kind, seq, length, crc = struct.unpack(persist._HEADER, nvm[pos : pos + 12])
        if version != persist.FORMAT:
            status = persist.OLD_FORMAT if version < persist.FORMAT else persist.NEWER_FORMAT
            break
        start = pos + persist.HEADER_SIZE
        if length > size - start or kind > 1 or (self.records and seq != self.seq + 1):
            break
        if crc16(nvm[start : start + length], crc16(nvm[pos : pos + 10])) != crc:
            break
        if kind == 0 or self.records:  # a chain starts with a snapshot
            self.records.append((kind, start, length))
        self.seq = seq
        pos = start + length
    self.end = pos
    self.blank = True
    while pos < size and self.blank:
        self.blank = nvm[pos : pos + 256] == b"\xff" * len(nvm[pos : pos + 256])
        pos += 256
    pos = self.end
    if self.records:
        return persist.OK
    if status is not None and pos == 0:
        return status
    if self.blank and pos == 0:
        return persist.BLANK
    if pos == 0 and bytes(nvm[0:3]) == persist.MAGIC + bytes([persist.FORMAT]):
        return persist.TORN
    return persist.CORRUPT
