"""``python -m host_tools COMMAND [ARGS...]``: one module per command.

A command is the module ``host_tools.<name>`` with a ``main(argv) -> int`` (the exit code),
or for a package (MODULES) the module named there; it is imported only when asked for, so one
tool's dependencies never slow or break another. To add a command: write that module and list
it in COMMANDS.
"""

import importlib
import sys
from typing import Optional, Sequence

COMMANDS = {
    "sim": "run the firmware on the simulated board (terminal UI, or --headless --script)",
    "score": "score a finished game from JSON with the device's rule core",
    "deploy": "copy the firmware to a CIRCUITPY drive",
    "bundle": "zip the CIRCUITPY drive's files, one zip per CircuitPython major",
    "export": "finished games from USB serial or an NVM image: CSV, JSON, PNG, BG Stats",
    "bench": "measure the budgets (display traffic, heap, flash wear)",
    "cuts": "power cuts in pairs over whole games: each boot resumes the last save",
    "explore": "walk every screen by every key: ways out, help, power cuts, clocks, coverage",
}
# the commands that are packages: the module with their main(), the package's command line
MODULES = {"sim": "sim.cli"}


def _usage() -> str:
    lines = ["usage: python -m host_tools COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<8} {summary}" for name, summary in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_usage(), file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(
            f"host_tools: unknown command {name!r} (commands: {', '.join(COMMANDS)})",
            file=sys.stderr,
        )
        return 2
    module_name = f"{__package__ or 'host_tools'}.{MODULES.get(name, name)}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        print(f"host_tools: the {name!r} command is not written yet", file=sys.stderr)
        return 2
    return int(module.main(rest))


if __name__ == "__main__":
    sys.exit(main())
