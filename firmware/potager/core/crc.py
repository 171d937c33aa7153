"""CRC-16/CCITT-FALSE in pure Python: some CircuitPython boards have no binascii.

A 16-entry nibble table is twice as fast as the bitwise loop for 32 bytes of RAM.
"""

_NIBBLE = (
    0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
    0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF,
)  # fmt: skip


def crc16(data, crc=0xFFFF):
    for byte in data:
        crc = ((crc << 4) & 0xFFFF) ^ _NIBBLE[(crc >> 12) ^ (byte >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ _NIBBLE[(crc >> 12) ^ (byte & 0x0F)]
    return crc
