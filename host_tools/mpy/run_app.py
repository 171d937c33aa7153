"""Run a key script through the real App on pure fakes; print the final snapshot as JSON.

Usage (CPython, MicroPython or CircuitPython's VM, firmware/ and host_tools/mpy on the
import path):
    run_app.py SCRIPT [idle_steps]
With idle_steps, also report the heap growth over that many idle loop steps once the app
has settled (MicroPython only: gc.mem_alloc with the collector off in between).
"""

import gc
import json
import sys

from pureboard import PureBoard  # type: ignore[import-not-found]  # this folder, on the VMs' path


def main(argv):
    board = PureBoard()
    with open(argv[1]) as f:
        board.script(f)  # line by line: the harness keeps none of the script in RAM
    result = {"snapshot": board.app.snapshot() if board.app else None, "rows": board.rows()}
    result["nvm_write_times"] = board.writes
    if len(argv) > 2 and board.app is not None:
        steps = int(argv[2])
        board.run(5000)  # settle: the pending save is written and messages have gone
        app = board.app
        now = board.now
        gc.collect()
        gc.disable()
        before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        for _ in range(steps):
            now += 10
            app.step(now)
        after = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        gc.enable()
        result["idle_growth_bytes"] = after - before
    print(json.dumps(result))


main(sys.argv)
