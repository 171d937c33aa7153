"""Build the firmware's font: a subset of Terminus 12 px (SIL OFL 1.1) as shipped with Blinka.

Only the glyphs the screens use are kept (ASCII, the letters of French, the player symbols and
a few signs), written in the firmware's own strip format (``potager/hw/font.py`` reads it):

    b"PF2"  width height ascent  count(2, LE)  chars_len(2, LE)
    the characters, UTF-8, in strip order
    the strip: height rows of count * width pixels, top first, each row padded to whole
    bytes, bit 7 = leftmost pixel (glyph i is the cell at x = i * width)

Every glyph is one cell of the same size (Terminus is monospaced), so the strip is the tile
bitmap of the OLED's tile grids: the firmware loads it with one ``bitmaptools.readinto`` (in C)
and finds a glyph's tile with one ``str.find``: no file scan per label as a BDF needs, no
parser library in RAM. Run: .venv/bin/python -m host_tools.make_font (the result
is committed; tests check it is current).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "firmware" / "potager" / "fonts" / "terminus-12.bin"
MAGIC = b"PF2"

FRENCH = "àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ«»’“”"
SIGNS = "♥●♣▲◆■○♦▶◀►◄▼±≡…→←↑↓°×·—–€█▀▄"
CHARSET = "".join(chr(c) for c in range(0x20, 0x7F)) + FRENCH + SIGNS


def source_font():
    import displayio  # Blinka's displayio ships ter-u12n.bdf

    return Path(displayio.__file__).parent / "resources" / "ter-u12n.bdf"


def parse_bdf(text, keep):
    """(width, height, ascent, {codepoint: [row bits, top first]}) of the glyphs of `keep`
    (codepoints) in a BDF; each must fill the font's cell."""
    head, _, rest = text.partition("STARTCHAR")
    props = dict(line.split(None, 1) for line in head.splitlines() if " " in line)
    width, height, _, descent_y = (int(v) for v in props["FONTBOUNDINGBOX"].split())
    glyphs = {}
    for chunk in ("STARTCHAR" + rest).split("STARTCHAR")[1:]:
        code = int(chunk.split("ENCODING", 1)[1].split()[0])
        if code not in keep:
            continue
        bbx = [int(v) for v in chunk.split("BBX", 1)[1].split("\n", 1)[0].split()]
        if bbx != [width, height, 0, descent_y]:
            raise ValueError(f"glyph {code}: BBX {bbx} is not the font's cell")
        rows = chunk.split("BITMAP\n", 1)[1].split("ENDCHAR", 1)[0].split()
        glyphs[code] = [int(row, 16) for row in rows]
    return width, height, height + descent_y, glyphs


def build(chars=CHARSET):
    width, height, ascent, glyphs = parse_bdf(
        source_font().read_text(encoding="latin-1"), {ord(c) for c in chars}
    )
    if width > 8:
        raise ValueError("one byte a row: glyphs up to 8 px wide")
    kept = [c for c in chars if ord(c) in glyphs]
    text = "".join(kept).encode()
    out = bytearray(MAGIC)
    out += bytes([width, height, ascent, len(kept) & 255, len(kept) >> 8])
    out += bytes([len(text) & 255, len(text) >> 8]) + text
    stride = (len(kept) * width + 7) // 8
    for y in range(height):
        row = 0  # the strip's row y as one integer, leftmost pixel in the highest bit
        for char in kept:
            # BDF rows are padded to whole bytes, leftmost pixel in bit 7 already
            row = row << width | glyphs[ord(char)][y] >> (8 - width)
        out += (row << (stride * 8 - len(kept) * width)).to_bytes(stride, "big")
    return bytes(out), "".join(c for c in chars if ord(c) not in glyphs)


def main(argv=None):
    data, missing = build()
    OUT.write_bytes(data)
    print(f"wrote {OUT.relative_to(ROOT)} ({len(data)} bytes)")
    if missing:
        print("not in Terminus:", missing, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
