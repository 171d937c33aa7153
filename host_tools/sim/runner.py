"""SimBoard: runs the real ``firmware/code.py`` on the simulated board.

The firmware runs in the calling thread with ``runpy.run_path``, as CircuitPython runs code.py.
While it runs, ``time.sleep``, ``time.monotonic`` and ``time.monotonic_ns`` are replaced: in
that thread, a sleep is where the simulator acts (run the displays' background refresh, record
a frame, move the virtual clock, deliver key events, apply script commands, fire the
watchdog); other threads keep the real functions. The firmware's ``gc.collect()`` gathers
only CPython's youngest generation (reference counts free the rest). To take the CPU away
(power cut, reset, end of the script) the simulator raises :class:`StopFirmware` from a sleep
or from an NVM write: a BaseException, so the firmware's ``except Exception`` recovery lets it
unwind.
"""

import builtins
import contextlib
import functools
import gc
import importlib
import importlib.abc
import importlib.machinery
import json
import os
import runpy
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any, Optional, Protocol, SupportsIndex, Union

import host_tools.sim.costs as costs  # by their paths: this package's __init__ imports runner
import host_tools.sim.displays as displays
import host_tools.sim.fakes as fakes
from host_tools.drive import BUILT_IN
from host_tools.sim.boards import BOARDS
from host_tools.sim.fakes import busio as fake_busio
from host_tools.sim.machine import ERASED_NVM, Crash, Machine, NvmWrite, StopFirmware
from host_tools.sim.script import (
    RELEASE_MS,
    TURN_DETENT_MS,
    Command,
    check_board,
    parse_script,
)

DEFAULT_FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
# Libraries that live on the CIRCUITPY drive: their module state is RAM, lost with the power.
# (displayio and its buses are core modules on the device: they stay imported.)
DRIVE_LIBRARIES = frozenset(
    {
        "adafruit_bitmap_font",
        "adafruit_display_text",
        "adafruit_displayio_ssd1306",
        "adafruit_pixelbuf",
        "adafruit_ticks",
        "neopixel",
    }
)
# After the script's last event, the run ends at the firmware's first sleep with an app
# running (potager.app.current set), or this long after the end if none comes up.
SETTLE_US = 10_000_000
CHARGED_LINES = 40  # start-up lines of Python charged together (1 ms)


class Clock(Protocol):
    def wait_until(self, board: "SimBoard", at_us: Optional[int]) -> None:
        """Let time pass up to ``at_us`` (None: until some input), or less when input arrives,
        and set ``board.machine.now_us`` accordingly."""


class VirtualClock:
    """Headless: time jumps to the next event; nothing sleeps for real."""

    def wait_until(self, board: "SimBoard", at_us: Optional[int]) -> None:
        if at_us is None:
            raise RuntimeError("a headless run has nothing to wait for")
        board.machine.now_us = max(board.machine.now_us, at_us)


@dataclass
class RunResult:
    # {"t_ms", "screen", "leds", "i2c_bytes"}, one per change ("spi_bytes" on the MacroPad)
    frames: list[dict[str, Any]]
    state: Any  # potager.app.current.snapshot() at the end; None if no app was running
    nvm: bytes
    nvm_writes: list[NvmWrite]
    crashes: list[Crash]
    warnings: list[str]
    pixels: list[list[bool]]  # the OLED at the end: 64 rows of 128
    leds: list[str]  # the ring at the end: 12 x "#rrggbb"
    end_ms: int
    tones: list[tuple[int, str, int]]  # (t_ms, gpio, frequency): each beep of the piezo


class SimBoard:
    def __init__(
        self,
        firmware_dir: Union[str, Path] = DEFAULT_FIRMWARE,
        *,
        nvm: bytes = ERASED_NVM,
        board_id: str = "raspberry_pi_pico",
        uptime_ms: int = 0,
        console: bool = False,
        drive: Union[str, Path, None] = None,
    ) -> None:
        """uptime_ms: the board was powered on that long before the script's t=0 (its ticks
        are that far on); console: a terminal has the USB serial console open."""
        self.firmware_dir = Path(firmware_dir).resolve()
        if not (self.firmware_dir / "code.py").is_file():
            raise FileNotFoundError(f"no code.py in {self.firmware_dir}")
        self._drive: Optional[tempfile.TemporaryDirectory[str]] = None
        if drive is not None:
            self.firmware_dir = self._mount(Path(drive))
        if board_id not in BOARDS:
            raise ValueError(f"unknown board {board_id!r} (boards: {', '.join(BOARDS)})")
        self.definition = BOARDS[board_id]
        self.uptime_ms, self.console = uptime_ms, console
        self.machine = self._new_machine(nvm)
        self._firmware_names = {
            entry.stem
            for entry in self.firmware_dir.iterdir()
            if not entry.name.startswith((".", "_"))
            and (entry.is_dir() or entry.suffix == ".py")
            and entry.stem not in ("code", "boot", "lib")
        }
        self._clock: Clock = VirtualClock()
        self._end_us: Optional[int] = None
        self._quit = False
        self._observing = True
        self._frames: list[dict[str, Any]] = []
        self._last_seen: Any = None
        self._i2c_at_last_frame = 0
        self._final_state: Any = None
        self._lines: Optional[int] = None  # lines of Python run at start-up, not yet charged
        self._saved_trace: Any = None

    def _mount(self, drive: Path) -> Path:
        """The CIRCUITPY drive as the firmware sees it: the firmware's files and, beside
        code.py, those of `drive` (players.txt...), in a folder of links made for this board."""
        if not drive.is_dir():
            raise FileNotFoundError(f"no drive folder {drive}")
        self._drive = tempfile.TemporaryDirectory(prefix="potager-drive-")
        root = Path(self._drive.name).resolve()
        for entry in self.firmware_dir.iterdir():
            (root / entry.name).symlink_to(entry)
        for entry in sorted(drive.iterdir()):
            if (root / entry.name).is_symlink():
                raise FileExistsError(f"{entry} would hide the firmware's {entry.name}")
            (root / entry.name).symlink_to(entry.resolve())
        return root

    # --- the API ---
    @property
    def nvm(self) -> bytes:
        return bytes(self.machine.nvm)

    def pixels(self) -> list[list[bool]]:
        return self.machine.oled.pixels()

    def leds(self) -> list[str]:
        return self.machine.leds()

    def run_script(self, script: Union[str, Sequence[Command]]) -> RunResult:
        """Power on at t=0 with the NVM the board has, run the script, return what happened.
        A bad script raises ScriptError before anything runs."""
        commands = parse_script(script) if isinstance(script, str) else list(script)
        check_board(commands, self.definition)
        self.machine = self._new_machine(self.nvm)
        t_us = 0
        for command in commands:
            if command.name == "hold":
                assert command.key is not None
                self._schedule_key(t_us, command.key, command.number)
                t_us += (command.number + RELEASE_MS) * 1000
            elif command.name == "wait":
                t_us += command.number * 1000
            elif command.name == "power-cut":
                self.machine.schedule(t_us, self._cut_power)
                self.machine.power_cuts_us.append(t_us)
            elif command.name == "boot":
                self.machine.schedule(t_us, self._boot)
            elif command.name == "reload":
                self.machine.schedule(t_us, self.machine.soft_reload)
            elif command.name == "tear-next-write":
                self.machine.schedule(t_us, functools.partial(self._arm_tear, command.number))
            elif command.name == "turn":
                self._schedule_turn(t_us, command.number)
                t_us += abs(command.number) * TURN_DETENT_MS * 1000
        # the last key change is seen at the next scan: the run goes on until then
        return self._run(VirtualClock(), end_us=t_us + costs.KEY_SCAN_US)

    def run_live(self, clock: Clock, keys: Sequence[tuple[int, int, int]] = ()) -> RunResult:
        """Power on and run until :meth:`quit`; the clock brings the input (terminal UI).
        keys: (at_ms, key, down_ms) pressed from the power-on on (e.g. BACK for the safe menu)."""
        self.machine = self._new_machine(self.nvm)
        for at_ms, key, ms in keys:
            self._schedule_key(at_ms * 1000, key, ms)
        return self._run(clock, end_us=None)

    def _run(self, clock: Clock, *, end_us: Optional[int]) -> RunResult:
        self._clock, self._end_us, self._quit = clock, end_us, False
        self.machine.give_up_us = None if end_us is None else end_us + SETTLE_US
        self._frames, self._last_seen, self._i2c_at_last_frame = [], None, 0
        self._final_state = None
        fakes.install()
        fakes.attach(self.machine, self.definition)
        # Blinka refreshes auto-refresh displays from a thread in real time; the sim runs that
        # background tick itself, at each firmware sleep, so runs are deterministic.
        _library("displayio")._stop_background()
        _full_refresh_as_on_the_board()
        displays.patch_blinka()
        # terminalio is in the board's core; Blinka's loads its font with the drive library
        # adafruit_bitmap_font: imported here, uncharged, or the process's first run that
        # imports terminalio would pay for those loads (68 ms) and its later runs not
        _library("terminalio")
        try:
            with self._virtual_time(), self._firmware_imports():
                self.machine.power_on()
                while not self._over():
                    machine = self.machine
                    if machine.boot_pending and machine.now_us >= machine.code_at_us:
                        self._run_firmware()
                    else:  # (CircuitPython's own start: keys pressed meanwhile are lost)
                        self._advance_to(
                            machine.code_at_us if machine.boot_pending else self._end_us
                        )
        finally:
            self._release_displays()  # (a display kept after code.py ended: the run is over)
            fakes.attach(None)
        return RunResult(
            frames=self._frames,
            state=self._final_state,
            nvm=self.nvm,
            nvm_writes=list(self.machine.nvm_writes),
            crashes=list(self.machine.crashes),
            warnings=list(self.machine.warnings),
            pixels=self.pixels(),
            leds=self.leds(),
            end_ms=self.machine.now_ms,
            tones=list(self.machine.tones),
        )

    # Live controls (for the clock of run_live): each acts at the current virtual time.
    def press(self, key: int, ms: int) -> None:
        self._schedule_key(self.machine.now_us, key, ms)

    def turn(self, detents: int) -> None:
        """The encoder turned (+ clockwise), as the script's ``turn``; nothing on a board
        without one."""
        if self.definition.encoder is not None:
            self._schedule_turn(self.machine.now_us, detents)

    def toggle_power(self) -> None:
        self.machine.schedule(
            self.machine.now_us, self._cut_power if self.machine.powered else self._boot
        )

    def reload(self) -> None:
        """A soft reload (Ctrl-D, autoreload), as the script's ``reload``."""
        self.machine.schedule(self.machine.now_us, self.machine.soft_reload)

    def quit(self) -> None:
        self._quit = True

    def _new_machine(self, nvm: bytes) -> Machine:
        machine = Machine(self.definition, nvm, uptime_ms=self.uptime_ms)
        machine.console = self.console
        return machine

    # --- script and live actions ---
    def _schedule_key(self, at_us: int, key: int, ms: int) -> None:
        machine = self.machine
        machine.schedule(at_us, lambda: machine.set_button(key, True), key=True)
        machine.schedule(at_us + ms * 1000, lambda: machine.set_button(key, False), key=True)

    def _schedule_turn(self, at_us: int, detents: int) -> None:
        """Each detent is four changes of the encoder's (A, B), a quarter of TURN_DETENT_MS
        apart, the first a quarter in (so a detent ends at its TURN_DETENT_MS)."""
        machine = self.machine
        step = 1 if detents > 0 else -1
        quarter_us = TURN_DETENT_MS * 1000 // 4
        for n in range(1, 4 * abs(detents) + 1):
            machine.schedule(
                at_us + n * quarter_us, functools.partial(machine.step_encoder, step), key=True
            )

    def _cut_power(self) -> None:
        was_live = self.machine.live
        self.machine.cut_power()
        if was_live:
            raise StopFirmware

    def _boot(self) -> None:
        was_live = self.machine.live
        if self.machine.powered:
            self.machine.cut_power()
        self.machine.power_on()
        if was_live:
            raise StopFirmware

    def _arm_tear(self, after_bytes: int) -> None:
        self.machine.tear_after = after_bytes

    # --- the run ---
    def _over(self) -> bool:
        machine = self.machine
        if self._quit:
            return True
        if self._end_us is None or machine.now_us < self._end_us or machine.boot_pending:
            return False
        if machine.next_event_us() is not None:
            return False
        if not machine.live:
            return True
        return self._current_app() is not None or machine.now_us >= self._end_us + SETTLE_US

    def _advance_to(self, target_us: Optional[int]) -> None:
        """Let virtual time pass, running the events due on the way."""
        machine = self.machine
        while True:
            due = [machine.next_event_us(), machine.watchdog.deadline_us, target_us]
            if machine.boot_pending and not machine.live:
                due.append(machine.code_at_us)
            times = [t for t in due if t is not None]
            self._clock.wait_until(self, min(times) if times else None)
            machine.run_due_events()
            machine.fire_watchdog()
            if self._quit:
                if machine.live:
                    self._stop_for_good()
                return
            if machine.boot_pending and not machine.live and machine.now_us >= machine.code_at_us:
                return
            if target_us is not None and machine.now_us >= target_us:
                return

    def _firmware_sleep(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if not self.machine.live:  # code still unwinding after the power went
            raise StopFirmware
        if self._lines is not None and (
            self._current_app() is not None or "potager.app" not in sys.modules
        ):
            self._stop_counting()  # the app is up and has drawn its first frame (or no app)
        self._display_background()
        self._observe()
        if self._over():
            self._stop_for_good()
        self._advance_to(self.machine.now_us + round(seconds * 1_000_000))

    def _stop_for_good(self) -> None:
        self._final_state = self._read_state()
        self.machine.halt()
        raise StopFirmware

    def _run_firmware(self) -> None:
        if self.machine.display_due:
            self._make_board_display()
        self.machine.start_firmware()
        self._observing = True
        self._start_counting()
        try:
            runpy.run_path(str(self.firmware_dir / "code.py"), run_name="__main__")
        except (StopFirmware, SystemExit):  # SystemExit: sys.exit() ends code.py
            pass
        except Exception as exc:
            self.machine.record_crash(self._firmware_part(exc), caught=False)
        finally:
            self._stop_counting()
            machine = self.machine
            if machine.reloading:
                # a soft reload: the displays and the pins their buses hold survive it
                machine.halt(keep_pins=self._display_pins())
                machine.boot_pending = True
                self._reset_board_display()
            elif machine.live and machine.board_display is not None:
                # code.py ended or raised, the board stays on: the runtime's display stays,
                # showing its terminal again (a reload then finds it, as on the board)
                machine.halt(keep_pins=self._display_pins())
                self._reset_board_display()
            else:
                if machine.live:  # code.py ended or raised: the board stays on, idle
                    machine.halt()
                self._release_displays()
            self._forget_firmware_modules()

    # --- the start-up's Python work (costs.PYTHON_LINE_US) ---
    def _start_counting(self) -> None:
        """From code.py's start to the app's first frame (its first sleep), each line of the
        firmware's own functions run costs the board's interpreter time: the restore of a save
        (checks, replay) is plain Python, seconds on the board. Module bodies are charged
        as imports; after the start-up, Python is free again (the simulator's speed)."""
        self._lines, self._saved_trace = 0, sys.gettrace()
        prefix = str(self.firmware_dir) + os.sep

        def local(frame: Any, event: str, arg: Any) -> Any:
            if self._lines is None:
                return None
            if event == "line":
                self._lines += 1
                if self._lines >= CHARGED_LINES:  # charged in bundles: a call per line is slow
                    self._lines = 0
                    self.machine.charge(CHARGED_LINES * costs.PYTHON_LINE_US)
            return local

        def calls(frame: Any, event: str, arg: Any) -> Any:
            code = frame.f_code
            if code.co_name == "<module>" or not code.co_filename.startswith(prefix):
                return None
            return local

        sys.settrace(calls)

    def _stop_counting(self) -> None:
        if self._lines is None:
            return
        lines, self._lines = self._lines, None
        sys.settrace(self._saved_trace)
        self.machine.charge(lines * costs.PYTHON_LINE_US)

    def _firmware_part(self, exc: Exception) -> Exception:
        """The traceback from the first firmware frame on (not runpy's and the sim's frames)."""
        tb: Optional[TracebackType] = exc.__traceback__
        while tb is not None and not tb.tb_frame.f_code.co_filename.startswith(
            str(self.firmware_dir) + os.sep
        ):
            tb = tb.tb_next
        return exc.with_traceback(tb) if tb is not None else exc

    # --- what the firmware shows ---
    def _current_app(self) -> Any:
        return getattr(sys.modules.get("potager.app"), "current", None)

    def _observe(self) -> None:
        """Record a frame if the screen text, the OLED traffic or the LED bytes changed."""
        current = self._current_app()
        if current is None or not self._observing:
            return
        try:
            rows = [str(row) for row in current.screen_rows]
        except Exception as exc:
            # Reading it again at every sleep would only repeat the same crash.
            self._observing = False
            self.machine.record_crash(exc, caught=False)
            return
        machine = self.machine
        # the display's bus: the MacroPad's SPI, or I2C
        spi = self.definition.spi_oled is not None
        sent = machine.spi_bytes if spi else machine.i2c_bytes
        seen = (rows, sent, machine.ring_bytes)
        if seen == self._last_seen:
            return
        self._last_seen = seen
        self._frames.append(
            {
                "t_ms": machine.now_ms,
                "screen": rows,
                "leds": machine.leds(),
                "spi_bytes" if spi else "i2c_bytes": sent - self._i2c_at_last_frame,
            }
        )
        self._i2c_at_last_frame = sent

    def _read_state(self) -> Any:
        current = self._current_app()
        if current is None:
            return None
        try:
            state = current.snapshot()
            json.dumps(state)
        except Exception as exc:
            self.machine.record_crash(exc, caught=False)
            return None
        return state

    def _display_background(self) -> None:
        """CircuitPython's background tick: auto-refresh displays refresh when they are due."""
        displayio = sys.modules.get("displayio")
        for display in list(getattr(displayio, "displays", ())):
            if getattr(display, "_auto_refresh", False):
                display._background()

    # --- the process around the firmware ---
    @contextlib.contextmanager
    def _virtual_time(self) -> Iterator[None]:
        firmware_thread = threading.get_ident()
        real_sleep, real_monotonic, real_monotonic_ns = (
            time.sleep,
            time.monotonic,
            time.monotonic_ns,
        )

        def sleep(seconds: Union[float, SupportsIndex]) -> None:
            if threading.get_ident() != firmware_thread:
                real_sleep(seconds)
            elif self.machine.runtime:
                pass  # the runtime's own work (board_init, release): its time is not charged
            elif sys._getframe(1).f_globals.get("__name__") == "fourwire":
                # FourWire's delays (CS toggled after each command byte, the reset pulse) are
                # busy waits in C on the board: time passes, but the firmware does not sleep
                self.machine.charge(round(float(seconds) * 1_000_000))
            else:
                self._firmware_sleep(float(seconds))

        def monotonic() -> float:
            if threading.get_ident() != firmware_thread:
                return real_monotonic()
            return self.machine.uptime_us() / 1_000_000

        def monotonic_ns() -> int:
            if threading.get_ident() != firmware_thread:
                return real_monotonic_ns()
            return self.machine.uptime_us() * 1000

        real_open = builtins.open
        drive = str(self.firmware_dir) + os.sep

        def open_(file: Any, *args: Any, **kwargs: Any) -> Any:
            opened = real_open(file, *args, **kwargs)
            if threading.get_ident() == firmware_thread and str(file).startswith(drive):
                return _DriveFile(opened, self.machine)  # a file the firmware reads from CIRCUITPY
            return opened

        real_collect = gc.collect

        def collect(generation: int = 2) -> int:
            # The firmware's gc.collect() gathers the board's heap before a large allocation.
            # CPython frees by reference counts: a full collection would only walk every object
            # of the host process (8 ms each under pytest, a quarter of a simulated game's CPU)
            # and change nothing the board would see. The youngest generation is enough.
            if threading.get_ident() != firmware_thread:
                return real_collect(generation)
            return real_collect(0)

        time.sleep, time.monotonic, time.monotonic_ns = sleep, monotonic, monotonic_ns
        builtins.open = open_
        gc.collect = collect
        try:
            yield
        finally:
            gc.collect = real_collect
            builtins.open = real_open
            time.sleep, time.monotonic, time.monotonic_ns = (
                real_sleep,
                real_monotonic,
                real_monotonic_ns,
            )

    @contextlib.contextmanager
    def _firmware_imports(self) -> Iterator[None]:
        """The firmware dir goes at the END of sys.path (its code.py must not shadow the
        stdlib's ``code``, which pdb imports); other entries that hold the firmware's packages
        (e.g. the real firmware when this is a stub) leave sys.path meanwhile. Modules the
        process had imported under the firmware's names come back afterwards."""
        saved_path = list(sys.path)
        saved_modules = {
            name: module
            for name, module in list(sys.modules.items())
            if self._is_firmware_module(name, module)
        }
        self._forget_firmware_modules()
        sys.path[:] = [entry for entry in saved_path if not self._holds_firmware(entry)]
        sys.path.append(str(self.firmware_dir))
        importlib.invalidate_caches()
        finder = _ChargedImports(self)
        sys.meta_path.insert(0, finder)
        try:
            yield
        finally:
            sys.meta_path.remove(finder)
            self._forget_firmware_modules()
            sys.modules.update(saved_modules)
            sys.path[:] = saved_path

    def _holds_firmware(self, entry: str) -> bool:
        directory = Path(entry or ".").resolve()
        return directory == self.firmware_dir or any(
            (directory / name).is_dir() or (directory / f"{name}.py").is_file()
            for name in self._firmware_names
        )

    def _is_firmware_module(self, name: str, module: Optional[ModuleType]) -> bool:
        top = name.partition(".")[0]
        if top in self._firmware_names or top in DRIVE_LIBRARIES:
            return True
        file = getattr(module, "__file__", None)
        return isinstance(file, str) and file.startswith(str(self.firmware_dir) + os.sep)

    def _forget_firmware_modules(self) -> None:
        """Power off: the firmware's and the drive libraries' modules are RAM."""
        for name, module in list(sys.modules.items()):
            if self._is_firmware_module(name, module):
                del sys.modules[name]

    def _display_pins(self) -> frozenset[str]:
        displayio = sys.modules.get("displayio")
        pins: set[str] = set()
        for bus in getattr(displayio, "display_buses", ()):
            i2c = getattr(bus, "_i2c", None)
            if isinstance(i2c, fake_busio.I2C) and not i2c._deinited:
                pins.update(i2c._pins)
            spi = getattr(bus, "_spi", None)  # a FourWire: its SPI bus and its DC, CS, RESET
            if isinstance(spi, fake_busio.SPI) and not spi._deinited:
                pins.update(spi._pins)
                for name in ("_dc", "_chip_select", "_reset"):
                    pin = getattr(bus, name, None)
                    if pin is not None and not pin._deinited:
                        pins.add(pin._gpio)
        return frozenset(pins)

    @contextlib.contextmanager
    def _runtime(self) -> Iterator[None]:
        """CircuitPython's own code runs (not code.py): its hardware writes count, its sleeps
        take no time."""
        machine = self.machine
        machine.runtime = True
        try:
            yield
        finally:
            machine.runtime = False

    def _make_board_display(self) -> None:
        """board_init() at power-on: the MacroPad's board.DISPLAY (displays.py)."""
        machine = self.machine
        machine.display_due = False
        self._release_displays()  # (none should be left from before the power went)
        with self._runtime():
            try:
                machine.board_display = displays.make_board_display(self.definition)
            except Exception as exc:  # a fault of the simulator's board, reported as a crash
                machine.record_crash(exc, caught=False)
                self._release_displays()

    def _reset_board_display(self) -> None:
        """A soft reload: the runtime's display shows its terminal again and refreshes by
        itself (CircuitPython's busdisplay_busdisplay_reset), until code.py says otherwise."""
        display = self.machine.board_display
        displayio = sys.modules.get("displayio")
        if display is not None and display in getattr(displayio, "displays", ()):
            with self._runtime():
                display._reset()

    def _release_displays(self) -> None:
        displayio = sys.modules.get("displayio")
        if displayio is None:
            return
        # A display whose constructor was cut short (power cut during its init sleeps) cannot
        # be released; emptying the lists by hand lets the next boot build a display again.
        with self._runtime(), contextlib.suppress(Exception):
            displayio.release_displays()
        displayio.displays.clear()
        displayio.display_buses.clear()
        self.machine.board_display = None


class _DriveFile:
    """A file of the CIRCUITPY drive opened by the firmware: each read costs virtual time (a
    call and the Python that handles what it returns, and the bytes), as reading a font or a
    data file line by line does on the board (costs.py)."""

    def __init__(self, file: Any, machine: Machine) -> None:
        self._file, self._machine = file, machine

    def _charged(self, data: Any) -> Any:
        self._machine.charge(costs.FILE_READ_US + costs.FILE_BYTE_US * len(data))
        return data

    def read(self, *args: Any) -> Any:
        return self._charged(self._file.read(*args))

    def readline(self, *args: Any) -> Any:
        return self._charged(self._file.readline(*args))

    def __iter__(self) -> "_DriveFile":
        return self

    def __next__(self) -> Any:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def __enter__(self) -> "_DriveFile":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._file.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


class _ChargedImports(importlib.abc.MetaPathFinder):
    """Imports of the firmware's modules and of the drive's libraries take virtual time, as
    compiling and loading them does on the board (costs.py)."""

    def __init__(self, board: SimBoard) -> None:
        self.board = board

    def find_spec(self, name: str, path: Any, target: Any = None) -> Any:
        board = self.board
        top = name.partition(".")[0]
        if top not in board._firmware_names and top not in DRIVE_LIBRARIES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None or not spec.has_location or not spec.origin:
            return spec
        if board.definition.board_id in BUILT_IN.get(top, ()):
            return spec  # in the board's CircuitPython core: nothing to load
        size = Path(spec.origin).stat().st_size  # (of the .py: the drive holds its .mpy)
        cost = costs.IMPORT_US + costs.LOAD_NS_PER_BYTE * size // 1000
        if not board.machine.imported:
            board.machine.imported = True
            cost += costs.FIRST_IMPORT_US
        spec.loader = _ChargedLoader(spec.loader, board.machine, cost)
        return spec


class _ChargedLoader(importlib.abc.Loader):
    def __init__(self, loader: Any, machine: Machine, cost_us: int) -> None:
        self.loader, self.machine, self.cost_us = loader, machine, cost_us

    def create_module(self, spec: Any) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.machine.charge(self.cost_us)
        self.loader.exec_module(module)

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, ... for tracebacks
        return getattr(self.loader, name)


def _full_refresh_as_on_the_board() -> None:
    """After a full refresh (a new root group), CircuitPython's displayio forgets every
    tile grid's changes (displayio_group_finish_refresh); Blinka's keeps a `_needs_refresh`
    flag that only a partial refresh clears, so it sent every label again in the next frame.
    Patched once, on Blinka's display core."""
    _library("busdisplay")  # imports Blinka's display core (in the order it needs)
    core = _library("displayio._displaycore")._DisplayCore
    if getattr(core, "_potager_full_refresh", False):
        return
    finish = core.finish_refresh

    def finish_refresh(self: Any) -> None:
        if self.full_refresh and self.current_group is not None:
            _forget_changes(self.current_group)
        finish(self)

    def _forget_changes(group: Any) -> None:
        for layer in group._layers:
            if hasattr(layer, "_needs_refresh"):
                layer._needs_refresh = False
            if isinstance(layer, _library("displayio").Group):
                _forget_changes(layer)

    core.finish_refresh = finish_refresh
    core._potager_full_refresh = True


def _library(name: str) -> Any:
    """A real library module, untyped (its stubs describe the device's API, not Blinka's)."""
    return importlib.import_module(name)
