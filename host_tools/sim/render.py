"""Pictures of the board: a PNG (OLED scaled up, the LEDs as discs) and terminal text, at
full size in half blocks (1x2 pixels a character) or compact in braille (2x4 pixels a
character, every pixel kept).

The ring's pixel 0 is at the top and the others follow clockwise, on a frame around the OLED.
A board whose LEDs sit under its keys (the MacroPad: ``grid`` = (3, 4) columns and rows) has
them drawn as that grid below the OLED, pixel i in row i // 3, column i % 3, each in its key.
LED colours are lifted for display (the firmware caps the ring's brightness for USB power,
which would draw as near-black); the frames keep the exact bytes.
"""

import itertools
from pathlib import Path
from typing import Optional, Union

from host_tools.sim.boards import RING_SIZE

SCALE = 4
OLED_SIZE = (128 * SCALE, 64 * SCALE)
MARGIN = 64  # around the OLED, where the ring is drawn
PNG_SIZE = (OLED_SIZE[0] + 2 * MARGIN, OLED_SIZE[1] + 2 * MARGIN)
LED_RADIUS = 12
LIT = (170, 215, 255)  # an OLED's blue-white
BACKGROUND = (24, 24, 24)
UNLIT_LED = (70, 70, 70)
HALF_BLOCKS = (1, 2)  # pixels a character: (columns, rows)
BRAILLE = (2, 4)
TERMINAL_MARGIN = 2  # characters around the OLED, where the ring is drawn


KEY_PITCH = 160  # PNG: a key of the grid, square
KEY_GAP = 16  # PNG: between keys
KEY_CAP = (36, 36, 36)  # PNG: a key, the LED under it showing through


def terminal_board_size(
    cell: tuple[int, int] = HALF_BLOCKS, grid: Optional[tuple[int, int]] = None
) -> tuple[int, int]:
    """(columns, rows) of terminal_lines() drawn with `cell` pixels a character (a grid: the
    OLED, a blank row, a row of LEDs per row of keys)."""
    if grid is not None:
        return 128 // cell[0], 64 // cell[1] + 1 + grid[1]
    return 128 // cell[0] + 2 * TERMINAL_MARGIN, 64 // cell[1] + 2 * TERMINAL_MARGIN


TERMINAL_BOARD_SIZE = terminal_board_size(HALF_BLOCKS)
_HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
# bit of the braille dot for the pixel (dx, dy) of a 2x4 cell (Unicode's dots 1-8)
_BRAILLE_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


def ring_offsets(half_width: float, half_height: float) -> list[tuple[float, float]]:
    """Where each LED sits relative to the centre: evenly spaced along the border of a
    half_width x half_height box, clockwise from the top centre (so 3, 6 and 9 o'clock fall
    on the middles of the sides)."""
    w, h = half_width, half_height
    corners = [(0.0, -h), (w, -h), (w, h), (-w, h), (-w, -h), (0.0, -h)]
    offsets = []
    for i in range(RING_SIZE):
        distance = 4 * (w + h) * i / RING_SIZE
        for (x0, y0), (x1, y1) in itertools.pairwise(corners):
            length = abs(x1 - x0) + abs(y1 - y0)
            if distance <= length:
                share = distance / length
                offsets.append((x0 + (x1 - x0) * share, y0 + (y1 - y0) * share))
                break
            distance -= length
    return offsets


def visible_rgb(colour: str) -> tuple[int, int, int]:
    """'#rrggbb' lifted so that dim LEDs still show their hue (order of brightness kept)."""
    channels = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(255 * (c / 255) ** 0.4) for c in channels)
    return r, g, b


def png_size(grid: Optional[tuple[int, int]] = None) -> tuple[int, int]:
    """(width, height) of write_png's picture."""
    if grid is None:
        return PNG_SIZE
    return PNG_SIZE[0], MARGIN + OLED_SIZE[1] + MARGIN + grid[1] * KEY_PITCH + MARGIN


def grid_centres(grid: tuple[int, int]) -> list[tuple[float, float]]:
    """PNG: the centre of each key of the grid, pixel 0 first (row i // columns)."""
    columns, rows = grid
    top = MARGIN + OLED_SIZE[1] + MARGIN
    left = (PNG_SIZE[0] - columns * KEY_PITCH) / 2
    return [
        (left + (i % columns + 0.5) * KEY_PITCH, top + (i // columns + 0.5) * KEY_PITCH)
        for i in range(columns * rows)
    ]


def write_png(
    path: Union[str, Path],
    pixels: list[list[bool]],
    leds: list[str],
    grid: Optional[tuple[int, int]] = None,
) -> None:
    """The OLED with the ring around it, or with the grid of keys below (``grid``)."""
    from PIL import Image, ImageDraw

    oled = Image.new("RGB", (128, 64))
    oled.putdata([LIT if lit else (0, 0, 0) for row in pixels for lit in row])
    image = Image.new("RGB", png_size(grid), BACKGROUND)
    image.paste(oled.resize(OLED_SIZE, Image.Resampling.NEAREST), (MARGIN, MARGIN))
    draw = ImageDraw.Draw(image)
    if grid is not None:
        half = (KEY_PITCH - KEY_GAP) / 2
        for colour, (x, y) in zip(leds, grid_centres(grid), strict=True):
            draw.rounded_rectangle(
                (x - half, y - half, x + half, y + half),
                12,
                fill=KEY_CAP,
                outline=UNLIT_LED,
                width=2,
            )
            box = (x - LED_RADIUS, y - LED_RADIUS, x + LED_RADIUS, y + LED_RADIUS)
            if colour == "#000000":
                draw.ellipse(box, outline=UNLIT_LED, width=2)
            else:
                draw.ellipse(box, fill=visible_rgb(colour))
        image.save(path)
        return
    centre_x, centre_y = PNG_SIZE[0] / 2, PNG_SIZE[1] / 2
    reach_x, reach_y = OLED_SIZE[0] / 2 + MARGIN / 2, OLED_SIZE[1] / 2 + MARGIN / 2
    for colour, (dx, dy) in zip(leds, ring_offsets(reach_x, reach_y), strict=True):
        x, y = centre_x + dx, centre_y + dy
        box = (x - LED_RADIUS, y - LED_RADIUS, x + LED_RADIUS, y + LED_RADIUS)
        if colour == "#000000":
            draw.ellipse(box, outline=UNLIT_LED, width=2)
        else:
            draw.ellipse(box, fill=visible_rgb(colour))
    image.save(path)


def oled_text(pixels: list[list[bool]], cell: tuple[int, int] = HALF_BLOCKS) -> list[str]:
    """The OLED as text rows: half blocks (HALF_BLOCKS) or braille (BRAILLE, a blank cell as a
    space)."""
    if cell == HALF_BLOCKS:
        return [
            "".join(_HALF_BLOCKS[pair] for pair in zip(pixels[y], pixels[y + 1], strict=True))
            for y in range(0, len(pixels), 2)
        ]
    if cell != BRAILLE:
        raise ValueError(f"no characters for {cell[0]}x{cell[1]} pixels")
    rows = []
    for y in range(0, len(pixels), 4):
        band = pixels[y : y + 4]
        row = []
        for x in range(0, len(band[0]), 2):
            bits = 0
            for dx in (0, 1):
                for dy, line in enumerate(band):
                    if line[x + dx]:
                        bits |= _BRAILLE_DOTS[dx][dy]
            row.append(chr(0x2800 + bits) if bits else " ")
        rows.append("".join(row))
    return rows


def _dot(colour: str) -> str:
    if colour == "#000000":
        return "\x1b[2m○\x1b[0m"
    r, g, b = visible_rgb(colour)
    return f"\x1b[38;2;{r};{g};{b}m●\x1b[0m"


def _key_rows(leds: list[str], keys: tuple[int, int], width: int) -> list[str]:
    """The grid of keys as text: a row of dots a row of keys, each column's in the middle of
    its third of the width."""
    columns, rows = keys
    lines = []
    for top in range(0, columns * rows, columns):
        line = [" "] * width
        for column in range(columns):
            line[(2 * column + 1) * width // (2 * columns)] = _dot(leds[top + column])
        lines.append("".join(line).rstrip())
    return lines


def terminal_lines(
    pixels: list[list[bool]],
    leds: list[str],
    cell: tuple[int, int] = HALF_BLOCKS,
    keys: Optional[tuple[int, int]] = None,
) -> list[str]:
    """The OLED (oled_text) inside a 2-character margin that carries the ring as coloured dots
    (ANSI 24-bit colour), or with a grid of keys (``keys``: columns, rows) below it, a row of
    dots each; terminal_board_size(cell, keys) characters."""
    if keys is not None:
        return [*oled_text(pixels, cell), "", *_key_rows(leds, keys, 128 // cell[0])]
    width, height = terminal_board_size(cell)
    grid = [[" "] * width for _ in range(height)]
    for y, row in enumerate(oled_text(pixels, cell)):
        grid[y + TERMINAL_MARGIN][TERMINAL_MARGIN : TERMINAL_MARGIN + len(row)] = row
    centre_x, centre_y = (width - 1) / 2, (height - 1) / 2
    # spaced in screen distance: a character is about twice as tall as it is wide
    for colour, (dx, dy) in zip(leds, ring_offsets(centre_x, 2 * centre_y), strict=True):
        x, y = round(centre_x + dx), round(centre_y + dy / 2)
        grid[y][x] = _dot(colour)
    return ["".join(row) for row in grid]
