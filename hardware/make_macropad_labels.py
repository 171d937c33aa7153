"""Draw the MacroPad's key-label sheet from the firmware's pin table (its "keymap").

    .venv/bin/python hardware/make_macropad_labels.py           # rewrite macropad-keys.svg
    .venv/bin/python hardware/make_macropad_labels.py --check   # exit 1 if it is stale

One 12 mm label a key, laid out as the keys are (3 columns, 4 rows, 19.05 mm apart: the
MX key pitch), to print at 100 % and cut out for relegendable (clear, two-part) keycaps, or
to stick on the keys. Arrows are drawn, not typed, so no font is needed for them; the words
are the key names the help screens show. Output is deterministic.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "macropad-keys.svg"

if str(ROOT / "firmware") not in sys.path:
    sys.path.append(str(ROOT / "firmware"))  # at the end: its code.py must not shadow `code`
pins = importlib.import_module("potager.hw.pins")

PITCH = 19.05  # mm between key centres (MX switches)
LABEL = 12.0  # mm: a label's side, the window of a relegendable keycap
MARGIN = 8.0
COLUMNS = 3
ROWS = 4
# the arrow of each direction: a triangle pointing that way, in units of the label's side
ARROWS = {
    "UP": ((0.5, 0.16), (0.72, 0.58), (0.28, 0.58)),
    "DOWN": ((0.5, 0.58), (0.28, 0.16), (0.72, 0.16)),
    "LEFT": ((0.26, 0.37), (0.66, 0.15), (0.66, 0.59)),
    "RIGHT": ((0.74, 0.37), (0.34, 0.59), (0.34, 0.15)),
}


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def label(x: float, y: float, name: str) -> list[str]:
    """The SVG of one label, its top-left corner at (x, y) mm."""
    parts = [
        f'<rect x="{_mm(x)}" y="{_mm(y)}" width="{_mm(LABEL)}" height="{_mm(LABEL)}" '
        'fill="none" stroke="#999" stroke-width="0.2"/>'
    ]
    if name in ARROWS:
        points = " ".join(f"{_mm(x + px * LABEL)},{_mm(y + py * LABEL)}" for px, py in ARROWS[name])
        parts.append(f'<polygon points="{points}" fill="#000"/>')
        text_y, size = y + LABEL * 0.86, 2.2
    else:
        text_y, size = y + LABEL / 2 + 1.2, 3.4 if len(name) <= 2 else 2.9
    parts.append(
        f'<text x="{_mm(x + LABEL / 2)}" y="{_mm(text_y)}" font-size="{_mm(size)}" '
        f'text-anchor="middle">{name}</text>'
    )
    return parts


def render_svg() -> str:
    keymap = pins.MACROPAD["keymap"]
    keys = pins.MACROPAD["keys"]
    width = 2 * MARGIN + (COLUMNS - 1) * PITCH + LABEL
    top = MARGIN + 6
    height = top + (ROWS - 1) * PITCH + LABEL + 16
    body = [
        f'<text x="{_mm(MARGIN)}" y="{_mm(MARGIN)}" font-size="3.2" font-weight="bold">'
        "Potager: MacroPad keys</text>",
        f'<text x="{_mm(MARGIN)}" y="{_mm(MARGIN + 4)}" font-size="2.2">'
        "Print at 100 %; cut along the grey lines.</text>",
    ]
    for index in range(COLUMNS * ROWS):
        row, column = divmod(index, COLUMNS)
        assert keys[index] == f"KEY{index + 1}", keys  # the grid is KEY1..KEY12, in rows
        body += label(MARGIN + column * PITCH, top + row * PITCH, keymap[index])
    knob = keymap[keys.index("BUTTON")]
    notes = top + (ROWS - 1) * PITCH + LABEL + 6
    body += [
        f'<text x="{_mm(MARGIN)}" y="{_mm(notes)}" font-size="2.4">'
        f"Encoder: turn = UP / DOWN, press = {knob}</text>",
        f'<text x="{_mm(MARGIN)}" y="{_mm(notes + 4)}" font-size="2.4">'
        "Molette : tourner = UP / DOWN, appuyer = OK</text>",
    ]
    head = (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{_mm(width)}mm" height="{_mm(height)}mm" '
        f'viewBox="0 0 {_mm(width)} {_mm(height)}" font-family="DejaVu Sans, Arial, sans-serif">'
    )
    return "\n".join([head, *body, "</svg>", ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the sheet is stale")
    args = parser.parse_args(argv)
    svg = render_svg()
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != svg:
            print(f"{OUT.relative_to(ROOT)} is stale: run {Path(__file__).name}")
            return 1
        return 0
    OUT.write_text(svg, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
