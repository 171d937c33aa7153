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
=====================  =================================================================

KEY is one of UP DOWN LEFT RIGHT OK BACK TURN (key numbers 0 to 6). A key is up for 20 ms
after each press or hold because keypad scans every 20 ms: two presses with no gap between them
would be one long press on the board.
"""

import re
from dataclasses import dataclass
from typing import Optional

from host_tools.sim.boards import KEY_NAMES

PRESS_MS = 80  # a press and the gap after it
RELEASE_MS = 20  # up after each press or hold: one keypad scan sees it

# command -> its arguments
_SYNTAX = {
    "press": ("KEY",),
    "hold": ("KEY", "MS"),
    "wait": ("MS",),
    "power-cut": (),
    "tear-next-write": ("N",),
    "boot": (),
    "reload": (),
}


class ScriptError(ValueError):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Command:
    """``press`` is read as ``hold KEY 60``."""

    name: str  # hold, wait, power-cut, tear-next-write, boot or reload
    key: Optional[int] = None
    number: int = 0  # MS or N
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
    number = _number(line, name, values.get("MS") or values.get("N") or "0")
    if name == "hold" and number == 0:
        raise ScriptError(line, "'hold' needs MS of at least 1")
    return Command(name, key, number, line)


def _key(line: int, word: str) -> int:
    if word not in KEY_NAMES:
        raise ScriptError(line, f"unknown key {word!r} (keys: {' '.join(KEY_NAMES)})")
    return KEY_NAMES.index(word)


def _number(line: int, name: str, word: str) -> int:
    if not re.fullmatch(r"[0-9]+", word):
        what = "N (a byte count)" if name == "tear-next-write" else "MS (milliseconds)"
        raise ScriptError(line, f"{what} must be a whole number, not {word!r}")
    return int(word)
