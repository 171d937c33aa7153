"""PicoBoard and MacroPadBoard: the real CircuitPython firmware on an emulated Raspberry Pi Pico
or Adafruit MacroPad RP2040 (rp2040js), behind the simulator's interface: the same scripts in,
the same frames out.

The firmware is not touched: the CIRCUITPY drive holds exactly what ``deploy`` would copy
(``host_tools.drive``), compiled with the kit's mpy-cross that matches the UF2. Node runs
``emulator.mjs`` over a plan of timed inputs and writes what the board did (I2C transfers to
the OLED, words pushed to the NeoPixel PIO, the USB console, flash erases and programs);
this module turns that into frames: the SSD1306 emulator applies the I2C bytes (the
MacroPad: the SH1106 decoder the SPI bytes, by their DC level), the screen rows are read back
from its pixels with the firmware's own font, the LEDs from the PIO words (GRB).
"""

import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from host_tools.pico.fat import build_image
from host_tools.pico.ocr import ScreenReader
from host_tools.sim.boards import MACROPAD, PICO, RING_SIZE, SCRIPT_KEYS, BoardDefinition
from host_tools.sim.machine import ERASED_NVM
from host_tools.sim.script import (
    RELEASE_MS,
    TURN_DETENT_MS,
    Command,
    check_board,
    parse_script,
)
from host_tools.sim.sh1106 import SH1106
from host_tools.sim.ssd1306 import SSD1306

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
KIT = Path(os.environ.get("POTAGER_CIRCUITPYTHON_KIT", ROOT.parent / "shared" / "circuitpython"))
NODE_MODULES = HERE / "node_modules"
# found once, on import: the emulator runs in background threads while other tests may
# empty $PATH (deploy's "no mpy-cross anywhere" tests)
NODE = shutil.which("node")
VERSIONS = ("10.2.1", "9.2.9")
DEFAULT_VERSION = "10.2.1"
# the UF2s' BOARD names (circuitpython-VERSION-BOARD-en_US.uf2)
PICO_UF2 = PICO.board_id
MACROPAD_UF2 = MACROPAD.board_id
# the encoder's (A, B) through one detent clockwise (+1), a level each TURN_DETENT_MS / 4;
# anticlockwise (-1) goes through the same states in reverse, ending at (1, 1) too
DETENT_STATES = ((0, 1), (0, 0), (1, 0), (1, 1))
# After the script's last input, the run goes on until the OLED has been quiet and the CPU
# not saturated (under 95% of each 100 ms: the loop reaches its sleeps) this long: the board
# may still be working through queued keys. At most MAX_SETTLE_US: a ticking clock keeps the
# OLED busy for good, and a step takes 0.15 s at most (docs/bench.md).
SETTLE_US = 1_500_000
MAX_SETTLE_US = 5_000_000
# I2C transfers closer than this belong to the same frame (one refresh sends its dirty areas
# back to back; the emulator charges no bus time).
FRAME_GAP_US = 5_000
# ...but a full refresh comes in subrectangles of whole-width pages, top to bottom, each drawn
# before it is sent (~22 ms for four pages on the board): until its last page, a gap up to
# this long does not end the frame.
REFRESH_GAP_US = 40_000
CUT_MESSAGES = ("KeyboardInterrupt",)


class KitMissing(RuntimeError):
    """What is missing to run the emulated Pico, in one line."""


def uf2_path(version: str = DEFAULT_VERSION, board: str = PICO_UF2) -> Path:
    return KIT / f"circuitpython-{version}-{board}-en_US.uf2"


def version_of(uf2: Path) -> str:
    match = re.search(r"circuitpython-(\d+\.\d+\.\d+)", uf2.name)
    if not match:
        raise KitMissing(f"cannot tell the CircuitPython version of {uf2.name}")
    return match.group(1)


def missing(
    version: str = DEFAULT_VERSION, board: str = PICO_UF2, uf2: Optional[Path] = None
) -> Optional[str]:
    """None when the emulated board (Pico, or MacroPad with board=MACROPAD_UF2; from the kit's
    UF2 or ``uf2``) can run, else one line saying what is missing."""
    if NODE is None:
        return "node is not installed (the emulated boards run in Node 20)"
    if not (NODE_MODULES / "rp2040js").is_dir():
        return f"rp2040js is not installed in {NODE_MODULES} (run make pico-deps)"
    needed = (
        uf2 or uf2_path(version, board),
        KIT / "bootrom.bin",
        KIT / f"mpy-cross-{version}-static",
    )
    for path in needed:
        if not path.is_file():
            return f"the CircuitPython kit lacks {path}"
    return None


@dataclass
class PicoResult:
    """What a run on the emulated Pico or MacroPad did (MacroPad: ``spi`` instead of ``i2c``,
    frames with ``spi_bytes``)."""

    frames: list[dict[str, Any]]
    nvm: bytes
    pixels: list[list[bool]]
    leds: list[str]
    end_ms: int
    console: str
    errors: list[str]  # tracebacks, MemoryError, safe mode: each an error of the run
    caught: list[str]  # tracebacks the firmware's recovery caught (it carried on)
    flash: dict[str, int]  # nvm_erases, nvm_programs, drive_erases, drive_programs
    flash_ops: list[dict[str, Any]]
    i2c: list[tuple[int, int, bytes]]  # (start_us, end_us, bytes after the address)
    leds_at: list[tuple[int, list[str]]]  # (t_us, ring) at each NeoPixel write
    key_events: list[tuple[int, int, bool]]  # (t_us, key, pressed) as the pins saw them
    power: list[tuple[int, str]] = field(default_factory=list)
    heap: list[tuple[int, int]] = field(default_factory=list)  # (t_us, gc.mem_free()) probes
    steps: list[tuple[int, int]] = field(default_factory=list)  # (t_us, ms): each longest step
    # the MacroPad's display bus: (start_us, end_us, DC level, bytes), a run of one DC level
    spi: list[tuple[int, int, int, bytes]] = field(default_factory=list)


_tool_dir: Optional[Path] = None
_live: set["subprocess.Popen[str]"] = set()


def stop_all() -> None:
    """End the emulator processes still running (a test session ending early)."""
    for node in list(_live):
        node.kill()


_tools_lock = threading.Lock()  # runs start from several threads (tests/test_pico.py)


def _tools() -> Path:
    """Copies of the kit's binaries with their run bit (the kit may be read-only, no +x)."""
    global _tool_dir
    with _tools_lock:
        if _tool_dir is None:
            _tool_dir = Path(tempfile.mkdtemp(prefix="potager-pico-tools-"))
        return _tool_dir


def mpy_cross(version: str) -> Path:
    target = _tools() / f"mpy-cross-{version}"
    with _tools_lock:  # another thread must never run a copy still being written
        if not target.exists():
            partial = target.with_suffix(".partial")
            shutil.copyfile(KIT / f"mpy-cross-{version}-static", partial)
            partial.chmod(partial.stat().st_mode | stat.S_IXUSR)
            partial.replace(target)
    return target


_drive_cache: dict[tuple[str, bool, str], bytes] = {}


def drive_image(
    version: str, *, py: bool = False, extra: Optional[Path] = None, wrap: bool = False
) -> bytes:
    """The CIRCUITPY image: firmware + pinned libraries (.mpy unless py), DIR's files too."""
    from host_tools.drive import circuitpy_files

    key = (version, py, f"{extra}|{wrap}")
    if key not in _drive_cache:
        files = circuitpy_files(None if py else mpy_cross(version))
        if extra is not None:
            for path in sorted(extra.rglob("*")):
                if path.is_file():
                    files[path.relative_to(extra).as_posix()] = path.read_bytes()
        if wrap:
            files.update(heap_probe_files(files))
        _drive_cache[key] = build_image(files)
    return _drive_cache[key]


PROBE_EVERY_MS = 500
_PROBE = (
    """import gc, supervisor
from potager.hw import board_io as _b
_idle = _b.BoardIO.idle
_s = [-1, 0, 0]
def _probe(self):
    t = supervisor.ticks_ms()
    d = (t - _s[0]) & 0x1FFFFFFF
    if _s[0] >= 0 and d > _s[2]:
        _s[2] = d
        print('\\x1estep', d)
    if (t - _s[1]) & 0x1FFFFFFF >= %d:
        _s[1] = t
        gc.collect()
        print('\\x1eheap', gc.mem_free())
    _idle(self)
    _s[0] = supervisor.ticks_ms()
_b.BoardIO.idle = _probe
gc.collect()
print('\\x1eheap', gc.mem_free())
"""
    % PROBE_EVERY_MS
)


def heap_probe_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """code.py behind a probe for the bench: in the loop's idle moments (the firmware's own
    BoardIO.idle, between steps) it prints the longest step so far (from the first idle
    moment on: the start-up before it is the boot's measure) and, every
    PROBE_EVERY_MS, gc.mem_free() after gc.collect(); the firmware itself is unchanged."""
    return {"code.py": _PROBE.encode() + files["code.py"]}


class PicoBoard:
    """Runs scripts on the emulated Pico. ``nvm`` is carried from run to run."""

    definition: BoardDefinition = PICO
    uf2_board = PICO_UF2
    display = "i2c"  # the OLED: an SSD1306 on I2C (GP4/GP5)
    name = "Pico"

    def __init__(
        self,
        *,
        uf2: Optional[Path] = None,
        py: bool = False,
        drive: Optional[Path] = None,
        nvm: bytes = ERASED_NVM,
        heap_probe: bool = False,
    ) -> None:
        self.uf2 = Path(uf2) if uf2 is not None else uf2_path(board=self.uf2_board)
        self.version = version_of(self.uf2)
        problem = missing(self.version, self.uf2_board, self.uf2)
        if problem is not None:
            raise KitMissing(problem)
        self.py = py
        self.drive = drive
        self.nvm = nvm
        self.heap_probe = heap_probe
        definition = self.definition
        # the pins read with their pull-ups: the keys (each script key on its board key), the
        # encoder's A and B
        names = [definition.key_pin(key) for key in range(len(SCRIPT_KEYS))]
        names += list(definition.encoder or ())
        self.pull_ups = sorted({self.gpio(name) for name in names if name is not None})

    def gpio(self, board_name: str) -> int:
        """The GPIO number of a board name (KEY1, GP10...)."""
        return int(self.definition.gpio(board_name)[len("GPIO") :])

    def key_gpio(self, script_key: int) -> int:
        name = self.definition.key_pin(script_key)
        assert name is not None  # check_board refused the script otherwise
        return self.gpio(name)

    def run_script(self, script: Union[str, Sequence[Command]]) -> PicoResult:
        commands = parse_script(script) if isinstance(script, str) else list(script)
        check_board(commands, self.definition)
        inputs, end_us = self._inputs(commands)
        image = drive_image(self.version, py=self.py, extra=self.drive, wrap=self.heap_probe)
        with tempfile.TemporaryDirectory(prefix="potager-pico-") as tmp:
            tmpdir = Path(tmp)
            (tmpdir / "drive.img").write_bytes(image)
            (tmpdir / "nvm.bin").write_bytes(self.nvm)
            plan = {
                "uf2": str(self.uf2),
                "bootrom": str(KIT / "bootrom.bin"),
                "drive_image": str(tmpdir / "drive.img"),
                "nvm": str(tmpdir / "nvm.bin"),
                "nvm_out": str(tmpdir / "nvm-out.bin"),
                "events_out": str(tmpdir / "events.jsonl"),
                "inputs": inputs,
                "end_us": end_us,
                "settle_us": SETTLE_US,
                "max_us": end_us + MAX_SETTLE_US,
                "pull_ups": self.pull_ups,
                "display": self.display,
            }
            (tmpdir / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
            with subprocess.Popen(
                [str(NODE), str(HERE / "emulator.mjs"), str(tmpdir / "plan.json")],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            ) as node:
                _live.add(node)
                try:
                    _, stderr = node.communicate()
                finally:
                    _live.discard(node)
            if node.returncode != 0:
                raise RuntimeError(f"the emulated {self.name} failed: {stderr.strip()[-2000:]}")
            records = [
                json.loads(line)
                for line in (tmpdir / "events.jsonl").read_text(encoding="utf-8").splitlines()
            ]
            self.nvm = (tmpdir / "nvm-out.bin").read_bytes()
        return _decode(records, inputs, self.nvm)

    def script_end_ms(self, script: str) -> int:
        """When the script's last line is done, in the run's virtual time."""
        return self._inputs(parse_script(script))[1] // 1000

    def _inputs(self, commands: list[Command]) -> tuple[list[dict[str, Any]], int]:
        inputs: list[dict[str, Any]] = []
        t_us = 0
        for command in commands:
            if command.name == "hold":
                assert command.key is not None
                key = {"kind": "key", "pin": self.key_gpio(command.key), "key": command.key}
                inputs.append({"t": t_us, **key, "down": True})
                t_us += command.number * 1000
                inputs.append({"t": t_us, **key, "down": False})
                t_us += RELEASE_MS * 1000  # up long enough for one keypad scan to see it
            elif command.name == "turn":
                inputs += turn_inputs(self.definition, t_us, command.number)
                t_us += abs(command.number) * TURN_DETENT_MS * 1000
            elif command.name == "wait":
                t_us += command.number * 1000
            elif command.name == "power-cut":
                inputs.append({"t": t_us, "kind": "cut"})
            elif command.name == "boot":
                inputs.append({"t": t_us, "kind": "boot"})
            elif command.name == "tear-next-write":
                inputs.append({"t": t_us, "kind": "tear", "n": command.number})
            elif command.name == "reload":
                inputs.append({"t": t_us, "kind": "reload"})
        return inputs, t_us


class MacroPadBoard(PicoBoard):
    """Runs scripts on the emulated Adafruit MacroPad RP2040 (CircuitPython 10.2.1's MacroPad
    UF2): its twelve keys, the encoder's switch and its turns, the SH1106 on SPI1, twelve
    NeoPixels (GRB) on GP19. ``nvm`` is carried from run to run."""

    definition = MACROPAD
    uf2_board = MACROPAD_UF2
    display = "spi"  # the OLED: an SH1106 on SPI1 (DC GP24, CS GP22)
    name = "MacroPad"


def turn_inputs(definition: BoardDefinition, t_us: int, detents: int) -> list[dict[str, Any]]:
    """The encoder's contacts through ``detents`` detents from t_us: (A, B) a level every
    TURN_DETENT_MS / 4 (a closed contact pulls its pin low: level 0)."""
    assert definition.encoder is not None  # check_board refused the script otherwise
    a, b = (int(definition.gpio(name)[len("GPIO") :]) for name in definition.encoder)
    states = DETENT_STATES if detents > 0 else (*DETENT_STATES[-2::-1], (1, 1))
    step_us = TURN_DETENT_MS * 1000 // len(states)
    out = []
    for detent in range(abs(detents)):
        for i, (level_a, level_b) in enumerate(states):
            t = t_us + (detent * len(states) + i) * step_us
            out.append({"t": t, "kind": "level", "pin": a, "down": not level_a})
            out.append({"t": t, "kind": "level", "pin": b, "down": not level_b})
    return out


def _decode(records: list[dict[str, Any]], inputs: list[dict[str, Any]], nvm: bytes) -> PicoResult:
    reader = ScreenReader()
    oled = SSD1306()
    sh1106 = SH1106()
    spi_display = any("spi" in r for r in records)
    bytes_key = "spi_bytes" if spi_display else "i2c_bytes"
    spi: list[tuple[int, int, int, bytes]] = []
    leds = ["#000000"] * RING_SIZE
    frames: list[dict[str, Any]] = []
    console_parts: list[str] = []
    i2c: list[tuple[int, int, bytes]] = []
    leds_at: list[tuple[int, list[str]]] = []
    flash_ops: list[dict[str, Any]] = []
    power: list[tuple[int, str]] = []
    flash_stats: dict[str, int] = {}
    end_us = 0
    pending_bytes = 0
    dirty = False
    last_event_us = 0
    last_seen: Any = None

    def close_frame(t_us: int) -> None:
        nonlocal pending_bytes, dirty, last_seen
        if not dirty:
            return
        rows = reader.rows(sh1106.pixels() if spi_display else oled.pixels())
        seen = (rows, tuple(leds))
        dirty = False
        if seen == last_seen and pending_bytes == 0:
            return
        last_seen = seen
        frames.append(
            {"t_ms": t_us // 1000, "screen": rows, "leds": list(leds), bytes_key: pending_bytes}
        )
        pending_bytes = 0

    refresh_open = False  # the pixels last sent were whole-width pages above the last one
    page_bytes = 0  # SPI data bytes since the last commands
    for record in records:
        t = int(record["t"])
        gap = REFRESH_GAP_US if refresh_open else FRAME_GAP_US
        if ("i2c" in record or "spi" in record or "pio" in record) and (
            dirty and t - last_event_us > gap
        ):
            close_frame(last_event_us)
            refresh_open = False
        if "i2c" in record:
            data = bytes.fromhex(record["i2c"])
            oled.write(data)
            if data[:1] and data[0] & 0x40:
                refresh_open = (oled.column_start, oled.column_end) == (
                    0,
                    127,
                ) and oled.page_end < 7
            end = int(record["end"])
            i2c.append((t, end, data))
            pending_bytes += len(data)  # as the simulator counts: what writeto was given
            dirty, last_event_us = True, end
        elif "spi" in record:
            data = bytes.fromhex(record["spi"])
            sh1106.write(data, bool(record["dc"]))
            if record["dc"]:
                page_bytes += len(data)
                # a whole-width page above the last: a full refresh goes on
                refresh_open = page_bytes == 128 and sh1106.page < 7
            else:
                page_bytes = 0  # the next page's column and page
            end = int(record["end"])
            spi.append((t, end, int(record["dc"]), data))
            pending_bytes += len(data)  # on the bus: commands and data
            dirty, last_event_us = True, end
        elif "pio" in record:
            leds = _ring_colours(record["pio"], leds)
            leds_at.append((t, list(leds)))
            dirty, last_event_us = True, t
        elif "console" in record:
            console_parts.append(record["console"])
        elif "flash" in record and record.get("event") != "end":
            flash_ops.append(record)
        elif "event" in record:
            if record["event"] == "end":
                flash_stats = record["flash"]
                end_us = t
            elif record["event"] in ("power-on", "power-off"):
                close_frame(last_event_us)
                power.append((t, record["event"]))
                if record["event"] == "power-off":
                    oled = SSD1306()
                    sh1106 = SH1106()
                    leds = ["#000000"] * RING_SIZE
    close_frame(last_event_us)
    console = "".join(console_parts)
    errors, caught = _console_errors(console)
    chunks = [(int(r["t"]), r["console"]) for r in records if "console" in r]
    heap = _console_marks(chunks, "heap")
    steps = _console_marks(chunks, "step")
    key_events = [(i["t"], i["key"], bool(i["down"])) for i in inputs if i["kind"] == "key"]
    return PicoResult(
        frames=frames,
        nvm=nvm,
        pixels=sh1106.pixels() if spi_display else oled.pixels(),
        leds=leds,
        end_ms=end_us // 1000,
        console=console,
        errors=errors,
        caught=caught,
        flash=flash_stats,
        flash_ops=flash_ops,
        i2c=i2c,
        leds_at=leds_at,
        key_events=key_events,
        power=power,
        heap=heap,
        steps=steps,
        spi=spi,
    )


def _console_marks(chunks: list[tuple[int, str]], tag: str) -> list[tuple[int, int]]:
    """(t_us, value) of each probe line "<RS>TAG VALUE"; t: when its last byte arrived."""
    text, ends = "", []
    for t, chunk in chunks:
        text += chunk
        ends.append((len(text), t))
    marks = []
    for match in re.finditer("\x1e" + tag + r" (\d+)\r?\n", text):
        t = next(t for end, t in ends if end >= match.end())
        marks.append((t, int(match.group(1))))
    return marks


def _ring_colours(words: list[int], before: list[str]) -> list[str]:
    """The LEDs after the words pushed into the PIO: one byte a word, three a pixel (GRB
    order) from the first on; pixels the write did not reach keep their colour (the
    MacroPad's status LED writes the first pixel alone)."""
    data = bytes(_word_byte(w) for w in words)
    if len(data) > 3 * RING_SIZE:
        data = data[-3 * RING_SIZE :]
    written = [
        f"#{data[i + 1]:02x}{data[i]:02x}{data[i + 2]:02x}" for i in range(0, len(data) - 2, 3)
    ]
    return written + before[len(written) :]


def _word_byte(word: int) -> int:
    # CircuitPython pushes each byte either in the low bits or shifted to the top
    return word & 0xFF if word < 0x100 else (word >> 24) & 0xFF


_TRACEBACK = re.compile(r"Traceback \(most recent call last\):\r?\n(?:[ \t].*\r?\n)*.*")


def _console_errors(console: str) -> tuple[list[str], list[str]]:
    """Uncaught errors (the firmware stopped) and caught ones (its recovery carried on)."""
    errors: list[str] = []
    caught: list[str] = []
    for match in _TRACEBACK.finditer(console):
        text = match.group(0)
        if text.strip().splitlines()[-1].startswith(CUT_MESSAGES):
            continue  # the Ctrl-C of a scripted reload
        after = console[match.end() : match.end() + 200]
        # a MemoryError is an error even where the recovery carried on: the heap is too small
        fatal = "Code done running" in after or "MemoryError" in text
        (errors if fatal else caught).append(text)
    for line in console.splitlines():
        fatal = "safe mode" in line.lower() or "MemoryError" in line
        if fatal and not any(line in e for e in errors + caught):
            errors.append(line)
    return errors, caught


# A person waits for the first screen before pressing keys: the demo scripts, written for the
# simulator (which boots at once), run on the emulated boards with this wait after each
# power-on or reload (from .mpy the first screen is up at 3.0 s on the Pico, 3.05 s on the
# MacroPad; a saved game 3.4 s after power back at most: docs/bench.md).
BOOT_WAIT_MS = 4500


def after_each_boot(script: str, wait_ms: int = BOOT_WAIT_MS) -> str:
    """The script with ``wait wait_ms`` at the start and after every ``boot`` and ``reload``
    line (a soft reload starts the firmware again too)."""
    lines = [f"wait {wait_ms}  # the board boots"]
    for line in script.splitlines():
        lines.append(line)
        if line.partition("#")[0].split() in (["boot"], ["reload"]):
            lines.append(f"wait {wait_ms}  # the board boots")
    return "\n".join(lines) + "\n"
