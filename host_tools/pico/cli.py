"""``python -m host_tools sim --board pico|macropad --headless --script FILE ...``: the script
on the emulated Pico or MacroPad RP2040, with the simulator's outputs (frames, PNG, NVM) and
exit codes."""

import argparse
import sys

from host_tools.pico.board import KitMissing, MacroPadBoard, PicoBoard, PicoResult
from host_tools.sim.machine import NVM_SIZE
from host_tools.sim.outputs import write_outputs
from host_tools.sim.script import ScriptError, check_board, parse_script


def run_pico(args: argparse.Namespace) -> int:
    return run_emulated(args, PicoBoard)


def run_macropad(args: argparse.Namespace) -> int:
    return run_emulated(args, MacroPadBoard)


def run_emulated(args: argparse.Namespace, board_class: type[PicoBoard]) -> int:
    option, name = f"--board {args.board}", board_class.name
    if not args.headless or args.script is None:
        print(f"sim: {option} runs only with --headless --script FILE", file=sys.stderr)
        return 2
    if args.state is not None:
        print(f"sim: --state is not available on the emulated {name}", file=sys.stderr)
        return 2
    try:
        script = parse_script(args.script.read_text(encoding="utf-8"))
        check_board(script, board_class.definition)
    except (OSError, UnicodeDecodeError) as error:
        print(f"sim: cannot read the script {args.script}: {error}", file=sys.stderr)
        return 2
    except ScriptError as error:
        print(f"sim: {args.script}:{error.line}: {error.message}", file=sys.stderr)
        return 2
    nvm = None
    if args.nvm is not None and args.nvm.exists():
        nvm = args.nvm.read_bytes()
        if len(nvm) != NVM_SIZE:
            print(
                f"sim: {args.nvm} has {len(nvm)} bytes; an NVM image has {NVM_SIZE}",
                file=sys.stderr,
            )
            return 2
    if args.drive is not None and not args.drive.is_dir():
        print(f"sim: --drive {args.drive} is not a folder", file=sys.stderr)
        return 2
    if args.uf2 is not None and not args.uf2.is_file():
        print(f"sim: no UF2 at {args.uf2}", file=sys.stderr)
        return 2
    try:
        kwargs = {} if nvm is None else {"nvm": nvm}
        board = board_class(uf2=args.uf2, py=args.py, drive=args.drive, **kwargs)
    except KitMissing as error:
        print(f"sim: {error}", file=sys.stderr)
        return 2
    result = board.run_script(script)
    write_outputs(args, result)
    return report(result, allow_caught=args.allow_crashes, name=name)


def report(result: PicoResult, *, allow_caught: bool, name: str = "Pico") -> int:
    failures = list(result.errors) + ([] if allow_caught else list(result.caught))
    for failure in failures:
        print(f"sim: firmware error on the emulated {name}'s console:", file=sys.stderr)
        print(failure.rstrip("\r\n").replace("\r\n", "\n"), file=sys.stderr)
    return 1 if failures else 0
