"""The interactive board: the OLED and the LED ring (or the MacroPad's grid of keys) in the
terminal, in real time.

Virtual time follows the wall clock: the firmware's sleeps wait for real, watching the
keyboard meanwhile. Only the standard library: termios, tty and select on POSIX, msvcrt on
Windows, imported only when the board starts (headless runs and the other host tools never
need them); the terminal is put back as it was on exit. What the firmware prints or reports on
stderr (the device's serial console) shows on the status line.

The layout follows the terminal's size, chosen again at each redraw (a resize takes effect at
once): the OLED in half blocks (1x2 pixels a character) when 132x38 fit, in braille (2x4
pixels a character, every pixel kept) down to 68x23, and below that one line saying what is
needed. Nothing is ever written past the terminal's last column or row.
"""

import contextlib
import importlib
import io
import os
import re
import shutil
import signal
import sys
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from time import monotonic as real_monotonic  # bound at import: runs replace time.monotonic
from time import sleep as real_sleep  # and time.sleep
from typing import Any, Optional, TextIO

from host_tools.sim.boards import KEY_NAMES
from host_tools.sim.render import BRAILLE, HALF_BLOCKS, terminal_board_size, terminal_lines
from host_tools.sim.runner import RunResult, SimBoard
from host_tools.sim.script import PRESS_MS

HOLD_MS = 600
STATUS_PERIOD_S = 0.1
UP, DOWN, LEFT, RIGHT, OK, BACK, TURN = range(len(KEY_NAMES))
_KEYS = "arrows UP/DOWN/LEFT/RIGHT  Enter OK  Backspace/Esc BACK  space TURN"
_COMMANDS_HELP = f"h/Shift+arrow: hold {HOLD_MS} ms  p power cut/boot  r reload  q quit"
LEGEND = f"{_KEYS}  {_COMMANDS_HELP}"
ENCODER_LEGEND = "[ or , / ] or . turn the encoder a detent (UP / DOWN)"
_ARROWS = {"A": UP, "B": DOWN, "C": RIGHT, "D": LEFT}
_PLAIN_KEYS = {"\r": OK, "\n": OK, "\x7f": BACK, "\x08": BACK, " ": TURN}
_TURNS = {"[": -1, ",": -1, "]": +1, ".": +1}  # anticlockwise (UP), clockwise (DOWN)
_COMMANDS = {"h": "hold-next", "p": "power", "r": "reload", "q": "quit"}
# Windows console keys (msvcrt.getwch): an arrow is "\xe0" or "\x00", then one of these
_WINDOWS_ARROWS = {"H": "\x1b[A", "P": "\x1b[B", "M": "\x1b[C", "K": "\x1b[D"}
_SGR = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Layout:
    name: str
    cell: tuple[int, int]  # OLED pixels a character: (columns, rows)
    legend: tuple[str, ...]
    keys: Optional[tuple[int, int]] = None  # the LEDs as a grid of keys: (columns, rows)

    @property
    def size(self) -> tuple[int, int]:
        """(columns, rows) it takes: the board, the status line, the legend."""
        columns, rows = terminal_board_size(self.cell, self.keys)
        return max(columns, *(len(line) for line in self.legend)), rows + 1 + len(self.legend)


# largest first: the first that fits is drawn
LAYOUTS = (
    Layout("full", HALF_BLOCKS, (LEGEND,)),
    Layout("compact", BRAILLE, (_KEYS, _COMMANDS_HELP)),
)
# the MacroPad: its grid of keys below the OLED, and its encoder (fits 80x24 too)
GRID_LAYOUTS = (
    Layout("full", HALF_BLOCKS, (LEGEND, ENCODER_LEGEND), (3, 4)),
    Layout("compact", BRAILLE, (_KEYS, f"{_COMMANDS_HELP}  [ ] turn"), (3, 4)),
)


def layouts_for(definition: Any) -> tuple[Layout, ...]:
    """The layouts of a board (a BoardDefinition; None: the Pico's)."""
    grid = getattr(definition, "led_grid", None)
    if grid is None:
        return LAYOUTS
    return tuple(Layout(layout.name, layout.cell, layout.legend, grid) for layout in GRID_LAYOUTS)


def choose_layout(
    columns: int, rows: int, layouts: tuple[Layout, ...] = LAYOUTS
) -> Optional[Layout]:
    """The largest layout that fits a terminal of columns x rows, None if none does."""
    for layout in layouts:
        if layout.size[0] <= columns and layout.size[1] <= rows:
            return layout
    return None


def text_width(text: str) -> int:
    """Terminal columns of text: colour sequences take none, wide characters two."""
    width = 0
    for char in _SGR.sub("", text):
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def fit(text: str, columns: int) -> str:
    """Plain text (control characters dropped) cut to columns, "…" marking a cut."""
    text = "".join(char for char in text if not unicodedata.category(char).startswith("C"))
    if text_width(text) <= columns:
        return text
    while text and text_width(text) > columns - 1:
        text = text[:-1]
    return text + "…" if columns > 0 else ""


def screen_lines(
    board_lines: Callable[[Layout], list[str]],
    status: str,
    columns: int,
    rows: int,
    layouts: tuple[Layout, ...] = LAYOUTS,
) -> list[str]:
    """What a terminal of columns x rows shows: the board (board_lines of the chosen layout),
    the status line and the legend; one line naming the size needed when no layout fits."""
    if columns < 1 or rows < 1:
        return []
    layout = choose_layout(columns, rows, layouts)
    if layout is None:
        need_columns, need_rows = layouts[-1].size
        return [
            fit(
                f"Potager needs {need_columns}x{need_rows} (terminal: {columns}x{rows}): "
                "enlarge it, q quits",
                columns,
            )
        ]
    return [*board_lines(layout), fit(status, columns), *layout.legend]


def paint(lines: list[str], columns: int, rows: int) -> str:
    """The escape sequences that draw lines from the top left: each line placed by cursor
    addressing (never a newline, so the screen never scrolls), its rest and the rows below
    cleared."""
    parts = []
    for y, line in enumerate(lines[:rows]):
        parts.append(f"\x1b[{y + 1};1H{line}")
        if text_width(line) < columns:  # a full line leaves the cursor past the edge
            parts.append("\x1b[K")
    if len(lines) < rows:
        parts.append(f"\x1b[{len(lines) + 1};1H\x1b[J")
    return "".join(parts)


def decode_input(data: str) -> list[tuple[str, int]]:
    """Terminal input as actions: ("key", key number), ("held", key number), ("turn", +1 or
    -1: the encoder a detent, clockwise or not), ("hold-next", 0), ("power", 0), ("reload", 0)
    or ("quit", 0). A lone Esc is BACK; Shift+arrow (``ESC [1;2A``) is a hold."""
    actions = []
    i = 0
    while i < len(data):
        char = data[i]
        if char == "\x1b" and data[i + 1 : i + 2] in ("[", "O"):
            end = i + 2
            while end < len(data) and not "@" <= data[end] <= "~":
                end += 1
            sequence, i = data[i + 2 : end + 1], end + 1
            if sequence[-1:] in _ARROWS:
                held = sequence[:-1].endswith(";2")
                actions.append(("held" if held else "key", _ARROWS[sequence[-1]]))
            continue
        i += 1
        if char == "\x1b":
            actions.append(("key", BACK))
        elif char in _PLAIN_KEYS:
            actions.append(("key", _PLAIN_KEYS[char]))
        elif char in _TURNS:
            actions.append(("turn", _TURNS[char]))
        elif char.lower() in _COMMANDS:
            actions.append((_COMMANDS[char.lower()], 0))
    return actions


def windows_keys(data: str) -> str:
    """Windows console keys (msvcrt.getwch) as the terminal input decode_input reads: arrows
    become their ANSI sequences, other special keys (F1, Home, ...) are dropped."""
    out = []
    i = 0
    while i < len(data):
        char = data[i]
        if char in "\x00\xe0":
            out.append(_WINDOWS_ARROWS.get(data[i + 1 : i + 2], ""))
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


class _SerialConsole(io.TextIOBase):
    """Where the firmware's print() goes: the last line is shown on the status line."""

    def __init__(self) -> None:
        self.last_line = ""
        self._partial = ""

    def write(self, text: str) -> int:
        *complete, self._partial = (self._partial + text).split("\n")
        if complete and complete[-1]:
            self.last_line = complete[-1]
        return len(text)


Keys = Callable[[float], str]  # waits up to that many seconds for input; "" if none came


class TerminalClock:
    """Waits for real, reads the keys meanwhile, and redraws when something changed."""

    def __init__(
        self,
        keys: Keys,
        out: TextIO,
        console: _SerialConsole,
        size: Callable[[], tuple[int, int]] = shutil.get_terminal_size,
    ) -> None:
        self._keys, self._out, self._console, self._size = keys, out, console, size
        self._origin_s: Optional[float] = None
        self._hold_next = False
        self._board_key: Any = None
        self._picture: tuple[list[list[bool]], list[str]] = ([], [])
        self._board_lines: dict[Layout, list[str]] = {}
        self._screen: Any = None

    def wait_until(self, board: SimBoard, at_us: Optional[int]) -> None:
        machine = board.machine
        if self._origin_s is None:
            self._origin_s = real_monotonic() - machine.now_us / 1_000_000
        self._draw(board)
        now_us = self._real_us()
        if at_us is None or now_us < at_us:
            timeout = STATUS_PERIOD_S
            if at_us is not None:
                timeout = min(timeout, (at_us - now_us) / 1_000_000)
            data = self._keys(timeout)
            if data:
                self._handle(board, data)
        machine.now_us = max(machine.now_us, self._real_us())

    def _real_us(self) -> int:
        assert self._origin_s is not None
        return round((real_monotonic() - self._origin_s) * 1_000_000)

    def _handle(self, board: SimBoard, data: str) -> None:
        for action, key in decode_input(data):
            if action in ("key", "held"):
                held = action == "held" or self._hold_next
                board.press(key, HOLD_MS if held else PRESS_MS)
                self._hold_next = False
            elif action == "turn":
                board.turn(key)
            elif action == "hold-next":
                self._hold_next = not self._hold_next
            elif action == "power":
                board.toggle_power()
            elif action == "reload":
                board.reload()
            elif action == "quit":
                board.quit()

    def _lines_for(self, layout: Layout) -> list[str]:
        if layout not in self._board_lines:
            pixels, leds = self._picture
            self._board_lines[layout] = terminal_lines(pixels, leds, layout.cell, layout.keys)
        return self._board_lines[layout]

    def _draw(self, board: SimBoard) -> None:
        machine = board.machine
        sent = (machine.i2c_bytes, getattr(machine, "spi_bytes", 0))
        board_key = (sent, machine.powered, machine.ring_bytes)
        if board_key != self._board_key:
            self._board_key = board_key
            self._picture = (board.pixels(), board.leds())
            self._board_lines = {}
        power = "on" if machine.live else "on, firmware stopped" if machine.powered else "OFF"
        status = [
            f"t={machine.now_us / 1_000_000:8.1f} s   power: {power}",
            f"next key held {HOLD_MS} ms" if self._hold_next else "",
            f"{len(machine.crashes)} firmware error(s)" if machine.crashes else "",
            f"serial: {self._console.last_line}" if self._console.last_line else "",
        ]
        columns, rows = self._size()
        lines = screen_lines(
            self._lines_for,
            "   ".join(part for part in status if part),
            columns,
            rows,
            layouts_for(getattr(board, "definition", None)),
        )
        screen = paint(lines, columns, rows)
        if (screen, columns, rows) != self._screen:  # a resize redraws even the same lines
            self._screen = (screen, columns, rows)
            self._out.write(screen)
            self._out.flush()


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def terminal_problem() -> Optional[str]:
    """Why this Python cannot run the interactive board (one line), or None if it can."""
    if _module("termios") is not None and _module("tty") is not None:
        return None
    if _module("msvcrt") is not None:
        return None
    return (
        "the interactive board needs a POSIX terminal (termios) or a Windows console "
        "(msvcrt); for scripts use --headless --script FILE"
    )


@contextlib.contextmanager
def _posix_keys() -> Iterator[Keys]:
    import select
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)  # keys arrive at once and unechoed; Ctrl-C still interrupts

    def read(timeout: float) -> str:
        if select.select([fd], [], [], timeout)[0]:
            return os.read(fd, 256).decode(errors="ignore")
        return ""

    try:
        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


@contextlib.contextmanager
def _windows_keys() -> Iterator[Keys]:
    import ctypes

    msvcrt = importlib.import_module("msvcrt")  # not through `import`: its stubs are Windows'
    kernel32 = getattr(ctypes, "windll").kernel32  # noqa: B009 (as is ctypes.windll)

    # the console draws ANSI sequences only with virtual terminal processing on
    handle, mode = kernel32.GetStdHandle(-11), ctypes.c_uint32()
    has_mode = kernel32.GetConsoleMode(handle, ctypes.byref(mode))
    if has_mode:
        kernel32.SetConsoleMode(handle, mode.value | 0x0004)  # ENABLE_VIRTUAL_TERMINAL_PROCESSING

    def read(timeout: float) -> str:
        deadline = real_monotonic() + timeout
        while not msvcrt.kbhit():
            if real_monotonic() >= deadline:
                return ""
            real_sleep(0.01)
        chars = []
        while msvcrt.kbhit():
            chars.append(msvcrt.getwch())
        return windows_keys("".join(chars))

    try:
        yield read
    finally:
        if has_mode:
            kernel32.SetConsoleMode(handle, mode.value)


@contextlib.contextmanager
def _keyboard() -> Iterator[Keys]:
    problem = terminal_problem()
    if problem is not None:
        raise RuntimeError(problem)
    keys = _posix_keys() if _module("termios") is not None else _windows_keys()
    with keys as read:
        yield read


@contextlib.contextmanager
def _screen(out: TextIO) -> Iterator[None]:
    out.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, cursor hidden
    try:
        yield
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()


def run_interactive(board: SimBoard) -> RunResult:
    """Run until q (or Ctrl-C: the first one quits cleanly, a second one interrupts)."""
    out = sys.stdout
    console = _SerialConsole()

    def quit_on_interrupt(signum: int, frame: Any) -> None:
        board.quit()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, quit_on_interrupt)
    try:
        # the device has one serial console for print() and tracebacks alike
        with (
            _keyboard() as keys,
            _screen(out),
            contextlib.redirect_stdout(console),
            contextlib.redirect_stderr(console),
        ):
            return board.run_live(TerminalClock(keys, out, console))
    finally:
        signal.signal(signal.SIGINT, previous)
