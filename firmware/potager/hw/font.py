"""The firmware's font: every glyph a cell of one bitmap strip (``host_tools/make_font.py``).

The strip is the tile bitmap of the OLED's tile grids (``potager.hw.oled``): a character on
the screen is one tile index, set in C. ``load_strip`` reads the strip with one
``bitmaptools.readinto`` call, in C, at boot; the OLED finds a glyph's tile in a dict.
(``adafruit_display_text`` labels rebuilt a bitmap in Python for every changed text: 100-180
ms a screen change on the board.) ``FontFile`` is the pure part, for any Python: the header,
the index and a glyph's rows, which the host's screen reader and the tests use.
"""

MAGIC = b"PF2"
HEAD = 10  # magic, width, height, ascent, count (2 bytes, LE), chars' length (2 bytes, LE)


def header(head):
    """(width, height, ascent, count, length of the characters) of a strip font's header."""
    if len(head) < HEAD or head[:3] != MAGIC:
        raise ValueError("not a strip font")
    return head[3], head[4], head[5], head[6] | head[7] << 8, head[8] | head[9] << 8


def strip_size(width, height, count):
    """Bytes of the strip: height rows of count * width pixels, each padded to whole bytes."""
    return height * ((count * width + 7) // 8)


class FontFile:
    """The strip font's index and glyph rows (pure)."""

    def __init__(self, data):
        self.width, self.height, self.ascent, self.count, length = header(data)
        end = HEAD + length
        self.chars = str(data[HEAD:end], "utf-8")
        self.data = data
        self.start = end
        self.stride = (self.count * self.width + 7) // 8
        if len(self.chars) != self.count or len(data) != end + strip_size(
            self.width, self.height, self.count
        ):
            raise ValueError("truncated strip font")

    def index(self, codepoint):
        """The glyph's cell in the strip, or -1 when the font lacks it."""
        return self.chars.find(chr(codepoint)) if 0 <= codepoint < 0x110000 else -1

    def row(self, index, y):
        """Row ``y`` of glyph ``index``: bit 7 is the leftmost pixel."""
        x = index * self.width
        at = self.start + y * self.stride + (x >> 3)
        pair = self.data[at] << 8
        if (x >> 3) + 1 < self.stride:
            pair |= self.data[at + 1]
        return (pair << (x & 7) >> 8) & (0xFF << (8 - self.width)) & 0xFF


def load_strip(path):
    """(the characters in strip order, the strip as a displayio.Bitmap) from a font file."""
    import os

    import bitmaptools
    import displayio

    with open(path, "rb") as file:
        width, height, _, count, length = header(file.read(HEAD))
        chars = str(file.read(length), "utf-8")
        if len(chars) != count or os.stat(path)[6] != HEAD + length + strip_size(
            width, height, count
        ):
            raise ValueError("truncated strip font")
        strip = displayio.Bitmap(count * width, height, 2)
        bitmaptools.readinto(strip, file, 1, 1, reverse_pixels_in_element=True)
    return chars, strip
