"""PicoBoard: the real CircuitPython firmware on an emulated Pico (rp2040js), behind the
simulator's interface: the same scripts in, the same frames out.

The firmware is not touched: the CIRCUITPY drive holds exactly what ``deploy`` would copy
(``host_tools.drive``), compiled with the kit's mpy-cross that matches the UF2. Node runs
``emulator.mjs`` over a plan of timed inputs and writes what the board did (I2C transfers to
the OLED, words pushed to the NeoPixel PIO, the USB console, flash erases and programs);
this module turns that into frames: the SSD1306 emulator applies the I2C bytes, the screen
rows are read back from its pixels with the firmware's own font, the LEDs from the PIO
words (GRB).
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
from host_tools.sim.boards import BOARDS, RING_SIZE
from host_tools.sim.machine import ERASED_NVM
from host_tools.sim.script import RELEASE_MS, Command, parse_script
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
# After the script's last input, the run goes on until the OLED has been quiet and the CPU
# not saturated (under 95% of each 100 ms: the loop reaches its sleeps) this long: the board
# may still be working through queued keys. At most MAX_SETTLE_US.
SETTLE_US = 1_500_000
MAX_SETTLE_US = 20_000_000
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


def uf2_path(version: str = DEFAULT_VERSION) -> Path:
    return KIT / f"circuitpython-{version}-raspberry_pi_pico-en_US.uf2"


def version_of(uf2: Path) -> str:
    match = re.search(r"circuitpython-(\d+\.\d+\.\d+)", uf2.name)
    if not match:
        raise KitMissing(f"cannot tell the CircuitPython version of {uf2.name}")
    return match.group(1)


def missing(version: str = DEFAULT_VERSION) -> Optional[str]:
    """None when the emulated Pico can run, else one line saying what is missing."""
    if NODE is None:
        return "node is not installed (the emulated Pico runs in Node 20)"
    if not (NODE_MODULES / "rp2040js").is_dir():
        return f"rp2040js is not installed in {NODE_MODULES} (run make pico-deps)"
    for path in (uf2_path(version), KIT / "bootrom.bin", KIT / f"mpy-cross-{version}-static"):
        if not path.is_file():
            return f"the CircuitPython kit lacks {path}"
    return None


@dataclass
class PicoResult:
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

    def __init__(
        self,
        *,
        uf2: Optional[Path] = None,
        py: bool = False,
        drive: Optional[Path] = None,
        nvm: bytes = ERASED_NVM,
        heap_probe: bool = False,
    ) -> None:
        self.uf2 = Path(uf2) if uf2 is not None else uf2_path()
        self.version = version_of(self.uf2)
        problem = missing(self.version)
        if problem is not None:
            raise KitMissing(problem)
        self.py = py
        self.drive = drive
        self.nvm = nvm
        self.heap_probe = heap_probe
        definition = BOARDS["raspberry_pi_pico"]
        self.key_pins = [int(definition.pins[b][len("GPIO") :]) for b in definition.buttons]

    def run_script(self, script: Union[str, Sequence[Command]]) -> PicoResult:
        commands = parse_script(script) if isinstance(script, str) else list(script)
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
                "key_pins": self.key_pins,
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
                raise RuntimeError(f"the emulated Pico failed: {stderr.strip()[-2000:]}")
            records = [
                json.loads(line)
                for line in (tmpdir / "events.jsonl").read_text(encoding="utf-8").splitlines()
            ]
            self.nvm = (tmpdir / "nvm-out.bin").read_bytes()
        return _decode(records, inputs, self.nvm, self.key_pins)

    def script_end_ms(self, script: str) -> int:
        """When the script's last line is done, in the run's virtual time."""
        return self._inputs(parse_script(script))[1] // 1000

    def _inputs(self, commands: list[Command]) -> tuple[list[dict[str, Any]], int]:
        inputs: list[dict[str, Any]] = []
        t_us = 0
        for command in commands:
            if command.name == "hold":
                assert command.key is not None
                pin = self.key_pins[command.key]
                inputs.append({"t": t_us, "kind": "key", "pin": pin, "down": True})
                t_us += command.number * 1000
                inputs.append({"t": t_us, "kind": "key", "pin": pin, "down": False})
                t_us += RELEASE_MS * 1000  # up long enough for one keypad scan to see it
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


def _decode(
    records: list[dict[str, Any]], inputs: list[dict[str, Any]], nvm: bytes, key_pins: list[int]
) -> PicoResult:
    reader = ScreenReader()
    oled = SSD1306()
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
        rows = reader.rows(oled.pixels())
        seen = (rows, tuple(leds))
        dirty = False
        if seen == last_seen and pending_bytes == 0:
            return
        last_seen = seen
        frames.append(
            {"t_ms": t_us // 1000, "screen": rows, "leds": list(leds), "i2c_bytes": pending_bytes}
        )
        pending_bytes = 0

    refresh_open = False  # the pixels last sent were whole-width pages above the last one
    for record in records:
        t = int(record["t"])
        gap = REFRESH_GAP_US if refresh_open else FRAME_GAP_US
        if ("i2c" in record or "pio" in record) and dirty and t - last_event_us > gap:
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
        elif "pio" in record:
            leds = _ring_colours(record["pio"]) or leds
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
                    leds = ["#000000"] * RING_SIZE
    close_frame(last_event_us)
    console = "".join(console_parts)
    errors, caught = _console_errors(console)
    chunks = [(int(r["t"]), r["console"]) for r in records if "console" in r]
    heap = _console_marks(chunks, "heap")
    steps = _console_marks(chunks, "step")
    key_events = [
        (i["t"], key_pins.index(i["pin"]), bool(i["down"])) for i in inputs if i["kind"] == "key"
    ]
    return PicoResult(
        frames=frames,
        nvm=nvm,
        pixels=oled.pixels(),
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


def _ring_colours(words: list[int]) -> Optional[list[str]]:
    """The ring from the words pushed into the PIO: one byte a word (GRB order)."""
    data = bytes(_word_byte(w) for w in words)
    if len(data) < 3 * RING_SIZE:
        return None
    data = data[-3 * RING_SIZE :]
    return [
        f"#{data[i * 3 + 1]:02x}{data[i * 3]:02x}{data[i * 3 + 2]:02x}" for i in range(RING_SIZE)
    ]


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
# simulator (which boots at once), run on the emulated Pico with this wait after each power-on
# (the first screen is up at about 6.3 s from .mpy; keypad queues keys from about 3 s).
BOOT_WAIT_MS = 7000


def after_each_boot(script: str, wait_ms: int = BOOT_WAIT_MS) -> str:
    """The script with ``wait wait_ms`` at the start and after every ``boot`` and ``reload``
    line (a soft reload starts the firmware again too)."""
    lines = [f"wait {wait_ms}  # the board boots"]
    for line in script.splitlines():
        lines.append(line)
        if line.partition("#")[0].split() in (["boot"], ["reload"]):
            lines.append(f"wait {wait_ms}  # the board boots")
    return "\n".join(lines) + "\n"
