"""The firmware's font: every glyph a cell of one bitmap strip (``host_tools/make_font.py``).

A BDF read by ``adafruit_bitmap_font`` is scanned line by line from the top for every label
with new characters (seconds per screen change on the board), and the library imports all its
parsers. Here the file (about 2 KB) is read once; a glyph is found with one ``str.find`` and
drawn into its cell of the strip the first time it is asked for. ``get_glyph`` and
``get_bounding_box`` are what ``adafruit_display_text`` needs. The file and index part is pure
(it runs on any Python); displayio and fontio are imported when the strip is first needed.
"""

MAGIC = b"PF1"


class FontFile:
    """The strip font's index and glyph rows (pure)."""

    def __init__(self, data):
        if data[:3] != MAGIC or len(data) < 10:
            raise ValueError("not a strip font")
        self.width, self.height, self.ascent = data[3], data[4], data[5]
        self.count = data[6] | data[7] << 8
        end = 10 + (data[8] | data[9] << 8)
        self.chars = str(data[10:end], "utf-8")
        self.data = data
        self.start = end
        if len(self.chars) != self.count or len(data) != end + self.count * self.height:
            raise ValueError("truncated strip font")

    def index(self, codepoint):
        """The glyph's cell in the strip, or -1 when the font lacks it."""
        return self.chars.find(chr(codepoint)) if 0 <= codepoint < 0x110000 else -1

    def row(self, index, y):
        """Row ``y`` of glyph ``index``: bit 7 is the leftmost pixel."""
        return self.data[self.start + index * self.height + y]


class Font(FontFile):
    def __init__(self, path):
        with open(path, "rb") as file:
            super().__init__(file.read())
        self.descent = self.height - self.ascent
        self.strip = None
        self.glyphs = {}

    def get_bounding_box(self):
        return self.width, self.height, 0, -self.descent

    def get_glyph(self, codepoint):
        glyph = self.glyphs.get(codepoint)
        if glyph is not None:
            return glyph
        index = self.index(codepoint)
        if index < 0:
            return None
        import displayio
        import fontio

        width = self.width
        if self.strip is None:
            self.strip = displayio.Bitmap(self.count * width, self.height, 2)
        strip = self.strip
        x0 = index * width
        for y in range(self.height):
            bits = self.row(index, y)
            for x in range(width):
                if bits & (0x80 >> x):
                    strip[x0 + x, y] = 1
        glyph = fontio.Glyph(strip, index, width, self.height, 0, -self.descent, width, 0)
        self.glyphs[codepoint] = glyph
        return glyph
