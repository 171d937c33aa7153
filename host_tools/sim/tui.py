"""The interactive board: the OLED and the LED ring in the terminal, in real time.

Virtual time follows the wall clock: the firmware's sleeps wait for real, watching the
keyboard meanwhile. Only the standard library (termios, tty, select); the terminal is put back
as it was on exit. What the firmware prints or reports on stderr (the device's serial console)
shows on the status line.
"""

import contextlib
import io
import os
import select
import signal
import sys
import termios
import tty
from collections.abc import Iterator
from time import monotonic as real_monotonic  # bound at import: runs replace time.monotonic
from typing import Any, Optional, TextIO

from host_tools.sim.boards import KEY_NAMES
from host_tools.sim.render import TERMINAL_BOARD_SIZE, terminal_lines
from host_tools.sim.runner import RunResult, SimBoard
from host_tools.sim.script import PRESS_MS

HOLD_MS = 600
STATUS_PERIOD_S = 0.1
UP, DOWN, LEFT, RIGHT, OK, BACK, TURN = range(len(KEY_NAMES))
LEGEND = (
    "arrows UP/DOWN/LEFT/RIGHT  Enter OK  Backspace/Esc BACK  space TURN  "
    f"h: next key held {HOLD_MS} ms (or Shift+arrow)  p power cut/boot  r reload  q quit"
)
_ARROWS = {"A": UP, "B": DOWN, "C": RIGHT, "D": LEFT}
_PLAIN_KEYS = {"\r": OK, "\n": OK, "\x7f": BACK, "\x08": BACK, " ": TURN}
_COMMANDS = {"h": "hold-next", "p": "power", "r": "reload", "q": "quit"}


def decode_input(data: str) -> list[tuple[str, int]]:
    """Terminal input as actions: ("key", key number), ("held", key number), ("hold-next", 0),
    ("power", 0), ("reload", 0) or ("quit", 0). A lone Esc is BACK; Shift+arrow (``ESC [1;2A``)
    is a hold."""
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
        elif char.lower() in _COMMANDS:
            actions.append((_COMMANDS[char.lower()], 0))
    return actions


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


class TerminalClock:
    """Waits for real, reads the keys meanwhile, and redraws when something changed."""

    def __init__(self, fd: int, out: TextIO, console: _SerialConsole) -> None:
        self._fd, self._out, self._console = fd, out, console
        self._origin_s: Optional[float] = None
        self._hold_next = False
        self._board_key: Any = None
        self._board_lines: list[str] = []
        self._screen = ""

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
            if select.select([self._fd], [], [], timeout)[0]:
                self._handle(board, os.read(self._fd, 256).decode(errors="ignore"))
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
            elif action == "hold-next":
                self._hold_next = not self._hold_next
            elif action == "power":
                board.toggle_power()
            elif action == "reload":
                board.reload()
            elif action == "quit":
                board.quit()

    def _draw(self, board: SimBoard) -> None:
        machine = board.machine
        board_key = (machine.i2c_bytes, machine.powered, machine.ring_bytes)
        if board_key != self._board_key:
            self._board_key = board_key
            self._board_lines = terminal_lines(board.pixels(), board.leds())
        power = "on" if machine.live else "on, firmware stopped" if machine.powered else "OFF"
        status = [
            f"t={machine.now_us / 1_000_000:8.1f} s   power: {power}",
            f"next key held {HOLD_MS} ms" if self._hold_next else "",
            f"{len(machine.crashes)} firmware error(s)" if machine.crashes else "",
            f"serial: {self._console.last_line}" if self._console.last_line else "",
        ]
        columns, rows = os.get_terminal_size(self._fd)
        if columns < TERMINAL_BOARD_SIZE[0] or rows < TERMINAL_BOARD_SIZE[1] + 2:
            status.append(
                f"enlarge the terminal to {TERMINAL_BOARD_SIZE[0]}x{TERMINAL_BOARD_SIZE[1] + 2}"
            )
        lines = [*self._board_lines, "   ".join(part for part in status if part), LEGEND]
        screen = "\x1b[H" + "\r\n".join(line + "\x1b[K" for line in lines)
        if screen != self._screen:
            self._screen = screen
            self._out.write(screen)
            self._out.flush()


@contextlib.contextmanager
def _terminal(fd: int, out: TextIO) -> Iterator[None]:
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)  # keys arrive at once and unechoed; Ctrl-C still interrupts
    out.write("\x1b[?1049h\x1b[?25l\x1b[2J")  # alternate screen, cursor hidden
    try:
        yield
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run_interactive(board: SimBoard) -> RunResult:
    """Run until q (or Ctrl-C: the first one quits cleanly, a second one interrupts)."""
    out = sys.stdout
    console = _SerialConsole()
    clock = TerminalClock(sys.stdin.fileno(), out, console)

    def quit_on_interrupt(signum: int, frame: Any) -> None:
        board.quit()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    previous = signal.signal(signal.SIGINT, quit_on_interrupt)
    try:
        # the device has one serial console for print() and tracebacks alike
        with (
            _terminal(sys.stdin.fileno(), out),
            contextlib.redirect_stdout(console),
            contextlib.redirect_stderr(console),
        ):
            return board.run_live(clock)
    finally:
        signal.signal(signal.SIGINT, previous)
