"""What every screen is drawn with: a 5 x 21 text grid, player colours and symbols, LEDs.

Screens build rows of text as pure functions of the state; the OLED adapter draws only the
segments of a row that changed (see SEGMENTS), the simulator shows the same rows.
"""

from potager.core.compat import const

ROWS = const(5)
COLS = const(21)
# Columns where the renderer splits a row into separately drawn labels: a score changing in
# one player's cell redraws one segment, not the row (see the display budget in docs/bench.md).
SEGMENTS = (0, 5, 10, 16, 21)

# Player colours: (LED colour, OLED symbol, text key). The symbol is the cue that does not
# rely on colour, in the spirit of ColorADD. Written out: built at import from long strings,
# to intern fewer short ones, the table took 352 bytes more heap from .mpy and 912 from .py
# (CircuitPython's 32-bit VM), and 11 more qstrs.
COLOURS = (
    (0xFF0000, "♥", "c.red"),
    (0x0030FF, "●", "c.blue"),
    (0x00D000, "♣", "c.green"),
    (0xFFB000, "▲", "c.yellow"),
    (0x9000FF, "◆", "c.purple"),
    (0xFF4000, "■", "c.orange"),
    (0xFFFFFF, "○", "c.white"),
    (0xFF2080, "♦", "c.pink"),
)
SYMBOLS = "".join([colour[1] for colour in COLOURS])

CURSOR = "▶"
RED = const(0xFF0000)


def fit(text, width):
    """Left-aligned in exactly `width` characters (MicroPython has no str.ljust)."""
    if len(text) >= width:
        return text[:width]
    return text + " " * (width - len(text))


def right(text, width):
    if len(text) >= width:
        return text[len(text) - width :]
    return " " * (width - len(text)) + text


def centre(text, width):
    if len(text) >= width:
        return text[:width]
    left = (width - len(text)) // 2
    return " " * left + text + " " * (width - len(text) - left)


def wrap(text, width=COLS, rows=3):
    """`text` broken at spaces into at most `rows` lines of `width`, each padded."""
    lines = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = line + " " + word if line else word
    lines.append(line)
    lines = lines[:rows] + [""] * (rows - len(lines))
    return [fit(line, width) for line in lines]


def split(left, right_text, width=COLS):
    """`left` and `right_text` on one row, the right part flush right."""
    room = width - len(right_text)
    return fit(left, room) + right_text if room > 0 else right(right_text, width)


def fill(text, values):
    """`text` with its "{}" replaced by `values`, in order."""
    for value in values:
        text = text.replace("{}", str(value), 1)
    return text


def dim(rgb, level):
    """Colour scaled by level/255 (small ints only: no allocation on the device)."""
    r = ((rgb >> 16) & 0xFF) * level // 255
    g = ((rgb >> 8) & 0xFF) * level // 255
    b = (rgb & 0xFF) * level // 255
    return (r << 16) | (g << 8) | b


def symbol(state, player):
    return COLOURS[state["col"][player]][1]


def player_tag(state, player, width=3):
    """Symbol and the name chosen at setup (else the seat) cut to `width`, e.g. "♥P1", "♥An":
    colour is never the only cue."""
    names = state.get("names")
    name = (names[player] if names else "") or "P" + str(player + 1)
    return symbol(state, player) + name[: width - 1]


def names_in(state, text, marks, width=COLS):
    """`text` with each (mark, player) of `marks` replaced by the player's tag, every name as
    long as a row of `width` holds once the rest of the text is in ("Undone: ♥Zoé +1"); where
    the row is too short the longest name is cut first, never below two letters (the tag of
    ``player_tag``: "♥Zo"). A mark absent from `text` is skipped."""
    names = state.get("names")
    tags = []  # [mark, player, name, times in the text]
    rest = len(text)
    for mark, player in marks:
        count = text.count(mark)
        if count:
            name = (names[player] if names else "") or "P" + str(player + 1)
            tags.append([mark, player, name, count])
            rest += count * (1 + len(name) - len(mark))
    while rest > width:
        longest = None
        for item in tags:
            if len(item[2]) > 2 and (longest is None or len(item[2]) > len(longest[2])):
                longest = item
        if longest is None:
            break
        longest[2] = longest[2][:-1]
        rest -= longest[3]
    # in one pass, so that a name which reads like a mark ("%a") stays a name
    out = ""
    start = 0
    while True:
        first = None
        at = len(text)
        for item in tags:
            i = text.find(item[0], start)
            if 0 <= i < at:
                first, at = item, i
        if first is None:
            return out + text[start:]
        out += text[start:at] + symbol(state, first[1]) + first[2]
        start = at + len(first[0])


def menu_top(cursor, rows=ROWS):
    """The first item in view of a titled list of `rows` rows, the cursor's item in view."""
    return max(cursor - rows + 2, 0)


def menu_rows(title, items, cursor, rows=ROWS):
    """A titled list that scrolls to keep the cursor visible (from ``menu_top``)."""
    out = [fit(title, COLS)]
    visible = rows - 1
    top = menu_top(cursor, rows)
    for i in range(top, top + visible):
        if i < len(items):
            out.append(fit((CURSOR if i == cursor else " ") + items[i], COLS))
        else:
            out.append(" " * COLS)
    return out
