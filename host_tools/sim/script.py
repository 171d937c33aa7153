"""Board scripts: one command a line, ``#`` starts a comment, blank lines are fine.

=====================  =================================================================
``press KEY``          down for 60 ms, then up for 20 ms (80 ms pass)
``hold KEY MS``        down for MS milliseconds, then up for 20 ms (MS + 20 ms pass)
``wait MS``            MS milliseconds of virtual time pass
``power-cut``          the power disappears (nothing happens if it is already off)
``tear-next-write N``  the power goes after N bytes of the next NVM write's programming
                       (from the sector's start if it erases: 0 cuts inside the erase)
``boot``               the power comes back (if it is on: a reset, i.e. a cut then power)
``reload``             a soft reload (autoreload, Ctrl-D): code.py starts again; RAM is
                       lost, the modules are imported anew; the power, the ticks, the NVM
                       and the display (with the pins its bus holds) stay
``turn N``             the encoder (MacroPad) turned N detents, signed: +1 clockwise
                       (DOWN), -1 anticlockwise (UP), TURN_DETENT_MS a detent
=====================  =================================================================

KEY is one of UP DOWN LEFT RIGHT OK BACK TURN (key numbers 0 to 6), pressed on the board's key
for that function, or on the MacroPad one of its own keys KEY1 to KEY12 and ENCODER (the
encoder's switch). A key is up for 20 ms after each press or hold because keypad scans every
20 ms: two presses with no gap between them would be one long press on the board.
"""

import re
from dataclasses import dataclass
from typing import Optional

from host_tools.sim.boards import SCRIPT_KEYS, BoardDefinition

PRESS_MS = 80  # a press and the gap after it
RELEASE_MS = 20  # up after each press or hold: one keypad scan sees it
TURN_DETENT_MS = 20  # a detent is four changes of the encoder's (A, B), 5 ms apart

# command -> its arguments
_SYNTAX = {
    "press": ("KEY",),
    "hold": ("KEY", "MS"),
    "wait": ("MS",),
    "power-cut": (),
    "tear-next-write": ("N",),
    "boot": (),
    "reload": (),
    "turn": ("N",),
}


class ScriptError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Command:
    """``press`` is read as ``hold KEY 60``."""

    name: str  # hold, wait, power-cut, tear-next-write, boot, reload or turn
    key: Optional[int] = None  # an index in SCRIPT_KEYS
    number: int = 0  # MS or N (detents, signed, for turn)
    line: int = 0


def parse_script(text: str) -> list[Command]:
    """The commands of a script; raises ScriptError for the first bad line."""
    return [
        command
        for number, line in enumerate(text.splitlines(), start=1)
        if (command := _parse_line(number, line.partition("#")[0].split())) is not None
    ]


def _parse_line(line: int, words: list[str]) -> Optional[Command]:
    if not words:
        return None
    name, args = words[0], words[1:]
    if name not in _SYNTAX:
        raise ScriptError(line, f"unknown command {name!r} (commands: {', '.join(_SYNTAX)})")
    expected = _SYNTAX[name]
    if len(args) != len(expected):
        usage = " ".join((name, *expected))
        raise ScriptError(line, f"{name!r} takes {len(expected)} argument(s): {usage}")
    values = dict(zip(expected, args, strict=True))
    key = _key(line, values["KEY"]) if "KEY" in values else None
    if name == "press":
        return Command("hold", key, PRESS_MS - RELEASE_MS, line)
    if name == "turn":
        if not re.fullmatch(r"[+-]?[1-9][0-9]*", values["N"]):
            raise ScriptError(
                line, f"N (detents) must be a signed whole number, not {values['N']!r}"
            )
        return Command(name, None, int(values["N"]), line)
    number = _number(line, name, values.get("MS") or values.get("N") or "0")
    if name == "hold" and number == 0:
        raise ScriptError(line, "'hold' needs MS of at least 1")
    return Command(name, key, number, line)


def _key(line: int, word: str) -> int:
    if word not in SCRIPT_KEYS:
        raise ScriptError(line, f"unknown key {word!r} (keys: {' '.join(SCRIPT_KEYS)})")
    return SCRIPT_KEYS.index(word)


def check_board(commands: list[Command], board: BoardDefinition) -> None:
    """Raises ScriptError for the first command this board cannot do: a key it does not have,
    a turn without an encoder."""
    for command in commands:
        if command.key is not None and board.key_pin(command.key) is None:
            name = SCRIPT_KEYS[command.key]
            keys = " ".join(board.key_names())
            raise ScriptError(
                command.line, f"the {board.board_id} has no key {name} (keys: {keys})"
            )
        if command.name == "turn" and board.encoder is None:
            raise ScriptError(command.line, f"the {board.board_id} has no encoder to turn")


def _number(line: int, name: str, word: str) -> int:
    if not re.fullmatch(r"[0-9]+", word):
        what = "N (a byte count)" if name == "tear-next-write" else "MS (milliseconds)"
        raise ScriptError(line, f"{what} must be a whole number, not {word!r}")
    return int(word)
