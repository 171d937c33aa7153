"""`python -m host_tools score GAME [FILE]`: score a finished game from JSON.

The same rule-core modules that run on the device (``potager.core.games.*``) behind a command
line; the contract is the shared spec score-cli.md. FILE omitted or "-": read standard input.
Success: exit 0 and one JSON object on standard output. Bad input (not JSON, a missing or
mistyped field, a value out of range, a rule broken, an unknown GAME, an unreadable FILE):
exit 2, nothing on standard output and one line on standard error naming the field.
"""

import json
import os
import stat
import sys
from collections.abc import Callable
from typing import Any

from host_tools.common import firmware, write_utf8

# GAME -> (module in potager.core.games, function)
GAMES: dict[str, tuple[str, str]] = {
    "diced-tomatoes": ("diced_tomatoes_score", "score"),
    "horticolor": ("horticolor_score", "score"),
    "hortis-automne": ("hortis_score", "score_automne"),
    "hortis": ("hortis_score", "score_grove"),
    "arboretum": ("arboretum_score", "score"),
}
MAX_INPUT = 1 << 20  # bytes: a finished game's JSON is a few KiB
USAGE = "usage: python -m host_tools score GAME [FILE]  (GAME: " + " | ".join(GAMES) + ")"


class BadInput(Exception):
    """Input the command refuses: its message is the one line for standard error."""


def scorer(game: str) -> Callable[[Any], dict[str, Any]]:
    """The rule-core function scoring GAME."""
    if game not in GAMES:
        raise BadInput(
            "GAME: unknown game " + json.dumps(game) + " (known: " + ", ".join(GAMES) + ")"
        )
    module, function = GAMES[game]
    fn: Callable[[Any], dict[str, Any]] = getattr(
        firmware("potager.core.games." + module), function
    )
    return fn


def read_bounded(name: str) -> bytes:
    """At most MAX_INPUT + 1 bytes of FILE (standard input for "-"); a FILE that is not a
    regular file (a folder, /dev/zero, a FIFO) is refused before any read."""
    where = "standard input" if name == "-" else name
    try:
        if name == "-":
            return bytes(sys.stdin.buffer.read(MAX_INPUT + 1))
        info = os.stat(name)
        if not stat.S_ISREG(info.st_mode):
            raise BadInput(
                "FILE: cannot read " + where + ": not a regular file (a folder, a device or a FIFO)"
            )
        if info.st_size > MAX_INPUT:
            return b"x" * (MAX_INPUT + 1)
        with open(name, "rb") as f:
            return bytes(f.read(MAX_INPUT + 1))
    except OSError as e:
        raise BadInput("FILE: cannot read " + where + ": " + (e.strerror or str(e))) from None


def _check_strings(data: Any) -> None:
    """Refuse a string (or key) that is not Unicode text: JSON's "\\ud800" (a lone surrogate)
    decodes to one, which no output can carry."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise BadInput(
                    "input: a string holds a lone surrogate (" + ascii(value)[:40] + ")"
                ) from None


def read_input(name: str) -> Any:
    """The parsed JSON of FILE (standard input for "-"), at most MAX_INPUT bytes."""
    where = "standard input" if name == "-" else name
    return json_input(read_bounded(name), where)


def json_input(raw: bytes, where: str) -> Any:
    """The parsed JSON of `raw` read from `where`; BadInput naming what is wrong."""
    if len(raw) > MAX_INPUT:
        raise BadInput("input: %s holds more than %d bytes: not a game" % (where, MAX_INPUT))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput("input: " + where + " is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise BadInput("input: not valid JSON (nested too deeply)") from None
    except ValueError as e:  # JSONDecodeError, or an integer too long to convert
        raise BadInput("input: not valid JSON (" + str(e)[:200] + ")") from None
    _check_strings(data)
    return data


def run(argv: list[str]) -> dict[str, Any]:
    """The output object for the command line argv (GAME [FILE]); BadInput if refused."""
    if not argv or len(argv) > 2 or argv[0].startswith("-"):
        raise BadInput(USAGE)
    fn = scorer(argv[0])
    data = read_input(argv[1] if len(argv) > 1 else "-")
    try:
        return fn(data)
    except ValueError as e:
        raise BadInput(str(e)) from None
    except RecursionError:
        raise BadInput("input: nested too deeply") from None
    except Exception as e:  # a bug in the rule core: still one line, never a traceback
        raise BadInput(
            "internal error while scoring (" + type(e).__name__ + ": " + str(e) + ")"
        ) from None


def write(text: str, stream: Any) -> None:
    write_utf8(stream, text)


def main(argv: list[str] | None = None) -> int:
    """Run `score GAME [FILE]`; returns the exit code (0 scored, 2 refused)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args in (["-h"], ["--help"]):
        write(USAGE + "\n", sys.stdout)
        return 0
    try:
        out = run(args)
    except BadInput as e:
        write(" ".join(str(e).split()) + "\n", sys.stderr)
        return 2
    try:
        text = json.dumps(out, ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except (ValueError, TypeError, UnicodeEncodeError) as e:  # never a traceback
        write("internal error: the result is not JSON (" + str(e) + ")\n", sys.stderr)
        return 2
    write(text + "\n", sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
