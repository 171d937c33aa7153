"""``python -m host_tools cuts SCRIPT...``: power cuts in pairs over whole games.

Each game is played at a table's slowest pace (a pause after each key, so each key is saved on
its own) as a device's second game: another mode's whole game comes first (PREVIOUS), so that
the game under test fills the 4 KiB journal and compacts it. Then:

1. the power is cut inside each NVM write of the games (inside the record's programming; for a
   write that erases, inside the erase and inside the snapshot's programming), the board boots,
   and the game goes on with the script's next keys;
2. the power is cut again inside each of the first writes after that boot (``--second``), and
   the board boots once more.

Each boot must bring back what a cut just before the torn write brings back: the state of the
last complete save (a torn save loses only its own input). The one exception is a cut inside
a compaction (the sector's erase, then the snapshot's pages): the sector is then erased and the
device may only ask the language, as a new device does, saying nothing false. The report
counts the pairs, the compaction-window cuts apart, and lists any other loss.
"""

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from host_tools.sim.machine import ERASE_US, FLASH_PAGE, NVM_SIZE, PAGE_PROGRAM_US
from host_tools.sim.script import RELEASE_MS, Command, parse_script

PACE_MS = 2100  # after each key: quiet for 1 s and 2 s since the last save, so it is saved
OFF_MS = 500  # the power stays off this long after a cut
RESUME_MS = 8000  # then the board boots and the game is back on screen before the next key
# the game the device played before (its history and records fill the journal's first half,
# so that the game under test compacts it); free score's own is HORTIS's
PREVIOUS = {"free": "hortis-live"}
PREVIOUS_DEFAULT = "free-6p-tie"
ARM_MS = 100  # the cut is armed this long before the write (saves are 2 s apart at least)
SNAPSHOT_CUT = 64  # bytes into a compaction's programming: inside any snapshot


def duration_us(command: Command) -> int:
    if command.name == "hold":
        return (command.number + RELEASE_MS) * 1000
    return command.number * 1000 if command.name == "wait" else 0


def paced(commands: Sequence[Command]) -> list[Command]:
    """The keys at a table's slowest pace: each one saved before the next."""
    out: list[Command] = []
    for command in commands:
        out.append(command)
        if command.name == "hold":
            out.append(Command("wait", number=PACE_MS))
    return out


def after_first_boot(text: str) -> list[Command]:
    """A whole game's commands without its first boot's language choice (the lines up to the
    one that says "first boot"): the game as a device already in use plays it."""
    lines = text.splitlines()
    last = next((i for i, line in enumerate(lines) if "first boot" in line), -1)
    return parse_script("\n".join([""] * (last + 1) + lines[last + 1 :]))


def two_games(previous: str, game: str, boot_ms: int = 0) -> tuple[list[Command], int]:
    """The previous game from a new device (after `boot_ms`: the board's start-up), the power
    off and on, then the game under test; and when the latter starts (us)."""
    first = [Command("wait", number=boot_ms)] + paced(parse_script(previous)) + off_and_back()
    start_us = sum(duration_us(command) for command in first)
    return first + paced(after_first_boot(game)), start_us


def split(commands: Sequence[Command], at_us: int) -> tuple[list[Command], list[Command], int]:
    """The commands before `at_us` and those after, and the instant they part (us): a wait
    across `at_us` is cut in two, a hold across it goes after (it starts before)."""
    before: list[Command] = []
    t_us = 0
    for i, command in enumerate(commands):
        end_us = t_us + duration_us(command)
        if end_us > at_us and command.name != "wait":
            return before, list(commands[i:]), t_us
        if end_us > at_us:
            first = (at_us - t_us) // 1000
            before.append(Command("wait", number=first))
            rest = [Command("wait", number=command.number - first)] + list(commands[i + 1 :])
            return before, rest, t_us + first * 1000
        before.append(command)
        t_us = end_us
    return before, [], t_us


def cut_inside(
    commands: Sequence[Command], write_ms: int, after: Optional[int], rest: bool = True
) -> list[Command]:
    """The commands with the power cut `after` bytes into the write at `write_ms` (None: just
    before it), then off for OFF_MS, then a boot and RESUME_MS; then, if `rest`, the keys that
    came after the cut."""
    head, tail, arm_us = split(commands, max(0, (write_ms - ARM_MS) * 1000))
    during, later, _ = split(tail, (write_ms + 1) * 1000 - arm_us)
    cut = Command("power-cut") if after is None else Command("tear-next-write", number=after)
    return head + [cut] + during + off_and_back() + (later if rest else [])


def off_and_back() -> list[Command]:
    return [Command("wait", number=OFF_MS), Command("boot"), Command("wait", number=RESUME_MS)]


def tears(write: Any) -> list[int]:
    """Where to cut a write, in bytes of its programming (which starts at its first page):
    halfway through its record; a write that erases, inside the erase (0) and inside the
    snapshot's first page (a snapshot is 350 bytes at least)."""
    if write.erased:
        return [0, SNAPSHOT_CUT]
    return [write.start % FLASH_PAGE + max(1, write.length // 2)]


@dataclass
class Report:
    writes: int = 0  # the game's NVM writes
    erases: int = 0  # of which erased the sector (compactions)
    game_ms: int = 0  # from the game's first key to its last save
    window_us: int = 0  # inside a compaction: the erase and the snapshot's pages
    pairs: int = 0  # boots checked (a first cut alone, or a first and a second)
    window: int = 0  # first cuts inside a compaction: the sector erased, a new device's screen
    losses: list[str] = field(default_factory=list)

    def chance(self) -> float:
        return self.window_us / (self.game_ms * 1000) if self.game_ms else 0.0

    def lines(self, name: str) -> list[str]:
        out = [
            f"{name}: {self.writes} saves, {self.erases} erases in {self.game_ms / 1000:.0f} s "
            f"({self.window_us / 1000:.1f} ms in the erase windows: a cut at a random instant "
            f"lands in one with a chance of {self.chance():.1e})",
            f"  {self.pairs} boots after a cut, {self.window} inside a compaction (the sector "
            f"erased, the language asked), {len(self.losses)} lost more than the last save",
        ]
        return out + ["  " + loss for loss in self.losses]


Runner = Callable[[Sequence[Command]], Any]


def resumed(result: Any) -> Any:
    """What a boot brought back, to compare: the game's state, undo and redo, mode, language
    and the screen's rows (the message row included: a torn save is said as a cut is)."""
    state = result.state or {}
    rows = result.frames[-1]["screen"] if result.frames else []
    keep = ("mode", "language", "state", "undo", "redo")
    return {key: state.get(key) for key in keep}, rows


def check(
    run: Runner, commands: list[Command], write: Any, after: int, label: str, report: Report
) -> bool:
    """Cut inside `write` and boot; what is on the board then must be what a cut just before
    it leaves. False if the game is gone (a cut inside a compaction) or the cut missed."""
    torn = run(cut_inside(commands, write.t_ms, after, rest=False))
    cut = [w for w in torn.nvm_writes if w.torn]
    if not cut or cut[-1].t_ms != write.t_ms:
        report.losses.append(f"{label}: the cut missed the write at {write.t_ms} ms")
        return False
    report.pairs += 1
    if write.erased and write.record <= write.free:
        report.losses.append(f"{label}: the sector erased with {write.free} bytes free")
        return False
    if write.erased:  # both its cuts are inside the snapshot
        report.window += 1
        state, rows = resumed(torn)
        if state["state"] is not None or not rows[0].startswith("Langue / Language"):
            report.losses.append(f"{label}: after a cut in a compaction: {rows[0]!r}")
        elif rows[4].strip():
            report.losses.append(f"{label}: after a cut in a compaction it says {rows[4]!r}")
        return False
    expected = resumed(run(cut_inside(commands, write.t_ms, None, rest=False)))
    got = resumed(torn)
    if got != expected:
        report.losses.append(f"{label}: {describe(got, expected)}")
    return True


def describe(got: Any, expected: Any) -> str:
    if got[0] != expected[0]:
        keys = [key for key in expected[0] if got[0][key] != expected[0][key]]
        return f"resumed {', '.join(keys)} differ from the last complete save's; screen {got[1]}"
    return f"screen {got[1]} where a cut before the write shows {expected[1]}"


def matrix(
    run: Runner,
    previous: str,
    game: str,
    second: int,
    firsts: Optional[int] = None,
    boot_ms: int = 0,
) -> Report:
    """Every write of the game under test cut (or those `picks` chooses), then each of the
    first `second` writes after the boot."""
    commands, start_us = two_games(previous, game, boot_ms)
    base = run(commands)
    writes = [w for w in base.nvm_writes if w.t_ms * 1000 >= start_us]
    report = Report(writes=len(writes), erases=sum(w.erased for w in writes))
    report.game_ms = writes[-1].t_ms - start_us // 1000 if writes else 0
    report.window_us = sum(
        ERASE_US + -(-w.record // FLASH_PAGE) * PAGE_PROGRAM_US for w in writes if w.erased
    )
    for w in writes:
        if w.erased and w.record <= w.free:
            report.losses.append(f"the write at {w.t_ms} ms erased the sector, {w.free} B free")
    for k in picks(writes, firsts):
        write = writes[k]
        for after in tears(write):
            label = f"write {k + 1} at {write.t_ms} ms cut after {after} B"
            if not check(run, commands, write, after, label, report) or not second:
                continue
            script1 = cut_inside(commands, write.t_ms, after)  # the game goes on after the boot
            boot_ms = write.t_ms + OFF_MS
            later = [w for w in run(script1).nvm_writes if w.t_ms > boot_ms][:second]
            for j, again in enumerate(later):
                for after2 in tears(again):
                    label2 = f"{label}, then write {j + 1} after the boot cut after {after2} B"
                    check(run, script1, again, after2, label2, report)
    return report


def picks(writes: list[Any], firsts: Optional[int]) -> list[int]:
    """The writes to cut: all, or (`firsts` = N) the first N, and the N around each
    compaction."""
    if firsts is None:
        return list(range(len(writes)))
    chosen = set(range(min(firsts, len(writes))))
    for k, write in enumerate(writes):
        if write.erased:
            chosen.update(range(max(0, k - firsts // 2), min(len(writes), k + firsts // 2 + 1)))
    return sorted(chosen)


def sim_runner(firmware: Optional[Path] = None) -> Runner:
    from host_tools.sim import DEFAULT_FIRMWARE, SimBoard

    def run(commands: Sequence[Command]) -> Any:
        return SimBoard(firmware or DEFAULT_FIRMWARE).run_script(list(commands))

    return run


NVM_FLASH = 0x0FF000  # the NVM sector's offset in the Pico's flash (the port's last sector)


@dataclass
class PicoWrite:
    """An NVM write on the emulated Pico, with the fields of the simulator's NvmWrite that the
    matrix reads. The emulator reports no bytes: an erase is counted as a compaction (the
    simulator's matrix checks that none comes early)."""

    t_ms: int
    start: int
    length: int
    torn: bool
    erased: bool
    free: int = 0
    record: int = NVM_SIZE


@dataclass
class PicoRun:
    frames: list[dict[str, Any]]
    nvm_writes: list[PicoWrite]
    state: Any = None  # the Pico reports its screen only: the rows are compared


def pico_writes(flash_ops: list[dict[str, Any]]) -> list[PicoWrite]:
    writes: list[PicoWrite] = []
    erase_ms = None  # the erase that began the write (CircuitPython erases, then programs)
    for op in flash_ops:
        if not NVM_FLASH <= op["offset"] < NVM_FLASH + NVM_SIZE:
            continue  # the CIRCUITPY drive
        if op["flash"] == "erase":
            erase_ms = (op["t"] - ERASE_US) // 1000
            if op["done"] < op["count"]:
                writes.append(PicoWrite(erase_ms, 0, NVM_SIZE, True, True))
                erase_ms = None
            continue
        start = op["offset"] - NVM_FLASH
        t_ms = erase_ms if erase_ms is not None else op["t"] // 1000
        torn = op["landed"] < op["count"]
        writes.append(PicoWrite(t_ms, start, op["count"], torn, erase_ms is not None))
        erase_ms = None
    return writes


def pico_runner() -> Runner:
    from host_tools.pico.board import PicoBoard

    def run(commands: Sequence[Command]) -> Any:
        result = PicoBoard().run_script(list(commands))
        if result.errors:
            raise RuntimeError("the emulated Pico failed: " + result.errors[0])
        return PicoRun(result.frames, pico_writes(result.flash_ops))

    return run


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools cuts", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("scripts", nargs="+", type=Path, help="whole-game scripts (MODE-*.txt)")
    parser.add_argument(
        "--second", type=int, default=3, help="writes cut after each first cut's boot (3)"
    )
    parser.add_argument(
        "--firsts", type=int, help="cut only the first N writes and the N around each compaction"
    )
    parser.add_argument("--firmware", type=Path, help="the firmware folder (default: firmware/)")
    parser.add_argument(
        "--board",
        choices=("sim", "pico"),
        default="sim",
        help="the simulator, or the real CircuitPython on the emulated Pico (hours)",
    )
    args = parser.parse_args(argv)
    if args.board == "pico":
        from host_tools.pico.board import BOOT_WAIT_MS, missing

        if missing() is not None:
            print(f"cuts: {missing()}", file=sys.stderr)
            return 2
        run, boot_ms = pico_runner(), BOOT_WAIT_MS
    else:
        run, boot_ms = sim_runner(args.firmware), 0
    failed = False
    for path in args.scripts:
        previous = path.parent / (PREVIOUS.get(mode_of(path), PREVIOUS_DEFAULT) + ".txt")
        report = matrix(
            run,
            previous.read_text(encoding="utf-8"),
            path.read_text(encoding="utf-8"),
            args.second,
            args.firsts,
            boot_ms,
        )
        print("\n".join(report.lines(path.stem)), flush=True)
        failed = failed or bool(report.losses)
    return 1 if failed else 0


def mode_of(path: Path) -> str:
    return path.stem.split("-")[0]


if __name__ == "__main__":
    sys.exit(main())
