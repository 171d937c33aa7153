"""Reading the text rows back from the OLED's pixels, with the firmware's own font.

The screen is a grid of ``view.ROWS`` rows of ``view.COLS`` cells, ``CHAR_W`` x ``ROW_H``
pixels each (``potager/hw/oled.py``). Each cell is matched against every glyph of the font the
firmware loads, whatever its format (loaded with ``adafruit_bitmap_font``, as the firmware does);
a cell that matches no glyph reads ``?``. The firmware's strip font (``PF2``, from
``host_tools/make_font.py``) is read with the firmware's own reader, a BDF or PCF with
``adafruit_bitmap_font``. The vertical offset of glyphs in their cell is found
from the pixels (the one that matches most cells), so a change of the font's ascent follows.
"""

from pathlib import Path
from typing import Any, Optional

from host_tools.common import FIRMWARE, firmware

UNKNOWN = "?"


def font_file() -> Path:
    """The font the firmware draws with (the path potager.hw.oled loads, any extension)."""
    folder = FIRMWARE / "potager" / "fonts"
    oled_font = _oled_constant("FONT", "/fonts/terminus-12.bdf")
    wanted = folder / Path(oled_font).name
    if wanted.is_file():
        return wanted
    candidates = sorted(p for p in folder.iterdir() if p.suffix in (".bin", ".bdf", ".pcf"))
    if not candidates:
        raise FileNotFoundError(f"no font in {folder}")
    return candidates[0]


def _oled_constant(name: str, default: str) -> str:
    # potager.hw.oled imports displayio at the top; read the constant from its source instead
    source = (FIRMWARE / "potager" / "hw" / "oled.py").read_text(encoding="utf-8")
    for line in source.splitlines():
        if line.startswith(f"{name} = "):
            return line.split("=", 1)[1].strip().strip("\"'")
    return default


class ScreenReader:
    def __init__(self, font: Optional[Path] = None) -> None:
        view = firmware("potager.ui.view")
        self.rows_n, self.cols = int(view.ROWS), int(view.COLS)
        source = (FIRMWARE / "potager" / "hw" / "oled.py").read_text(encoding="utf-8")
        self.char_w = _int_constant(source, "CHAR_W", 6)
        self.row_h = _int_constant(source, "ROW_H", 12)
        self.glyphs = _glyph_cells(font or font_file(), self.char_w, self.row_h)
        self._offset: Optional[int] = None

    def rows(self, pixels: list[list[bool]]) -> list[str]:
        if self._offset is None:
            best = max(range(-3, 4), key=lambda off: self._score(pixels, off))
            if self._score(pixels, best) > self._score(pixels, 0):
                self._offset = best
            offset = best
        else:
            offset = self._offset
        return [self._row(pixels, r, offset) for r in range(self.rows_n)]

    def _score(self, pixels: list[list[bool]], offset: int) -> int:
        return sum(
            self._cell(pixels, r, c, offset) in self.by_cell
            for r in range(self.rows_n)
            for c in range(self.cols)
            if any(self._cell(pixels, r, c, offset))
        )

    @property
    def by_cell(self) -> dict[tuple[bool, ...], str]:
        return self.glyphs

    def _cell(self, pixels: list[list[bool]], row: int, col: int, offset: int) -> tuple[bool, ...]:
        top = row * self.row_h + offset
        x0 = col * self.char_w
        cells = []
        for y in range(top, top + self.row_h):
            line = pixels[y] if 0 <= y < len(pixels) else None
            for x in range(x0, x0 + self.char_w):
                cells.append(bool(line[x]) if line is not None and x < len(line) else False)
        return tuple(cells)

    def _row(self, pixels: list[list[bool]], row: int, offset: int) -> str:
        text = "".join(
            self.glyphs.get(self._cell(pixels, row, c, offset), UNKNOWN) for c in range(self.cols)
        )
        return text.rstrip()


def _int_constant(source: str, name: str, default: int) -> int:
    for line in source.splitlines():
        if line.startswith(f"{name} = "):
            try:
                return int(line.split("=", 1)[1].split("#")[0])
            except ValueError:
                return default
    return default


def _glyph_cells(path: Path, char_w: int, row_h: int) -> dict[tuple[bool, ...], str]:
    """Cell pixels -> character: the firmware's strip font fills each cell from the row's top
    (oled.py's tile grids); a BDF's glyphs sit on their baseline (the reader finds any other
    offset)."""
    data = path.read_bytes()
    strip = firmware("potager.hw.font") if data[:3] == b"PF2" else None
    if strip is not None:
        return _strip_cells(strip.FontFile(data), char_w, row_h)
    from adafruit_bitmap_font import bitmap_font

    font: Any = bitmap_font.load_font(str(path))
    font.load_glyphs(range(0x20, 0x3000))
    glyphs = getattr(font, "_glyphs", {})
    _, _, _, font_dy = font.get_bounding_box()
    baseline = row_h + int(font_dy)  # e.g. 12 - 2 = 10: rows below the baseline are descent
    out: dict[tuple[bool, ...], str] = {}
    for code in sorted(glyphs, key=lambda c: (c != 0x20, c)):
        glyph = glyphs[code]
        if glyph is None:
            continue
        cell = [False] * (char_w * row_h)
        top = baseline - glyph.height - glyph.dy
        for gy in range(glyph.height):
            for gx in range(glyph.width):
                x, y = glyph.dx + gx, top + gy
                if 0 <= x < char_w and 0 <= y < row_h and glyph.bitmap[gx, gy]:
                    cell[y * char_w + x] = True
        out.setdefault(tuple(cell), chr(code))
    return out


def _strip_cells(font: Any, char_w: int, row_h: int) -> dict[tuple[bool, ...], str]:
    """The firmware's own strip font (potager/hw/font.py): each glyph fills its cell."""
    out: dict[tuple[bool, ...], str] = {}
    order = sorted(range(font.count), key=lambda i: (font.chars[i] != " ", font.chars[i]))
    for index in order:
        cell = [False] * (char_w * row_h)
        for y in range(min(font.height, row_h)):
            bits = font.row(index, y)
            for x in range(min(font.width, char_w)):
                cell[y * char_w + x] = bool(bits & (0x80 >> x))
        out.setdefault(tuple(cell), font.chars[index])
    return out
