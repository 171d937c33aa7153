"""``python -m host_tools sim --board pico --headless --script FILE ...``: the script on the
emulated Pico, with the simulator's outputs (frames, PNG, NVM) and exit codes."""

import argparse
import sys

from host_tools.pico.board import KitMissing, PicoBoard, PicoResult
from host_tools.sim.cli import write_outputs
from host_tools.sim.machine import NVM_SIZE
from host_tools.sim.script import ScriptError, parse_script


def run_pico(args: argparse.Namespace) -> int:
    if not args.headless or args.script is None:
        print("sim: --board pico runs only with --headless --script FILE", file=sys.stderr)
        return 2
    if args.state is not None:
        print("sim: --state is not available on the emulated Pico", file=sys.stderr)
        return 2
    try:
        script = parse_script(args.script.read_text(encoding="utf-8"))
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
        board = PicoBoard(uf2=args.uf2, py=args.py, drive=args.drive, **kwargs)
    except KitMissing as error:
        print(f"sim: {error}", file=sys.stderr)
        return 2
    result = board.run_script(script)
    write_outputs(args, result)
    return report(result, allow_caught=args.allow_crashes)


def report(result: PicoResult, *, allow_caught: bool) -> int:
    failures = list(result.errors) + ([] if allow_caught else list(result.caught))
    for failure in failures:
        print("sim: firmware error on the emulated Pico's console:", file=sys.stderr)
        print(failure.rstrip("\r\n").replace("\r\n", "\n"), file=sys.stderr)
    return 1 if failures else 0
