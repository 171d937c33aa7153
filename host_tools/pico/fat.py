"""A FAT12 image of a CIRCUITPY drive, as ``mformat -T 2048 -h 1 -s 32 -c 1 -v CIRCUITPY``
then ``mcopy -s`` would make it: 1 MiB, 512-byte sectors, one sector a cluster, two FATs,
512 root entries, long file names. Deterministic (fixed dates), so the same files give the
same image.
"""

import struct
from collections.abc import Mapping

SECTOR = 512
SECTORS = 2048
RESERVED = 1
FATS = 2
ROOT_ENTRIES = 512
ROOT_SECTORS = ROOT_ENTRIES * 32 // SECTOR
FAT_SECTORS = 6  # 2005 FAT12 entries (2003 clusters + 2 reserved) x 1.5 bytes
DATA_START = RESERVED + FATS * FAT_SECTORS + ROOT_SECTORS
CLUSTERS = SECTORS - DATA_START
LABEL = b"CIRCUITPY  "
# 2026-01-01 00:00:00 in FAT's packed date and time
_DATE = (2026 - 1980) << 9 | 1 << 5 | 1
_TIME = 0
_ATTR_DIR, _ATTR_ARCHIVE, _ATTR_LABEL, _ATTR_LFN = 0x10, 0x20, 0x08, 0x0F
_SHORT_CHARS = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$%'-_@~`!(){}^#&")


class DriveFull(ValueError):
    pass


def build_image(files: Mapping[str, bytes]) -> bytes:
    """files: drive path ("lib/neopixel.mpy") -> contents."""
    tree: dict = {}
    for path, data in sorted(files.items()):
        parts = path.strip("/").split("/")
        node = tree
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = data
    image = _Image()
    root = image.directory_entries(tree, cluster=0, parent=0)
    root_bytes = _volume_label() + root
    if len(root_bytes) > ROOT_SECTORS * SECTOR:
        raise DriveFull("too many entries in the root directory")
    image.put(RESERVED + FATS * FAT_SECTORS, root_bytes)
    image.put(0, _boot_sector())
    fat = image.fat_bytes()
    for copy in range(FATS):
        image.put(RESERVED + copy * FAT_SECTORS, fat)
    return bytes(image.data)


class _Image:
    def __init__(self) -> None:
        self.data = bytearray(SECTORS * SECTOR)
        self.fat = [0xFF8, 0xFFF] + [0] * CLUSTERS
        self.next_cluster = 2

    def put(self, sector: int, data: bytes) -> None:
        self.data[sector * SECTOR : sector * SECTOR + len(data)] = data

    def allocate(self, data: bytes) -> int:
        """Store data in a chain of fresh clusters; 0 for empty data."""
        count = -(-len(data) // SECTOR)
        if count == 0:
            return 0
        first = self.next_cluster
        if first + count > CLUSTERS + 2:
            raise DriveFull("the files do not fit in a 1 MiB CIRCUITPY drive")
        for i in range(count):
            cluster = first + i
            self.fat[cluster] = cluster + 1 if i < count - 1 else 0xFFF
            self.put(DATA_START + cluster - 2, data[i * SECTOR : (i + 1) * SECTOR])
        self.next_cluster += count
        return first

    def directory_entries(self, tree: dict, cluster: int, parent: int) -> bytes:
        entries = b""
        if cluster:  # a subdirectory starts with . and ..
            entries += _entry(b".          ", _ATTR_DIR, cluster, 0)
            entries += _entry(b"..         ", _ATTR_DIR, parent, 0)
        used: set[bytes] = set()
        for name, value in tree.items():
            short = _short_name(name, used)
            used.add(short)
            if isinstance(value, dict):
                # the directory's own cluster chain is laid out before its children's
                size = (len(value) + 2) * 32 * 4  # room for . .. and long names
                first = self.allocate(bytes(-(-size // SECTOR) * SECTOR))
                body = self.directory_entries(value, first, cluster)
                self._rewrite(first, body)
                entries += _long_entries(name, short) + _entry(short, _ATTR_DIR, first, 0)
            else:
                first = self.allocate(value)
                entries += _long_entries(name, short)
                entries += _entry(short, _ATTR_ARCHIVE, first, len(value))
        return entries

    def _rewrite(self, first: int, body: bytes) -> None:
        cluster, offset = first, 0
        while offset < len(body):
            if cluster >= 0xFF8:
                raise DriveFull("a directory outgrew its clusters")
            self.put(DATA_START + cluster - 2, body[offset : offset + SECTOR])
            offset += SECTOR
            cluster = self.fat[cluster]

    def fat_bytes(self) -> bytes:
        out = bytearray(FAT_SECTORS * SECTOR)
        for i in range(0, len(self.fat) - 1, 2):
            a, b = self.fat[i], self.fat[i + 1]
            out[i * 3 // 2 : i * 3 // 2 + 3] = bytes((a & 0xFF, (a >> 8) | (b & 0x0F) << 4, b >> 4))
        return bytes(out)


def _boot_sector() -> bytes:
    bpb = struct.pack(
        "<3s8sHBHBHHBHHHII",
        b"\xeb\x3c\x90",
        b"MTOO4043",
        SECTOR,
        1,  # sectors per cluster
        RESERVED,
        FATS,
        ROOT_ENTRIES,
        SECTORS,
        0xF8,
        FAT_SECTORS,
        32,  # sectors per track
        1,  # heads
        0,
        0,
    )
    ext = struct.pack("<BBBI11s8s", 0x80, 0, 0x29, 0x504F5441, LABEL, b"FAT12   ")
    sector = bytearray(SECTOR)
    sector[: len(bpb)] = bpb
    sector[len(bpb) : len(bpb) + len(ext)] = ext
    sector[510:512] = b"\x55\xaa"
    return bytes(sector)


def _volume_label() -> bytes:
    return _entry(LABEL, _ATTR_LABEL, 0, 0)


def _entry(short: bytes, attr: int, cluster: int, size: int) -> bytes:
    return struct.pack(
        "<11sBBBHHHHHHHI", short, attr, 0, 0, _TIME, _DATE, _DATE, 0, _TIME, _DATE, cluster, size
    )


def _short_name(name: str, used: set[bytes]) -> bytes:
    stem, dot, ext = name.rpartition(".")
    if not dot:
        stem, ext = name, ""
    clean = bytes(c for c in stem.upper().encode("ascii", "replace") if c in _SHORT_CHARS)
    cext = bytes(c for c in ext.upper().encode("ascii", "replace") if c in _SHORT_CHARS)[:3]
    exact = name.upper() == name and clean.decode() == stem and len(clean) <= 8
    if exact and cext.decode() == ext:
        short = clean.ljust(8) + cext.ljust(3)
        if short not in used:
            return short
    for n in range(1, 1000):
        tail = b"~%d" % n
        short = (clean[: 8 - len(tail)] + tail).ljust(8) + cext.ljust(3)
        if short not in used:
            return short
    raise DriveFull(f"too many similar names as {name}")


def _needs_long(name: str, short: bytes) -> bool:
    stem, ext = short[:8].rstrip(), short[8:].rstrip()
    return name != (stem + (b"." + ext if ext else b"")).decode()


def _long_entries(name: str, short: bytes) -> bytes:
    if not _needs_long(name, short):
        return b""
    checksum = 0
    for c in short:
        checksum = ((checksum >> 1) | (checksum & 1) << 7) + c & 0xFF
    units = list(name.encode("utf-16-le"))
    chars = [units[i] | units[i + 1] << 8 for i in range(0, len(units), 2)]
    chars.append(0)
    while len(chars) % 13:
        chars.append(0xFFFF)
    pieces = [chars[i : i + 13] for i in range(0, len(chars), 13)]
    if len(pieces) > 1 and pieces[-1] == [0] + [0xFFFF] * 12 and len(name) % 13 == 0:
        pieces.pop()
    out = b""
    for index in range(len(pieces), 0, -1):
        part = pieces[index - 1]
        order = index | (0x40 if index == len(pieces) else 0)
        out += struct.pack(
            "<B10sBBB12sH4s",
            order,
            struct.pack("<5H", *part[:5]),
            _ATTR_LFN,
            0,
            checksum,
            struct.pack("<6H", *part[5:11]),
            0,
            struct.pack("<2H", *part[11:13]),
        )
    return out
