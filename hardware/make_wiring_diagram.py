"""Draw the wiring diagrams and the wiring tables from the firmware's pin table.

    .venv/bin/python hardware/make_wiring_diagram.py           # rewrite images and tables
    .venv/bin/python hardware/make_wiring_diagram.py --check   # exit 1 if anything is stale

``firmware/potager/hw/pins.py`` is the single source of truth; this script only adds what a
builder needs beyond it (GPIO numbers, the Pico's physical pin numbers, the power pins), so
the pictures and the tables in ``wiring.md`` cannot drift from the firmware. Output is
deterministic: Pillow's built-in bitmap font (no FreeType, no system fonts), fixed layout.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WIRING_MD = HERE / "wiring.md"


# firmware/ at the end of sys.path: its code.py must not shadow the standard library's `code`
if str(ROOT / "firmware") not in sys.path:
    sys.path.append(str(ROOT / "firmware"))
pins = importlib.import_module("potager.hw.pins")
keys = importlib.import_module("potager.core.keys")

# Raspberry Pi Pico / Pico 2 header (identical on both): GPIO name -> physical pin number.
PICO_PHYSICAL = {
    "GP0": 1, "GP1": 2, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP6": 9, "GP7": 10,
    "GP8": 11, "GP9": 12, "GP10": 14, "GP11": 15, "GP12": 16, "GP13": 17, "GP14": 19,
    "GP15": 20, "GP16": 21, "GP17": 22, "GP18": 24, "GP19": 25, "GP20": 26, "GP21": 27,
    "GP22": 29, "GP26": 31, "GP27": 32, "GP28": 34,
}  # fmt: skip
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 38)  # 33 is AGND

# Feather RP2040: CircuitPython board name -> RP2040 GPIO (as in CircuitPython's pins.c).
FEATHER_RP2040_GPIO = {
    "SDA": 2, "SCL": 3, "A0": 26, "A1": 27, "A2": 28, "A3": 29, "D24": 24, "D25": 25,
    "D4": 6, "D5": 7, "D6": 8, "D9": 9, "D10": 10, "D11": 11, "D12": 12, "D13": 13,
}  # fmt: skip


@dataclass(frozen=True)
class Board:
    """What the docs need about one pin table of pins.py."""

    table_name: str  # the variable in pins.py
    title: str
    stem: str  # output file name without extension
    # power rail -> (label on the board, physical pin number or None)
    v33: tuple[str, int | None]
    v5: tuple[str, int | None]
    gnd: dict[str, tuple[str, int | None]]  # part -> GND pin it uses

    @property
    def table(self) -> dict:
        return getattr(pins, self.table_name)

    @property
    def board_ids(self) -> tuple[str, ...]:
        return tuple(sorted(k for k, v in pins.TABLES.items() if v is self.table))

    def gpio(self, name: str) -> int:
        if self.table_name == "PICO":
            return int(name.removeprefix("GP"))
        return FEATHER_RP2040_GPIO[name]

    def physical(self, name: str) -> int | None:
        return PICO_PHYSICAL[name] if self.table_name == "PICO" else None


BOARDS = (
    Board(
        "PICO",
        "Raspberry Pi Pico / Pico 2",
        "wiring",
        v33=("3V3(OUT)", 36),
        v5=("VBUS", 40),
        gnd={"oled": ("GND", 8), "keys": ("GND", 18), "piezo": ("GND", 23), "ring": ("GND", 38)},
    ),
    Board(
        "FEATHER_RP2040",
        "Adafruit Feather RP2040",
        "wiring-feather-rp2040",
        v33=("3.3V", None),
        v5=("USB", None),
        gnd={"oled": ("GND", None), "keys": ("GND", None), "piezo": ("GND", None),
             "ring": ("GND", None)},
    ),
)  # fmt: skip


def check_boards_cover_tables() -> None:
    """Every table in pins.TABLES needs a Board entry here, or the docs would miss it."""
    known = {id(b.table) for b in BOARDS}
    for board_id, table in pins.TABLES.items():
        if id(table) not in known and "display" not in table:  # (built in: nothing to wire)
            raise SystemExit(f"make_wiring_diagram: add a Board for {board_id} ({__file__})")


# ---------------------------------------------------------------------------- connections


@dataclass(frozen=True)
class Wire:
    part: str  # "oled", "ring", "keys", "piezo"
    part_pin: str  # label at the part
    signal: str  # label in the tables: SDA, SCL, UP..TURN, DIN, PIEZO, or a rail
    board_pin: str  # label at the board
    physical: int | None
    gpio: int | None  # None for power pins
    colour: str


GND_C, V33_C, V5_C = "#202020", "#e07000", "#d01010"


def wires(board: Board) -> list[Wire]:
    """All connections, grouped by part, in the order they are drawn and tabulated."""
    t = board.table

    def sig(part: str, part_pin: str, signal: str, name: str, colour: str) -> Wire:
        return Wire(part, part_pin, signal, name, board.physical(name), board.gpio(name), colour)

    def power(part: str, part_pin: str, rail: str, pin: tuple[str, int | None]) -> Wire:
        colour = {"GND": GND_C, "3V3": V33_C, "5V": V5_C}[rail]
        return Wire(part, part_pin, rail, pin[0], pin[1], None, colour)

    out = [
        power("oled", "GND", "GND", board.gnd["oled"]),
        power("oled", "VCC", "3V3", board.v33),
        sig("oled", "SCL", "SCL", t["scl"], "#c0a000"),
        sig("oled", "SDA", "SDA", t["sda"], "#1060d0"),
        power("ring", "5V / PWR", "5V", board.v5),
        power("ring", "GND", "GND", board.gnd["ring"]),
        sig("ring", "DIN", "DIN", t["pixels"], "#109030"),
    ]
    for name, pin in zip(keys.NAMES, t["keys"], strict=True):
        out.append(sig("keys", name, name, pin, "#7030a0"))
    out.append(power("keys", "common", "GND", board.gnd["keys"]))
    out.append(sig("piezo", "+", "PIEZO", t["piezo"], "#806040"))
    out.append(power("piezo", "-", "GND", board.gnd["piezo"]))
    return out


PART_TITLES = {
    "oled": "SSD1306 OLED 128x64, I2C 0x3C",
    "ring": f"WS2812B ring, {pins.PIXEL_COUNT} pixels",
    "keys": "7 buttons (TURN: 30 mm arcade)",
    "piezo": "piezo (optional)",
}

PART_NAMES = {"oled": "OLED", "ring": "ring", "keys": "buttons", "piezo": "piezo"}

# ------------------------------------------------------------------------------ markdown


def markdown_tables(board: Board) -> str:
    """The two tables of wiring.md for one board: signals, then power."""
    pico = board.table_name == "PICO"
    head = "| signal | pins.py | GPIO |" + (" Pico pin |" if pico else "") + " goes to |"
    rule = "| --- | --- | --- |" + (" --- |" if pico else "") + " --- |"
    rows = [head, rule]
    for w in wires(board):
        if w.gpio is None:
            continue
        to = f"{PART_TITLES[w.part].split(',')[0]} {w.part_pin}"
        if w.part == "keys":
            to = f"button {w.part_pin}, other leg to GND"
        elif w.signal == "DIN":
            to += " through 330 Ω"
        phys = f" {w.physical} |" if pico else ""
        rows.append(f"| {w.signal} | `{w.board_pin}` | GPIO{w.gpio} |{phys} {to} |")
    rows += ["", "| part | part pin | board pin |" + (" Pico pin |" if pico else "")]
    rows.append("| --- | --- | --- |" + (" --- |" if pico else ""))
    for w in wires(board):
        if w.gpio is not None:
            continue
        phys = f" {w.physical} |" if pico else ""
        rows.append(f"| {PART_NAMES[w.part]} | {w.part_pin} | {w.board_pin} |{phys}")
    return "\n".join(rows) + "\n"


def begin_marker(board: Board) -> str:
    return f"<!-- generated by make_wiring_diagram.py: {board.stem} begin -->"


def end_marker(board: Board) -> str:
    return f"<!-- generated by make_wiring_diagram.py: {board.stem} end -->"


def refreshed_wiring_md(text: str) -> str:
    """wiring.md with each generated block replaced by the current tables."""
    for board in BOARDS:
        begin, end = begin_marker(board), end_marker(board)
        i, j = text.find(begin), text.find(end)
        if i < 0 or j < i:
            raise SystemExit(f"wiring.md lacks the markers {begin!r} ... {end!r}")
        text = text[: i + len(begin)] + "\n" + markdown_tables(board) + text[j:]
    return text


# ------------------------------------------------------------------------------- drawing
# One list of primitives, rendered twice (SVG and PNG), so both images always agree.

CHAR_W, ROW_H, SCALE = 6, 16, 2
BOARD_X, BOARD_W, PART_X, PART_W, WIDTH = 16, 230, 470, 300, 790
TOP = 56


@dataclass(frozen=True)
class Prim:
    kind: str  # "rect", "line", "text", "dot"
    xy: tuple[int, ...]
    colour: str
    text: str = ""
    fill: str = ""


def layout(board: Board) -> tuple[list[Prim], int]:
    ws = wires(board)
    prims: list[Prim] = []
    ids = ", ".join(board.board_ids)
    prims.append(Prim("text", (BOARD_X, 10), "#000000", f"Potager wiring - {board.title}"))
    prims.append(Prim("text", (BOARD_X, 26), "#505050", f"board_id: {ids}"))
    prims.append(
        Prim("text", (BOARD_X, 38), "#505050", "generated from firmware/potager/hw/pins.py")
    )
    # rows: one per wire, with a gap between parts
    ys: list[int] = []
    y, last = TOP + 30, ""
    for w in ws:
        if last and w.part != last:
            y += 30
        ys.append(y)
        y += ROW_H
        last = w.part
    bottom = y + 6
    prims.append(Prim("rect", (BOARD_X, TOP, BOARD_X + BOARD_W, bottom), "#000000", fill="#eef5ee"))
    prims.append(Prim("text", (BOARD_X + 8, TOP + 2), "#000000", board.title))
    # parts: one box per group
    start = 0
    for i, w in enumerate(ws):
        if i + 1 == len(ws) or ws[i + 1].part != w.part:
            top, bot = ys[start] - 16, ys[i] + 12
            prims.append(
                Prim("rect", (PART_X, top, PART_X + PART_W, bot), "#000000", fill="#f4f0fa")
            )
            prims.append(Prim("text", (PART_X + 110, top + 3), "#000000", PART_TITLES[w.part]))
            if w.part == "keys":
                # every switch's other leg joins one GND bus that goes to the "common" row
                bus_x = PART_X + 100
                prims.append(Prim("line", (bus_x, ys[start], bus_x, ys[i]), GND_C))
                prims.append(Prim("line", (PART_X + 50, ys[i], bus_x, ys[i]), GND_C))
            start = i + 1
    for w, y in zip(ws, ys, strict=True):
        label = w.board_pin if w.physical is None else f"{w.board_pin} (pin {w.physical})"
        if w.gpio is not None and w.board_pin != f"GP{w.gpio}":
            label += f" GPIO{w.gpio}"
        right = BOARD_X + BOARD_W
        prims.append(Prim("text", (right - 8 - CHAR_W * len(label), y - 6), "#000000", label))
        prims.append(Prim("line", (right, y, PART_X, y), w.colour))
        prims.append(Prim("dot", (right, y), w.colour))
        prims.append(Prim("dot", (PART_X, y), w.colour))
        prims.append(Prim("text", (right + 10, y - 13), w.colour, w.signal))
        prims.append(Prim("text", (PART_X + 8, y - 6), "#000000", w.part_pin))
        if w.part == "keys" and w.signal != "GND":
            # a push button: two contacts and a lifted bar
            bx = PART_X + 64
            prims.append(Prim("line", (PART_X + 50, y, bx, y), "#000000"))
            prims.append(Prim("line", (bx + 16, y, PART_X + 100, y), GND_C))
            prims.append(Prim("line", (bx, y - 5, bx + 16, y - 5), "#000000"))
        if w.signal == "DIN":
            prims.append(Prim("text", (right + 60, y + 3), "#109030", "330 ohm in series"))
    notes = (
        "Buttons: internal pull-ups, no resistors. OLED at 3.3 V only (its pull-ups).",
        "Ring: 1000 uF across 5V/GND at the ring; 3.3 V data, see wiring.md.",
    )
    for k, note in enumerate(notes):
        prims.append(Prim("text", (BOARD_X, bottom + 10 + 14 * k), "#303030", note))
    return prims, bottom + 10 + 14 * len(notes) + 8


def render_svg(board: Board) -> str:
    prims, height = layout(board)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH * SCALE}" '
        f'height="{height * SCALE}" viewBox="0 0 {WIDTH} {height}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        '<g font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="10">',
    ]
    for p in prims:
        if p.kind == "rect":
            x0, y0, x1, y1 = p.xy
            out.append(
                f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" '
                f'fill="{p.fill}" stroke="{p.colour}"/>'
            )
        elif p.kind == "line":
            x0, y0, x1, y1 = p.xy
            out.append(
                f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{p.colour}" '
                'stroke-width="2"/>'
            )
        elif p.kind == "dot":
            out.append(f'<circle cx="{p.xy[0]}" cy="{p.xy[1]}" r="3" fill="{p.colour}"/>')
        else:
            text = p.text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            out.append(f'<text x="{p.xy[0]}" y="{p.xy[1] + 9}" fill="{p.colour}">{text}</text>')
    out += ["</g>", "</svg>", ""]
    return "\n".join(out)


def render_png(board: Board) -> Image.Image:
    prims, height = layout(board)
    img = Image.new("RGB", (WIDTH, height), "#ffffff")
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default_imagefont()  # bitmap font: same pixels everywhere
    for p in prims:
        if p.kind == "rect":
            draw.rectangle(p.xy, fill=p.fill, outline=p.colour)
        elif p.kind == "line":
            draw.line(p.xy, fill=p.colour, width=2)
        elif p.kind == "dot":
            x, y = p.xy
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=p.colour)
        else:
            draw.text((p.xy[0], p.xy[1]), p.text, fill=p.colour, font=font)
    return img.resize((WIDTH * SCALE, height * SCALE), Image.Resampling.NEAREST)


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False)
    return buf.getvalue()


# ---------------------------------------------------------------------------------- main


def outputs(out_dir: Path) -> dict[Path, bytes]:
    """Every generated file, by path, with its expected content."""
    check_boards_cover_tables()
    files: dict[Path, bytes] = {}
    for board in BOARDS:
        files[out_dir / f"{board.stem}.svg"] = render_svg(board).encode()
        files[out_dir / f"{board.stem}.png"] = png_bytes(render_png(board))
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if an output is stale")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder for the images")
    args = parser.parse_args(argv)
    md_old = WIRING_MD.read_text(encoding="utf-8")
    md_new = refreshed_wiring_md(md_old)
    stale = []
    for path, data in outputs(args.out).items():
        if path.suffix == ".png" and path.exists():
            # compare pixels, not PNG bytes: zlib builds may compress differently
            same = (
                Image.open(path).convert("RGB").tobytes()
                == Image.open(io.BytesIO(data)).convert("RGB").tobytes()
            )
        else:
            same = path.exists() and path.read_bytes() == data
        if not same:
            stale.append(path)
            if not args.check:
                path.write_bytes(data)
    if md_new != md_old:
        stale.append(WIRING_MD)
        if not args.check:
            WIRING_MD.write_text(md_new, encoding="utf-8")
    for path in stale:
        print(("stale: " if args.check else "wrote: ") + str(path))
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
