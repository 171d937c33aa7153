"""`make bench`: deterministic measures on the simulated board and under real MicroPython,
each beside the naive way measured in the same run. Writes bench/results.json, prints a table.

Sessions: the demo scripts of every mode, docs/scripts/<mode>.txt (as in docs/bench.md).
- display: I2C bytes per key press (the frames between one key's start and the next key's),
  against redrawing the full frame on every press (1037 bytes);
- heap: the smallest `-X heapsize` (KiB, bisected) in which the App runs the whole session
  under MicroPython from .py (host_tools/mpy/run_app.py, pure fakes for the hardware);
  the heap growth over 10,000 idle loop steps;
- nvm: flash writes and sector erases per session against one write (one sector rewrite) per
  state change, shortest interval, bytes per record; the saves between two erases in a game
  played on (history empty, then full);
- host: simulator key presses per second (headless), the score CLI on a full 4-player
  Arboretum end state; bytes of firmware deployed;
- presses: key presses (press and hold lines) of each whole game in tests/fullgames/, against
  the same game played with the keys as they were (tests/fullgames/before/, same final state);
- pico: the demo sessions on the emulated Pico, real CircuitPython (host_tools/pico/bench.py
  ``measure``): heap, key and screen times, boot; ``--pico`` measures only that;
- resume: power back to the saved game on screen, each mode's game saved mid-way, and a
  reset with no game saved (the boot budget's case), on the emulated Pico and in the
  simulator (host_tools/pico/bench.py ``resume``). ``--resume``
  measures only that and puts it into bench/results.json and docs/bench.md's resume table;
- macropad: the demo sessions on the emulated MacroPad RP2040 beside the simulated MacroPad
  (host_tools/pico/bench.py ``macropad_measure``); ``--macropad`` measures only that.
"""

import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from host_tools.common import SCRIPTS, firmware, sessions

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FULL_GAMES = ROOT / "tests" / "fullgames"
RESULTS = ROOT / "bench" / "results.json"
HARNESS = ROOT / "host_tools" / "mpy"  # the pure board and its runner: plain Python for the VMs
# the whole game of each mode that tests/test_circuitpython_vm.py plays on CircuitPython's VM
# (its GAMES), as files: the host tools import nothing from tests/ (test_budgets.py compares)
VM_GAMES = ROOT / "bench" / "games"
MICROPYTHON = Path(sys.executable).parent / "micropython"
FULL_FRAME = 1037
TABLE_PACE_MS = 1000  # between two keys at the table (core.saving's quiet time: a save between)
KEY_COMMANDS = ("hold",)


def press_windows(script):
    """(start, end) of every key in virtual ms, from the script's own timing."""
    from host_tools.sim import parse_script
    from host_tools.sim.script import RELEASE_MS

    now, starts = 0, []
    for command in parse_script(script):
        if command.name == "hold":
            starts.append(now)
            now += RELEASE_MS  # the key is up a moment after each press
        if command.name in ("hold", "wait"):
            now += command.number
    return list(zip(starts, starts[1:] + [now + 10_000], strict=True))


def at_table_pace(script):
    """The script with each key followed by TABLE_PACE_MS: a player reads the screen before
    the next key, so each key's frames are its own (typed at the demo's own pace, keys meet
    in one step while a screen loads, and their bytes cannot be told apart)."""
    out = []
    for line in script.splitlines():
        out.append(line)
        if line.split("#")[0].split()[:1] in (["press"], ["hold"]):
            out.append(f"wait {TABLE_PACE_MS}")
    return "\n".join(out) + "\n"


def display(scripts):
    """Bytes per press over every session, played at a table's pace; presses on a screen just
    booted, and presses drawn together with others, are left out."""
    from host_tools.sim import SimBoard

    per_press, presses, seconds = [], 0, 0.0
    for script in scripts.values():
        script = at_table_pace(script)
        began = time.perf_counter()
        result = SimBoard().run_script(script)
        seconds += time.perf_counter() - began
        windows = press_windows(script)
        presses += len(windows)
        for start, end in windows:
            frames = [f for f in result.frames if start <= f["t_ms"] < end]
            sent = sum(f["i2c_bytes"] for f in frames)
            if not sent:
                # handled with other keys in one step while a screen was loading, as on the
                # board: its bytes are in that step's frame
                continue
            if sent < FULL_FRAME or not any(f["i2c_bytes"] >= FULL_FRAME for f in frames):
                per_press.append(sent)
    return per_press, presses / seconds


def run_app(script_path, heap, idle=0):
    env = {"MICROPYPATH": f"{FIRMWARE}:{HARNESS}", "PATH": "/usr/bin:/bin"}
    args = [str(MICROPYTHON), "-X", f"heapsize={heap}K", str(HARNESS / "run_app.py")]
    args += [str(script_path)] + ([str(idle)] if idle else [])
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    return json.loads(done.stdout) if done.returncode == 0 else None


def smallest_heap(script_path, low=16, high=512):
    """Bisect the heap in KiB; a heap counts as enough when it and the next 8 KiB both run
    (fragmentation makes single sizes lucky)."""

    def enough(kib):
        return run_app(script_path, kib) is not None and run_app(script_path, kib + 8) is not None

    if not enough(high):
        return None
    while high - low > 2:
        mid = (low + high) // 2
        if enough(mid):
            high = mid
        else:
            low = mid
    return high


def flash(scripts):
    """NVM writes and sector erases per session (App on pure fakes, a flash that erases as the
    RP2040 does), the naive counts, the shortest interval, bytes per record; then the session
    carried on with a key every 2.1 s until the journal fills: the saves one erase allows."""
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))
    from host_tools.mpy.pureboard import PureBoard
    from host_tools.sim.machine import Flash
    from potager.core import persist
    from potager.saving import Saving

    writes, naive, erases, record_bytes, between, gaps = {}, {}, {}, {}, {}, []
    changes = [0]
    original = Saving.mark

    def counting(self, now):
        changes[0] += 1  # a naive device writes on every change
        original(self, now)

    Saving.mark = counting  # type: ignore[method-assign]
    try:
        for mode, script in scripts.items():
            changes[0] = 0
            nvm = Flash()
            board = PureBoard(nvm)
            board.script(script)
            board.run(5000)
            writes[mode], erases[mode] = len(board.writes), nvm.erases
            naive[mode] = changes[0]
            gaps += [b - a for a, b in zip(board.writes, board.writes[1:], strict=False)]
            if board.app is None:
                board.boot()
            record_bytes[mode] = record_sizes(persist.Store(nvm))
        for label, games in (("empty history", 0), ("full history", 200)):
            between[label] = saves_between_erases(PureBoard, Flash, games)
    finally:
        Saving.mark = original  # type: ignore[method-assign]
    return {
        "writes_per_game": writes,
        "naive_writes_per_game": naive,
        "erases_per_game": erases,
        "min_interval_ms": min(gaps) if gaps else None,
        "bytes_per_record": record_bytes,
        "saves_between_erases": between,
    }


def record_sizes(store):
    """[bytes of the snapshot, mean bytes of a delta] in the journal (headers included)."""
    from potager.core import scan

    scan.load(store)
    sizes: dict[int, list[int]] = {0: [], 1: []}
    for kind, _, length in store.records:
        sizes[kind].append(length + 12)
    return [
        round(statistics.mean(sizes[k]), 1) if sizes[k] else None for k in (0, 1)
    ]  # fmt: skip


def saves_between_erases(board_class, flash_class, games):
    """A 4-player free game played on, a key every 2.1 s (one save each), from the first erase
    to the second; `games` finished games in the history first (it keeps what fits)."""
    nvm = flash_class()
    board = board_class(nvm)
    board.script("press DOWN\npress OK\npress OK\npress OK\n")  # English, free score, start
    if board.app.engine is None:
        raise RuntimeError("the setup keys did not start a game")
    history = board.app.history
    for seq in range(1, games + 1):
        history.append([seq, "free", [0, 1, 2, 3], [120, 95, 143, 87], [2]])
    board.app.saving.room(history)
    board.app.mark_unsaved()
    saves, erases = 0, None
    for _ in range(20_000):  # bounded by keys: keys that save nothing must not loop forever
        if saves >= 5000:
            break
        before = board.app.store.writes
        board.script("press RIGHT\nwait 2100" if saves % 4 else "press TURN\nwait 2100")
        if erases is not None and board.app.store.writes != before:
            saves += 1
        if nvm.erases != erases:
            if erases is not None:
                return saves
            erases, saves = nvm.erases, 0
    return None


def player_ranges() -> dict[str, tuple[int, int]]:
    """{mode: (fewest, most) players}, from the firmware's registry."""
    registry = firmware("potager.core.registry")
    return {m[registry.KEY]: (m[registry.LOW], m[registry.HIGH]) for m in registry.MODES}


PLAYER_RANGES = player_ranges()


def history_fit():
    """{mode: {players: games kept}}: finished games filed by the firmware's own history.add
    (two-digit totals, one winner, as most games end) until End game has to drop the oldest."""
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))
    from potager.core import history as records
    from potager.saving import Saving

    saving = Saving(None, 0)
    fit: dict[str, dict[int, int]] = {}
    for mode, (low, high) in PLAYER_RANGES.items():
        fit[mode] = {}
        for n in range(low, high + 1):
            kept: list = []
            while True:  # as End game does: file one more, then make room
                before = len(kept) + 1
                totals, clock = [40 + p for p in range(n)], [0, 1800, 3, 5400]  # 30 min
                records.add(kept, mode, list(range(n)), totals, [n - 1], None, clock)
                if before - len(kept) + saving.room(kept):
                    break
            fit[mode][n] = len(kept)
    return fit


def history_table(fit):
    widest = max(max(by_n) for by_n in fit.values())
    head = "| mode | " + " | ".join(f"{n} pl." for n in range(1, widest + 1)) + " |"
    lines = [head, "| --- |" + " --- |" * widest]
    for mode, by_n in fit.items():
        cells = [str(by_n[n]) if n in by_n else "" for n in range(1, widest + 1)]
        lines.append(f"| {mode} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def arboretum_layout(rng):
    """A legal 4-player end state: 10 species, 7 cards in hand, long snaking arboretums."""
    species = [chr(ord("a") + i) + "tree" for i in range(10)]
    deck = [s + str(v) for s in species for v in range(1, 9)]
    rng.shuffle(deck)
    players = []
    for p in range(4):
        hand, placed = deck[:7], deck[7:25]
        deck = deck[25:]
        cells = [{"card": c, "x": i % 6, "y": i // 6} for i, c in enumerate(placed)]
        players.append({"name": "P" + str(p + 1), "hand": hand, "arboretum": cells})
    return {"players": players, "species": species}


def arboretum_cli_ms():
    data = json.dumps(arboretum_layout(random.Random(7)))
    cmd = [sys.executable, "-m", "host_tools", "score", "arboretum"]
    best = None
    for _ in range(3):
        began = time.perf_counter()
        done = subprocess.run(cmd, input=data, capture_output=True, text=True, cwd=ROOT)
        elapsed = (time.perf_counter() - began) * 1000
        if done.returncode != 0:
            raise SystemExit("bench: arboretum CLI failed: " + done.stderr.strip())
        best = elapsed if best is None else min(best, elapsed)
    return round(best or 0.0, 1)


def count_presses(text):
    return sum(
        1 for line in text.splitlines() if line.split("#")[0].split()[:1] in (["press"], ["hold"])
    )


def full_game_presses():
    """{game: (presses now, presses with the keys as they were)}: the games played both ways
    (the corner games, *-tie and *-solo, were written for today's keys only)."""
    out = {}
    for path in sorted(FULL_GAMES.glob("*.txt")):
        before = FULL_GAMES / "before" / path.name
        if before.is_file():
            out[path.stem] = (count_presses(path.read_text()), count_presses(before.read_text()))
    return out


def deploy_bytes():
    return sum(
        p.stat().st_size
        for p in FIRMWARE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(".license")
    )


def circuitpython_measures():
    """On CircuitPython's own 32-bit VM (the CircuitPython kit, host_tools/cpkit.py): the
    smallest heap in which a whole scripted game of each mode runs (the games of
    tests/test_circuitpython_vm.py, kept in bench/games/), from .py and from .mpy; the bytes
    deploy puts on the drive (firmware and libraries) as .py and as .mpy. None where the kit
    is absent."""
    import tempfile

    from host_tools import cpkit
    from host_tools.drive import circuitpy_files

    if cpkit.missing(cpkit.VM, cpkit.MPY_CROSS):
        print("bench: " + str(cpkit.missing(cpkit.VM, cpkit.MPY_CROSS)), file=sys.stderr)
        return None
    games = {path.stem: path.read_text(encoding="utf-8") for path in sorted(VM_GAMES.glob("*.txt"))}
    cross = cpkit.executable(cpkit.MPY_CROSS)
    assert cross is not None  # cpkit.missing said it is there
    heaps = {}
    with tempfile.TemporaryDirectory(prefix="potager-bench-") as tmp:
        compiled = Path(tmp, "mpy")
        cpkit.compile_tree(cross, [FIRMWARE / "potager"], compiled / "potager")
        cpkit.compile_tree(cross, [HARNESS], compiled)
        paths = {"py": [FIRMWARE, HARNESS], "mpy": [compiled]}
        for mode, script in games.items():
            game = Path(tmp, mode + ".txt")
            game.write_text(script)
            for form, path in paths.items():

                def runs(kib, game=game, path=path):
                    run = cpkit.run_vm(HARNESS / "run_app.py", game, heap=f"{kib}K", path=path)
                    return run.returncode == 0

                heaps[f"{mode} {form}"] = _smallest(runs)
    sizes = {}
    for form, mpy_cross in (("py", None), ("mpy", cross)):
        sizes[form] = sum(len(data) for data in circuitpy_files(mpy_cross).values())
    return {"heap_kib": heaps, "drive_bytes": sizes}


def _smallest(runs, low=16, high=512):
    """Bisect the heap in KiB; enough when it and the next 8 KiB both run (as smallest_heap)."""

    def enough(kib):
        return runs(kib) and runs(kib + 8)

    if not enough(high):
        return None
    while high - low > 2:
        mid = (low + high) // 2
        if enough(mid):
            high = mid
        else:
            low = mid
    return high


def circuitpython_rows(results):
    found = results.get("circuitpython")
    if not found:
        return ["| smallest heap, CircuitPython 32-bit VM | not measured (no kit) | | |"]
    heaps = found["heap_kib"]
    lines = []
    for mode in sorted({key.split()[0] for key in heaps}):
        py, mpy = heaps.get(mode + " py"), heaps.get(mode + " mpy")
        lines.append(
            f"| smallest heap, CircuitPython 32-bit VM, .py/.mpy, {mode} game | "
            f"{py} / {mpy} KiB | a regression guard: the budget is the board's heap | |"
        )
    size = found["drive_bytes"]
    lines.append(
        f"| deployed to the drive (firmware and libraries), .mpy | {size['mpy']} B | "
        f"{size['py']} B (.py) | {size['py'] / max(size['mpy'], 1):.1f}× less |"
    )
    return lines


def measure():
    scripts = sessions()
    per_press, presses_per_s = display(scripts)
    heap, idle = {}, None
    for mode in scripts:
        heap[mode] = smallest_heap(SCRIPTS / (mode + ".txt"))
    idle_run = run_app(SCRIPTS / "free.txt", 512, idle=10_000)
    idle = idle_run["idle_growth_bytes"] if idle_run else None
    nvm = flash(scripts)
    return {
        "display": {
            "bytes_per_press_median": statistics.median(per_press),
            "bytes_per_press_max": max(per_press),
            "naive_bytes_per_press": FULL_FRAME,
        },
        "heap_kib": heap,
        "idle_growth_bytes": idle,
        "nvm": nvm,
        "sim_presses_per_s": round(presses_per_s, 1),
        "arboretum_cli_ms": arboretum_cli_ms(),
        "deploy_bytes": deploy_bytes(),
        "circuitpython": circuitpython_measures(),
        "pico": pico_measure(scripts),
        "presses": full_game_presses(),
        "resume": resume_measure(),
        "macropad": macropad_measure(scripts),
    }


def resume_measure():
    from host_tools.pico import bench as pico_bench

    return pico_bench.resume()


def resume_table(results):
    from host_tools.pico import bench as pico_bench

    if not results.get("resume"):
        return None
    sessions = (results.get("pico") or {}).get("sessions")
    return pico_bench.resume_table(results["resume"], sessions)


def pico_measure(scripts):
    """The same sessions on the emulated Pico (None where the kit or Node is missing)."""
    from host_tools.pico import bench as pico_bench

    return pico_bench.measure(scripts)


PICO_START, PICO_END = "<!-- bench-pico -->", "<!-- /bench-pico -->"
MACROPAD_MARKS = ("<!-- bench-macropad -->", "<!-- /bench-macropad -->")


def macropad_measure(scripts):
    from host_tools.pico import bench as pico_bench

    return pico_bench.macropad_measure(scripts)


def macropad_table(results):
    from host_tools.pico import bench as pico_bench

    return pico_bench.macropad_table(results["macropad"]) if results.get("macropad") else None


def pico_table(results):
    from host_tools.pico import bench as pico_bench

    if not results.get("pico"):
        return None
    return pico_bench.table(results["pico"], results["heap_kib"])


def table(results):
    d, n = results["display"], results["nvm"]
    ratio = d["naive_bytes_per_press"] / max(d["bytes_per_press_median"], 1)
    lines = [
        "| measure | Potager | naive | ratio |",
        "| --- | --- | --- | --- |",
        f"| I2C bytes per key press, median | {d['bytes_per_press_median']:g} | "
        f"{d['naive_bytes_per_press']} (full frame) | {ratio:.1f}× less |",
        f"| I2C bytes per key press, max | {d['bytes_per_press_max']} | "
        f"{d['naive_bytes_per_press']} | |",
    ]
    for mode, kib in results["heap_kib"].items():
        lines.append(f"| smallest MicroPython heap, {mode} session | {kib} KiB | | |")
    lines.append(f"| heap growth over 10,000 idle steps | {results['idle_growth_bytes']} B | | |")
    for mode, count in n["writes_per_game"].items():
        naive = n["naive_writes_per_game"][mode]
        lines.append(
            f"| NVM writes, {mode} session | {count} | {naive} (a write per change) | "
            f"{naive / max(count, 1):.1f}× fewer |"
        )
    for mode, count in n["erases_per_game"].items():
        naive = n["naive_writes_per_game"][mode]
        lines.append(
            f"| NVM sector erases, {mode} session | {count} | {naive} (a sector rewrite per "
            f"change) | |"
        )
    for mode, (snap, delta) in n["bytes_per_record"].items():
        lines.append(
            f"| NVM record bytes, {mode} session: snapshot / delta (mean) | {snap} / {delta} "
            f"| {snap} every save | |"
        )
    for label, count in n["saves_between_erases"].items():
        lines.append(
            f"| saves between two sector erases, 4-player game, {label} | {count} | 1 "
            f"(a sector rewrite per save) | {count}× fewer erases |"
        )
    lines.append(f"| shortest interval between NVM writes | {n['min_interval_ms']} ms | | |")
    lines.append(f"| simulator key presses per second | {results['sim_presses_per_s']} | | |")
    cli_ms = results["arboretum_cli_ms"]
    lines.append(f"| score CLI, 4-player Arboretum end state | {cli_ms} ms | | |")
    lines.append(f"| firmware deployed | {results['deploy_bytes']} B | | |")
    lines += circuitpython_rows(results)
    for game, (now, before) in results.get("presses", {}).items():
        lines.append(
            f"| key presses, whole game {game} | {now} | {before} (keys before) | "
            f"{now / before:.2f} of them |"
        )
    return "\n".join(lines)


BENCH_PAGE = ROOT / "docs" / "bench.md"  # the measures, the Pico's and the resume tables
SAVING_PAGE = ROOT / "docs" / "saving.md"  # the games the history keeps
MARK_START, MARK_END = "<!-- bench -->", "<!-- /bench -->"
HISTORY_MARKS = ("<!-- history-fit -->", "<!-- /history-fit -->")
RESUME_MARKS = ("<!-- bench-resume -->", "<!-- /bench-resume -->")


def update_page(text, marks=(MARK_START, MARK_END), page=BENCH_PAGE):
    """Put the table between the page's marks (the docs keep it current); False without them."""
    doc = page.read_text(encoding="utf-8")
    head, start, rest = doc.partition(marks[0])
    _, end, tail = rest.partition(marks[1])
    if not start or not end:
        return False
    page.write_text(head + start + "\n" + text + "\n" + end + tail, encoding="utf-8")
    return True


def _written(page):
    return ", " + str(page.relative_to(ROOT))


def partial_measures():
    """The parts one flag measures alone, each into its key of the results and its table on
    docs/bench.md: (key, measure, table, marks)."""
    return {
        "--pico": ("pico", lambda: pico_measure(sessions()), pico_table, (PICO_START, PICO_END)),
        "--resume": ("resume", resume_measure, resume_table, RESUME_MARKS),
        "--macropad": ("macropad", lambda: macropad_measure(sessions()), macropad_table,
                       MACROPAD_MARKS),
    }  # fmt: skip


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    parts = partial_measures()
    unknown = [a for a in args if a not in (*parts, "-h", "--help")]
    if unknown or "-h" in args or "--help" in args or len(args) > 1:
        # (a mistyped flag must not start an hour)
        print(
            "usage: python -m host_tools bench [--pico | --resume | --macropad]\n\n"
            + (__doc__ or "").strip()
            + "\n\n  --pico      measure only the demo sessions on the emulated Pico; update"
            + " its table"
            + "\n  --resume    measure only the resume; update its table"
            + "\n  --macropad  measure only the emulated MacroPad; update its table",
            file=sys.stderr if unknown or len(args) > 1 else sys.stdout,
        )
        if unknown:
            print(f"bench: unknown argument {unknown[0]!r}", file=sys.stderr)
        elif len(args) > 1:
            print("bench: one part at a time", file=sys.stderr)
        return 2 if unknown or len(args) > 1 else 0
    if args:
        key, measure_part, part_table, marks = parts[args[0]]
        results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
        results[key] = measure_part()
        text = part_table(results)
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=2) + "\n")
        print(text)
        written = text is not None and update_page(text, marks)
        for _key, _measure, other_table, other_marks in parts.values():
            other = other_table(results)  # the resume table shows the Pico's boots
            if other is not None and other_marks != marks:
                update_page(other, other_marks)
        print(f"\nwritten: {RESULTS.relative_to(ROOT)}" + (_written(BENCH_PAGE) if written else ""))
        return 0
    results = measure()
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    text = table(results)
    print(text)
    update_page(history_table(history_fit()), HISTORY_MARKS, SAVING_PAGE)
    pico_text = pico_table(results)
    if pico_text is not None:
        print("\n" + pico_text)
        update_page(pico_text, (PICO_START, PICO_END))
    for extra, marks in (
        (resume_table(results), RESUME_MARKS),
        (macropad_table(results), MACROPAD_MARKS),
    ):
        if extra is not None:
            print("\n" + extra)
            update_page(extra, marks)
    print(
        f"\nwritten: {RESULTS.relative_to(ROOT)}"
        + (_written(BENCH_PAGE) if update_page(text) else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
