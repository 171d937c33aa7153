"""`python -m host_tools score GAME [FILE]`: score a finished game from JSON.

The same rule-core modules that run on the device (``potager.core.games.*``) behind a command
line; the contract is the shared spec score-cli.md. FILE omitted or "-": read standard input.
Success: exit 0 and one JSON object on standard output. Bad input (not JSON, a missing or
mistyped field, a value out of range, a rule broken, an unknown GAME, an unreadable FILE):
exit 2, nothing on standard output and one line on standard error naming the field.
"""

import argparse
import json
import os
import stat
import sys
from collections.abc import Callable
from typing import Any

from host_tools.common import firmware, write_utf8

# What scores the games of each name the device files them under (its registry's FILED):
# (module in potager.core.games, function); the names it does not score (UNSCORED: a free
# score's totals are the players' own). tests/test_registry.py checks every name is in one.
SCORERS: dict[str, tuple[str, str]] = {
    "diced_tomatoes": ("diced_tomatoes_score", "score"),
    "horticolor": ("horticolor_score", "score"),
    "hortis-automne": ("hortis_score", "score_automne"),
    "hortis": ("hortis_score", "score_grove"),
    "arboretum": ("arboretum_score", "score"),
}
UNSCORED = ("free",)


def games() -> dict[str, tuple[str, str]]:
    """GAME -> (module, function): the registry's filed names in its order, "_" as "-"."""
    registry = firmware("potager.core.registry")
    filed = [name for mode in registry.MODES for name in mode[registry.FILED]]
    return {name.replace("_", "-"): SCORERS[name] for name in filed if name not in UNSCORED}


GAMES = games()
MAX_INPUT = 1 << 20  # bytes: a finished game's JSON is a few KiB
USAGE = "usage: python -m host_tools score GAME [FILE]  (GAME: " + " | ".join(GAMES) + ")"


DESCRIPTION = (
    "Score a finished game with the device's own rule core.\n"
    "GAME: " + " | ".join(GAMES) + "\n"
    'FILE: the game as one JSON object (UTF-8, at most 1 MiB); omitted or "-":\n'
    "standard input. Names are free text, unique in a game."
)
EPILOG = """games (? marks a field that may be left out):
diced-tomatoes  2-6 players, or 1 with "mode": "solo"
  mode? "multi" | "solo"   variants? {tomato_dice?, karma_overdose?,
    golden_sun?: bool, dice_bonus?: "per-3-dice" (the default) | "per-vine"}
  players: [{name, harvests: [0-6 values 1-6, in slot order], karma: 0-6,
    triggered_end: bool (one player at most, with 6 harvests),
    dice_on_vines: 0-12 ("per-3-dice") or vines_with_3_dice: 0-3 ("per-vine")}]
  e.g. {"players": [{"name": "Ana", "harvests": [6, 2, 3, 5, 5, 4], "karma": 5,
    "dice_on_vines": 2, "triggered_end": true}, {"name": "Bo", "harvests": [4],
    "karma": 1, "dice_on_vines": 7, "triggered_end": false}]}
  gives players: [{name, total, breakdown: {harvests, stars, karma, dice,
    end_trigger}}], winners; solo adds solo: {matches: 0-6, won}
horticolor  2-4 players
  players: [{name, card_points, synergy, earthworm: integers >= 0,
    validated_cards: 0-72 (0 only if the others are 0; 72 in all at most)}]
  e.g. {"players": [{"name": "Zoé", "card_points": 24, "synergy": 5,
    "earthworm": 2, "validated_cards": 9}, {"name": "Max", "card_points": 18,
    "synergy": 3, "earthworm": 0, "validated_cards": 7}]}
  gives players: [{name, total}], winners (a tie: fewer validated cards)
hortis-automne  one forest, or several: {"players": [{name, <a forest>}]}
  dice: {"1", "3", "6", "10", "15": how many dice show that face, 0-15},
  mouse_face_dice: 0-15, split_zone_dice: 0-15 (<= all dice),
  mouse_pawn: bool; 15 dice in all at most; recipes? {target: >= 0,
  bonus?: >= 0, multiplier?: >= 1} (for every player or none, one target)
  e.g. {"dice": {"1": 1, "3": 2, "6": 2, "10": 1, "15": 1}, "mouse_pawn": true,
    "split_zone_dice": 1, "mouse_face_dice": 2, "recipes": {"target": 45}}
  gives score, dice_used, band: {min, max, title_fr, title_en}, recipe? {final,
  target, won}; several: players: [{name, and those}], winners (tie: most dice)
hortis  (Grove) one grove, or several as for hortis-automne
  dice: {"2", "3", "4", "5", "6", "10": how many scoring dice show it, 0-15},
  glade_dice?: 0-15, wheelbarrow: bool, squirrel: bool,
  squirrel_adjacent_dice?: 0-4 (with the squirrel only, <= scoring dice);
  15 dice in all at most; recipes? as for hortis-automne
  e.g. {"dice": {"2": 1, "4": 2, "5": 1, "6": 1, "10": 2}, "wheelbarrow": true,
    "squirrel": true, "squirrel_adjacent_dice": 2}
  gives what hortis-automne gives, with the Grove's bands
arboretum  2-4 players
  players: [{name, hand: [cards],
    arboretum: [{card, x, y: integers (x to the east, y to the north)}]}]
  species? [the species in play, 10 at most] (default: those in the input)
  a card: a species (a-z, - or _) then its value 1-8, e.g. "royal-poinciana8";
  each card once in all, one card to a square, each arboretum connected
  e.g. {"players": [{"name": "Clark", "hand": ["oak3"], "arboretum": [{"card":
    "oak1", "x": 0, "y": 0}, {"card": "oak4", "x": 1, "y": 0}]}, {"name": "Lu",
    "hand": ["oak8"], "arboretum": [{"card": "oak5", "x": 0, "y": 0}]}]}
  gives players: [{name, total, species_in_arboretum, species: {SPECIES:
  {hand_value, may_score, score, path: [cards] or null}}}], winners
output: one JSON object, on one line, on standard output.
exit status: 0 scored; 2 refused (not JSON, a field missing, mistyped or out
  of range, a rule broken, an unknown GAME, an unreadable FILE): nothing on
  standard output and one line on standard error naming the field, e.g.
  players[1].karma: must be an integer 0-6, got 7"""


def help_text() -> str:
    """What --help prints. argparse lays it out; the command line itself is read by run(),
    which refuses in one line where argparse would print two."""
    parser = argparse.ArgumentParser(
        prog="python -m host_tools score",
        usage="%(prog)s GAME [FILE]",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
    )
    return parser.format_help()


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
        write(help_text(), sys.stdout)
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
