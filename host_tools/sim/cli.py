"""``python -m host_tools sim``: the simulated board from the command line.

Exit codes: 0 the run went through; 1 the firmware raised (traceback on stderr), also when
its own recovery caught the exception, unless ``--allow-crashes``; 2 bad usage, a bad script
(one line naming the line and the fault, nothing run) or a bad NVM file.
"""

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from host_tools.sim.boards import KEY_NAMES, MACROPAD, MACROPAD_KEY_NAMES, PICO
from host_tools.sim.machine import NVM_SIZE
from host_tools.sim.outputs import write_outputs
from host_tools.sim.runner import DEFAULT_FIRMWARE, RunResult, SimBoard
from host_tools.sim.script import Command, ScriptError, check_board, parse_script
from host_tools.sim.tui import ENCODER_LEGEND, LEGEND, run_interactive, terminal_problem

# --board: the simulated boards (the others are emulated: host_tools.pico)
SIM_BOARDS = {"sim": PICO.board_id, "sim-macropad": MACROPAD.board_id}


_OWN_KEYS = (
    f"{MACROPAD_KEY_NAMES[0]}..{MACROPAD_KEY_NAMES[-2]}, {MACROPAD_KEY_NAMES[-1]} (its switch)"
)


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools sim",
        description="Run the firmware on the simulated board: a terminal UI in real time, "
        "or a script in virtual time with --headless.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"""script: one command a line, '#' starts a comment
  press KEY | hold KEY MS | wait MS | power-cut | tear-next-write N | boot | reload | turn N
  (reload: a soft reload, as Ctrl-D or autoreload: RAM lost; power, ticks, NVM, display kept)
  KEY: {" ".join(KEY_NAMES)}; on the MacroPad also {_OWN_KEYS}
  turn N: the MacroPad's encoder, N detents (+ clockwise = DOWN, - = UP), 20 ms each
terminal UI keys:
  {LEGEND}
  MacroPad: {ENCODER_LEGEND}
exit status: 0 ran, 1 firmware exception, 2 bad usage, script or NVM file""",
    )
    parser.add_argument("--headless", action="store_true", help="no UI: run --script")
    parser.add_argument("--script", type=Path, metavar="FILE", help="commands to run")
    parser.add_argument("--frames", type=Path, metavar="OUT.jsonl", help="one frame a line")
    parser.add_argument("--png", type=Path, metavar="OUT.png", help="the board at the end")
    parser.add_argument("--state", type=Path, metavar="OUT.json", help="state at the end")
    parser.add_argument(
        "--nvm", type=Path, metavar="NVM.bin", help="NVM image: read if it exists, written back"
    )
    parser.add_argument(
        "--allow-crashes",
        action="store_true",
        help="exceptions the firmware's recovery caught do not fail the run",
    )
    parser.add_argument(
        "--firmware", type=Path, default=DEFAULT_FIRMWARE, metavar="DIR", help="has code.py"
    )
    pico = parser.add_argument_group(
        "the emulated boards (--board pico, macropad): the real CircuitPython firmware in rp2040js"
    )
    pico.add_argument(
        "--board",
        choices=tuple(SIM_BOARDS) + ("pico", "macropad"),
        default="sim",
        help="sim: the simulated Pico (default); sim-macropad: the simulated MacroPad RP2040; "
        "pico, macropad: the emulated ones",
    )
    pico.add_argument("--uf2", type=Path, metavar="PATH", help="CircuitPython UF2 (10.2.1)")
    pico.add_argument("--py", action="store_true", help="deploy .py sources, not .mpy")
    parser.add_argument(
        "--drive",
        type=Path,
        metavar="DIR",
        help="files that appear on the CIRCUITPY drive beside code.py (e.g. players.txt)",
    )
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    if args.board == "pico":
        from host_tools.pico.cli import run_pico

        return run_pico(args)
    if args.board == "macropad":
        from host_tools.pico.cli import run_macropad

        return run_macropad(args)
    if args.uf2 is not None or args.py:
        print("sim: --uf2 and --py are for --board pico or macropad", file=sys.stderr)
        return 2
    try:
        board, script = _prepare(args)
    except _UsageError as error:
        print(f"sim: {error}", file=sys.stderr)
        return 2
    if script is not None:
        result = board.run_script(script)
    else:
        result = run_interactive(board)
    write_outputs(args, result)
    return _report(result, allow_caught=args.allow_crashes)


def _prepare(args: argparse.Namespace) -> tuple[SimBoard, Optional[list[Command]]]:
    """Everything that can refuse the run, checked before anything runs."""
    if args.headless and args.script is None:
        raise _UsageError("--headless needs --script FILE")
    if args.script is not None and not args.headless:
        raise _UsageError("--script runs only with --headless")
    script = None
    if args.script is not None:
        try:
            script = parse_script(args.script.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise _UsageError(f"cannot read the script {args.script}: {error}") from None
        except ScriptError as error:
            raise _UsageError(f"{args.script}:{error.line}: {error.message}") from None
    elif not sys.stdin.isatty():
        raise _UsageError(
            "the interactive board needs a terminal (stdin is not a TTY); "
            "for scripts use --headless --script FILE"
        )
    elif (problem := terminal_problem()) is not None:
        raise _UsageError(problem)
    nvm = None
    if args.nvm is not None and args.nvm.exists():
        nvm = args.nvm.read_bytes()
        if len(nvm) != NVM_SIZE:
            raise _UsageError(f"{args.nvm} has {len(nvm)} bytes; an NVM image has {NVM_SIZE}")
    board_id = SIM_BOARDS[args.board]
    try:
        if nvm is None:
            board = SimBoard(args.firmware, drive=args.drive, board_id=board_id)
        else:
            board = SimBoard(args.firmware, nvm=nvm, drive=args.drive, board_id=board_id)
    except (FileNotFoundError, FileExistsError) as error:
        raise _UsageError(str(error)) from None
    if script is not None:
        try:
            check_board(script, board.definition)
        except ScriptError as error:
            raise _UsageError(f"{args.script}:{error.line}: {error.message}") from None
    return board, script


def _report(result: RunResult, *, allow_caught: bool) -> int:
    for warning in result.warnings:
        print(f"sim: warning: {warning}", file=sys.stderr)
    failures = [crash for crash in result.crashes if not (crash.caught and allow_caught)]
    for crash in failures:
        how = "caught by the firmware's recovery" if crash.caught else "not caught"
        print(f"sim: firmware error at t={crash.t_ms} ms ({how}):", file=sys.stderr)
        print(crash.traceback, end="", file=sys.stderr)
    return 1 if failures else 0
