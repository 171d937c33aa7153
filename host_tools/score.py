"""`python -m host_tools score GAME [FILE]`: score a finished game from JSON.

The same rule-core modules that run on the device (``potager.core.games.*``) behind a command
line; the contract is the shared spec score-cli.md. FILE omitted or "-": read standard input.
Success: exit 0 and one JSON object on standard output. Bad input (not JSON, a missing or
mistyped field, a value out of range, a rule broken, an unknown GAME, an unreadable FILE):
exit 2, nothing on standard output and one line on standard error naming the field.
"""

import json
import sys
from collections.abc import Callable
from pathlib import Path
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


def read_input(name: str) -> Any:
    """The parsed JSON of FILE (standard input for "-")."""
    where = "standard input" if name == "-" else name
    try:
        raw = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    except OSError as e:
        raise BadInput("FILE: cannot read " + where + ": " + (e.strerror or str(e))) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput("input: " + where + " is not UTF-8 text") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise BadInput("input: not valid JSON (nested too deeply)") from None
    except ValueError as e:  # JSONDecodeError, or an integer too long to convert
        raise BadInput("input: not valid JSON (" + str(e) + ")") from None


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
    write(json.dumps(out, ensure_ascii=False) + "\n", sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
