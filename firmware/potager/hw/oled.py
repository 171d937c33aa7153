"""The OLED through displayio: a grid of text cells, redrawn only where changed. The display
is the Pico's SSD1306 on I2C (made by board_io) or the MacroPad's SH1106 (board.DISPLAY).

Each text row is cut into the segments of ``potager.ui.view.SEGMENTS``, each a
``displayio.TileGrid`` whose tiles are the font strip's glyphs (``potager.hw.font``): a changed
character is one tile index set, in C, and displayio sends only the changed tiles of each
segment over I2C. Rows are 12 px high from y = 0, so each spans exactly two 8-pixel pages of
the controller.
"""

import displayio

from potager.hw.font import load_strip
from potager.ui.view import ROWS, SEGMENTS

WIDTH = 128
HEIGHT = 64
CHAR_W = 6
ROW_H = 12
FONT = "/fonts/terminus-12.bin"
AREA_BYTES = 13  # the addressing of each area sent: a changed character costs 12 + 13 bytes


def font_path():
    # the package folder, wherever it is mounted (/potager on the board)
    return __file__.rsplit("/", 2)[0] + FONT


class Oled:
    def __init__(self, display):
        """display: a displayio display of WIDTH x HEIGHT, auto_refresh off."""
        self.display = display
        self.chars, strip = load_strip(font_path())
        self.missing = self.chars.find("?")  # the tile of a character the font lacks
        # each glyph's tile once found: str.find costs the board ~100 us a glyph (it counts
        # characters from the start of the font's), a dict lookup 10 (at most 1.4 KB of RAM)
        self.tiles = {" ": 0}
        palette = displayio.Palette(2)
        palette[0] = 0
        palette[1] = 0xFFFFFF
        self.group = displayio.Group()
        self.grids = []
        self.drawn = []
        # each grid's tiles as set, read back for free: a TileGrid read costs the board a call
        self.cells = []
        if len(self.chars) > 256:
            raise ValueError("a tile index is kept in a byte: 256 glyphs at most")
        self.texts = [""] * ROWS  # each row's text as last drawn
        for row in range(ROWS):
            for seg in range(len(SEGMENTS) - 1):
                width = SEGMENTS[seg + 1] - SEGMENTS[seg]
                grid = displayio.TileGrid(
                    strip,
                    pixel_shader=palette,
                    width=width,
                    height=1,
                    tile_width=CHAR_W,
                    tile_height=ROW_H,
                    default_tile=0,  # the strip's first glyph is the space
                    x=SEGMENTS[seg] * CHAR_W,
                    y=row * ROW_H,
                )
                self.group.append(grid)
                self.grids.append(grid)
                self.drawn.append(" " * width)
                self.cells.append(bytearray(width))  # the strip's first glyph is the space
        self.display.root_group = self.group
        self.blank = displayio.Group()  # shown for no frame: see show()
        self.awake = True

    def show(self, rows):
        index = 0
        pixels = 0  # columns of the areas displayio will send: each segment's changed span
        areas = 0
        tiles = self.tiles
        missing = self.missing
        for row in range(ROWS):
            text = rows[row]
            if text == self.texts[row]:
                index += len(SEGMENTS) - 1  # most keys change a row or two: skip the others
                continue
            self.texts[row] = text
            for seg in range(len(SEGMENTS) - 1):
                old = self.drawn[index]
                part = text[SEGMENTS[seg] : SEGMENTS[seg + 1]]
                if len(part) < len(old):
                    part += " " * (len(old) - len(part))
                if part != old:
                    grid = self.grids[index]
                    cells = self.cells[index]
                    first = -1
                    i = 0
                    for char in part:  # (part[i] would count chars from 0; enumerate allocates)
                        cell = tiles.get(char)
                        if cell is None:
                            cell = self.chars.find(char)
                            tiles[char] = cell = cell if cell >= 0 else missing
                        if cells[i] != cell:
                            cells[i] = cell
                            grid[i] = cell
                            if first < 0:
                                first = i
                            last = i
                        i += 1  # noqa: SIM113 (enumerate makes a tuple per character)
                    if first >= 0:
                        pixels += (last - first + 1) * CHAR_W
                        areas += 1
                    self.drawn[index] = part
                index += 1
        if pixels * 2 + areas * AREA_BYTES > WIDTH * HEIGHT // 8 + AREA_BYTES:
            # displayio sends each dirty area on its own (two pages a row), with its address:
            # past a whole frame, one full refresh is less. A new root group makes it one.
            self.display.root_group = self.blank
            self.display.root_group = self.group
        self.display.refresh()

    # display off and on: the same command on the SSD1306 and the SH1106, sent as the SSD1306
    # driver's sleep() does (the MacroPad's BusDisplay has no sleep())
    def sleep(self):
        if self.awake:
            self.display.bus.send(0xAE, b"")
            self.awake = False

    def wake(self):
        if not self.awake:
            self.display.bus.send(0xAF, b"")
            self.awake = True
