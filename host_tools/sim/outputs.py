"""What a run of ``python -m host_tools sim`` writes where its options ask: the simulated
board's (``cli.py``) and the emulated ones' (``host_tools.pico.cli``), which both import it."""

import argparse
import json
from typing import Any

from host_tools.sim.boards import MACROPAD
from host_tools.sim.render import write_png


def write_outputs(args: argparse.Namespace, result: Any) -> None:
    """--frames, --png, --state and --nvm from a run: the simulator's RunResult or the
    emulated Pico's PicoResult (which has no state: its command line refuses --state)."""
    if args.frames is not None:
        lines = (json.dumps(frame, ensure_ascii=False) + "\n" for frame in result.frames)
        args.frames.write_text("".join(lines), encoding="utf-8")
    if args.png is not None:
        grid = MACROPAD.led_grid if args.board in ("sim-macropad", "macropad") else None
        write_png(args.png, result.pixels, result.leds, grid=grid)
    if args.state is not None:
        text = json.dumps(result.state, indent=2, ensure_ascii=False)
        args.state.write_text(text + "\n", encoding="utf-8")
    if args.nvm is not None:
        args.nvm.write_bytes(result.nvm)
