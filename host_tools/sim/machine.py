"""The simulated board's hardware: clock, power, OLED, LED ring, buttons, NVM, watchdog.

The fakes of the CircuitPython core modules (``host_tools.sim.fakes``) call into the attached
Machine; the SimBoard (``runner.py``) drives it: it moves the clock, runs the scheduled events
and starts and stops the firmware. Hardware writes made while the firmware is not running
(``live`` false: power gone, or the code unwinding after a cut) have no effect.
"""

import collections
import errno
import heapq
import itertools
import operator
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol

import host_tools.sim.costs as costs  # by its path: this package's __init__ imports this module
from host_tools.sim.boards import OLED_ADDRESS, RING_SIZE, SCRIPT_KEYS, BoardDefinition
from host_tools.sim.sh1106 import SH1106
from host_tools.sim.ssd1306 import SSD1306

# CircuitPython's supervisor.ticks_ms() wraps at 2**29 and starts 65.536 s before its first wrap
# at power-on (a reset); a soft reload does not restart it.
TICKS_PERIOD = 1 << 29
TICKS_AT_BOOT = TICKS_PERIOD - 65_536
NVM_SIZE = 4096  # RP2040 and RP2350: one flash sector
ERASED_NVM = b"\xff" * NVM_SIZE  # a new device's flash
FLASH_PAGE = 256
# The Pico's W25Q16JV: sector erase 45 ms typical, page program 0.4 ms typical (datasheet).
ERASE_US = 45_000
PAGE_PROGRAM_US = 400
SPI_RECORD = 100_000  # the last writes on the SPI bus kept in Machine.spi_record
# A quadrature encoder's (A, B) levels, 1 = open (pulled up), as CircuitPython's decoder
# (shared-module/rotaryio) reads them: a clockwise detent is 11 -> 01 -> 00 -> 10 -> 11
ENCODER_CLOCKWISE = ((True, True), (False, True), (False, False), (True, False))


class StopFirmware(BaseException):
    """Unwinds the firmware when the simulator takes the CPU away (power cut, reset, end of the
    script). Not an Exception, so the firmware's ``except Exception`` recovery lets it pass."""


@dataclass(frozen=True)
class NvmWrite:
    """One assignment to ``microcontroller.nvm``. As ``ports/raspberrypi/common-hal/nvm/
    ByteArray.c`` does it: when every target byte is 0xFF, only the pages it touches are
    programmed; otherwise the 4 KiB sector is read, erased and programmed whole."""

    t_ms: int
    start: int
    length: int  # bytes the firmware wrote (the slice)
    torn: bool = False  # the power was cut during this write
    erased: bool = False  # the write erased the sector
    pages: int = 0  # 256-byte pages programmed (completely or not)
    landed: int = 0  # bytes programmed before the end (or the cut)
    free: int = 0  # erased bytes after the sector's last programmed one, before this write
    record: int = 0  # the bytes it writes up to its last one that is not 0xFF


def flash_write(
    nvm: bytearray, start: int, data: bytes, cut_after: Optional[int] = None
) -> tuple[bool, int, int]:
    """Write ``data`` at ``start`` as the RP2040 port does; ``cut_after``: the power goes after
    that many bytes of programming (0: inside the erase, when there is one). Returns (erased,
    pages, bytes programmed). Pages are programmed in order, so a cut leaves a prefix."""
    stop = start + len(data)
    erased = any(b != 0xFF for b in nvm[start:stop])
    if erased:  # the whole sector comes back from RAM, merged, after the erase
        merged = bytearray(nvm)
        merged[start:stop] = data
        first, image = 0, bytes(merged)
        nvm[:] = ERASED_NVM
    else:
        first = start - start % FLASH_PAGE
        end = -(-stop // FLASH_PAGE) * FLASH_PAGE
        image = bytes(nvm[first:start]) + data + bytes(nvm[stop:end])
    landed = len(image) if cut_after is None else max(0, min(cut_after, len(image)))
    nvm[first : first + landed] = image[:landed]
    pages = -(-(landed if cut_after is not None else len(image)) // FLASH_PAGE)
    return erased, pages, landed


class Flash:
    """A bytearray-like NVM that writes as the board does and counts, for the App on pure fakes
    (``make bench``, tests): ``erases``, ``pages`` programmed, ``writes``."""

    def __init__(self, image: bytes = ERASED_NVM) -> None:
        self.data = bytearray(image)
        self.erases = self.pages = self.writes = 0

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, index: Any) -> Any:
        return bytearray(self.data[index]) if isinstance(index, slice) else self.data[index]

    def __setitem__(self, index: slice, value: Any) -> None:
        start, stop, _ = index.indices(len(self.data))
        data = bytes(memoryview(value))
        if len(data) != stop - start:
            raise ValueError("Slice and value different lengths")
        erased, pages, _ = flash_write(self.data, start, data)
        self.erases += erased
        self.pages += pages
        self.writes += 1


def flash_write_us(erased: bool, pages: int) -> int:
    return (ERASE_US if erased else 0) + pages * PAGE_PROGRAM_US


@dataclass(frozen=True)
class Crash:
    t_ms: int
    caught: bool  # reported by the firmware's own recovery through microcontroller.on_crash
    traceback: str


class WatchDogMode:
    """``watchdog.WatchDogMode`` (the fake ``watchdog`` offers it): defined with the watchdog
    the Machine fires, which the fakes drive."""

    RAISE: "WatchDogMode"
    RESET: "WatchDogMode"

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"watchdog.WatchDogMode.{self._name}"


WatchDogMode.RAISE = WatchDogMode("RAISE")
WatchDogMode.RESET = WatchDogMode("RESET")


class WatchDogTimeout(Exception):
    """``watchdog.WatchDogTimeout``, raised by the Machine's watchdog (the fake offers it)."""


@dataclass
class WatchdogState:
    timeout_s: float = 0.0
    mode: Any = None  # a watchdog.WatchDogMode, or None when stopped
    deadline_us: Optional[int] = None


class PinWatcher(Protocol):
    """A scanner (keypad.Keys) told about every button change."""

    def _pin_changed(self, gpio: str) -> bool:
        """React to a level change on ``gpio``; True if this scanner watches that pin."""

    def _deactivate(self) -> None:
        """The firmware stopped (power cut, reset, end of the run): the scanner is gone."""


@dataclass(frozen=True)
class SpiWrite:
    """One ``busio.SPI.write`` on the display's bus, with the DC and CS levels it was sent at."""

    t_us: int
    dc: bool
    cs: bool
    data: bytes


@dataclass(order=True)
class _Event:
    at_us: int
    seq: int
    action: Callable[[], None] = field(compare=False)
    key: bool = field(default=False, compare=False)  # a button change: may run mid-step


class Machine:
    def __init__(
        self, definition: BoardDefinition, nvm: bytes = ERASED_NVM, *, uptime_ms: int = 0
    ) -> None:
        if len(nvm) != NVM_SIZE:
            raise ValueError(f"an NVM image is {NVM_SIZE} bytes, not {len(nvm)}")
        self.definition = definition
        self.now_us = 0
        # when the power came on; uptime_ms > 0: it came on that long before the run (t=0)
        self.power_on_us = -uptime_ms * 1000
        self.uptime_at_start_ms = uptime_ms
        self.powered = False
        self.live = False  # the firmware is running (and so the board is powered)
        self.boot_pending = False
        # code.py starts then (after CircuitPython's own start: costs.SUPERVISOR_US), not before
        self.code_at_us = 0
        self.imported = False  # code.py has made its first import since it started
        self.reloading = False  # the firmware is stopping for a soft reload
        self._first_power_on = True
        self.console = False  # a terminal has the USB serial console open
        self.event_us: Optional[int] = None  # the time of the scheduled event being run
        self.give_up_us: Optional[int] = None  # a run ends here even if the firmware never sleeps
        self.nvm = bytearray(nvm)
        self.nvm_writes: list[NvmWrite] = []
        self.tear_after: Optional[int] = None
        self.power_cuts_us: list[int] = []  # scheduled power cuts: a write may be inside one
        self.crashes: list[Crash] = []
        self.warnings: list[str] = []
        self.i2c_bytes = 0  # total sent to the OLED (I2C)
        self.spi_bytes = 0  # total on the display's SPI bus (the MacroPad's)
        self.spi_record: collections.deque[SpiWrite] = collections.deque(maxlen=SPI_RECORD)
        self.oled: Any = self._new_oled()
        # the runtime (not the firmware) runs: it makes board.DISPLAY at power-on, releases
        # displays when code.py ends; its hardware writes count, its time is not charged
        self.runtime = False
        self.display_due = False  # the power came on: the runtime makes its display
        self.board_display: Any = None  # board.DISPLAY until released or the power goes
        self._outputs: dict[str, bool] = {}  # gpio -> level of a pin driven as an output
        self._owed_ns = 0  # work done, less than a microsecond, not charged yet
        self.ring_bytes = b""
        self.tones: list[tuple[int, str, int]] = []  # (t_ms, gpio, frequency) per tone started
        self.watchdog = WatchdogState()
        self._events: list[_Event] = []
        self._seq = itertools.count()
        self._buttons_down: set[str] = set()
        self._watchers: list[PinWatcher] = []
        self._claimed: set[str] = set()
        self._unseen: dict[str, int] = {}  # gpio -> when it went down with nothing scanning
        gpio = definition.gpio
        self._oled_pins = (
            (gpio(definition.oled_scl), gpio(definition.oled_sda))
            if definition.oled_scl is not None and definition.oled_sda is not None
            else None
        )
        self._ring_gpio = gpio(definition.ring)
        oled = definition.spi_oled
        self._spi_oled = (
            (gpio(oled.clock), gpio(oled.mosi), gpio(oled.command), gpio(oled.chip_select))
            if oled is not None
            else None
        )
        self._encoder_phase = 0  # index in ENCODER_CLOCKWISE: the detent's 11 at rest
        self._encoder_gpios = (
            (gpio(definition.encoder[0]), gpio(definition.encoder[1]))
            if definition.encoder is not None
            else None
        )

    # --- time and scheduled events ---
    @property
    def now_ms(self) -> int:
        return self.now_us // 1000

    def ticks_ms(self) -> int:
        return self.ticks_at(self.now_us)

    def ticks_at(self, at_us: int) -> int:
        return (TICKS_AT_BOOT + (at_us - self.power_on_us) // 1000) % TICKS_PERIOD

    def uptime_us(self) -> int:
        return self.now_us - self.power_on_us

    def schedule(self, at_us: int, action: Callable[[], None], *, key: bool = False) -> None:
        """Run ``action`` when the clock reaches ``at_us`` (same-time events in schedule order).
        ``key``: a button change, which may also run while the firmware works (see charge)."""
        heapq.heappush(self._events, _Event(at_us, next(self._seq), action, key))

    def next_event_us(self) -> Optional[int]:
        return self._events[0].at_us if self._events else None

    def run_due_events(self, *, keys_only: bool = False) -> None:
        """Run the events due by now, each told its own time (``event_us``). keys_only: only
        the button changes at the head of the queue (nothing else happens mid-step)."""
        while self._events and self._events[0].at_us <= self.now_us:
            if keys_only and not self._events[0].key:
                return
            event = heapq.heappop(self._events)
            self.event_us = event.at_us
            try:
                event.action()
            finally:
                self.event_us = None

    def event_time_us(self) -> int:
        return self.now_us if self.event_us is None else self.event_us

    def charge(self, us: int) -> None:
        """Work the firmware did takes virtual time: keys keep being scanned meanwhile and a
        watchdog not fed in time resets the board (see costs.py for what is charged)."""
        if not self.live or us <= 0:
            return
        self.now_us += us
        self.run_due_events(keys_only=True)
        self.fire_watchdog()
        if self.give_up_us is not None and self.now_us >= self.give_up_us:
            self.halt()  # a loop that never sleeps, and no watchdog: the run ends anyway
            raise StopFirmware

    def fire_watchdog(self) -> None:
        state = self.watchdog
        if state.deadline_us is None or self.now_us < state.deadline_us:
            return
        if state.mode is WatchDogMode.RESET:
            self.record_failure(f"watchdog: not fed for {state.timeout_s} s, the board was reset")
            self.request_reset()
        state.mode = state.deadline_us = None
        raise WatchDogTimeout("Watchdog timer expired.")

    # --- power ---
    def power_on(self) -> None:
        """The run's first power-on is its t=0, when code.py starts (scripts type from
        there); any later one (a scripted boot, a reset) first runs CircuitPython's own start."""
        if not self.powered and not self._first_power_on:
            self.power_on_us = self.now_us  # ticks start again
            self.code_at_us = self.now_us + costs.SUPERVISOR_US
        self._first_power_on = False  # the first keeps uptime_ms
        self.powered = True
        self.boot_pending = True
        self.display_due = self._spi_oled is not None

    def start_firmware(self) -> None:
        self.boot_pending = False
        self.reloading = False
        self.imported = False
        self.live = True

    def halt(self, keep_pins: frozenset[str] = frozenset()) -> None:
        """The firmware stopped but the power stays: the screen and LEDs keep what they show.
        ``keep_pins``: still claimed (by a display that survives a soft reload)."""
        self.live = False
        for watcher in self._watchers:
            watcher._deactivate()
        self._watchers.clear()
        self._claimed &= set(keep_pins)
        self.watchdog = WatchdogState()

    def soft_reload(self) -> None:
        """Ctrl-D, autoreload or supervisor.reload(): the firmware stops (raises StopFirmware)
        and code.py runs again; RAM is lost but not the power, the ticks, the NVM or the
        displays (the runner keeps those and the pins they hold)."""
        if not self.live:
            if self.powered:
                self.boot_pending = True
            return
        self.reloading = True
        raise StopFirmware

    def cut_power(self) -> None:
        """RAM, the OLED's GDDRAM and the LEDs' latches are lost; the NVM stays."""
        self.halt()
        self.powered = False
        self.boot_pending = False
        self.display_due = False
        self.board_display = None
        self._outputs.clear()
        self.oled = self._new_oled()
        self.ring_bytes = b""

    def request_reset(self) -> None:
        """microcontroller.reset() or the watchdog: a cut, then power back."""
        self.cut_power()
        self.power_on()
        raise StopFirmware

    # --- pins ---
    def board_name(self, gpio: str) -> str:
        names = [name for name, pin in self.definition.pins.items() if pin == gpio]
        return names[0] if names else gpio

    def claim(self, gpio: str) -> None:
        if gpio in self._claimed:
            raise ValueError(f"{self.board_name(gpio)} in use")
        self._claimed.add(gpio)

    def release(self, gpio: str) -> None:
        self._claimed.discard(gpio)

    def pin_level(self, gpio: str, pull_up: Optional[bool]) -> bool:
        """The level a pin reads: a held button shorts it to ground; otherwise the pull wins.
        A floating pin (no pull) reads low, so a missing pull-up shows as a stuck key."""
        if gpio in self._buttons_down:
            return False
        if self._encoder_gpios is not None and gpio in self._encoder_gpios:
            closed = ENCODER_CLOCKWISE[self._encoder_phase][self._encoder_gpios.index(gpio)]
            if not closed:  # the encoder's contact to ground is closed
                return False
        return bool(pull_up)

    def set_output(self, gpio: str, level: Optional[bool]) -> None:
        """A pin driven as an output (None: no longer an output)."""
        if level is None:
            self._outputs.pop(gpio, None)
        elif self.live or self.runtime:
            self._outputs[gpio] = level

    def output_level(self, gpio: str) -> Optional[bool]:
        return self._outputs.get(gpio)

    # --- buttons and key scanners ---
    def watch_pins(self, watcher: PinWatcher) -> None:
        self._watchers.append(watcher)
        self._unseen.clear()  # keys held now are seen by its first scan

    def unwatch_pins(self, watcher: PinWatcher) -> None:
        self._watchers.remove(watcher)

    def set_button(self, key: int, down: bool) -> None:
        """key: an index in SCRIPT_KEYS, which this board has (see script.check_board)."""
        name = self.definition.key_pin(key)
        assert name is not None
        gpio = self.definition.gpio(name)
        if (gpio in self._buttons_down) == down:
            return
        if down:
            self._buttons_down.add(gpio)
        else:
            self._buttons_down.discard(gpio)
        watched = any([watcher._pin_changed(gpio) for watcher in list(self._watchers)])
        if down and not watched and self.live:
            self._unseen[gpio] = self.event_time_us() // 1000
        elif not down and gpio in self._unseen:
            self.warnings.append(
                f"t={self._unseen.pop(gpio)} ms: {SCRIPT_KEYS[key]} pressed and released while no"
                f" keypad.Keys watched {self.board_name(gpio)}: the press is lost, as on the device"
            )

    # --- the encoder ---
    def step_encoder(self, step: int) -> None:
        """The encoder turned a quarter of a detent: +1 clockwise, -1 anticlockwise; its (A, B)
        change and whatever watches them (rotaryio) sees the change."""
        assert self._encoder_gpios is not None
        old = ENCODER_CLOCKWISE[self._encoder_phase]
        self._encoder_phase = (self._encoder_phase + step) % len(ENCODER_CLOCKWISE)
        new = ENCODER_CLOCKWISE[self._encoder_phase]
        for gpio, was, now in zip(self._encoder_gpios, old, new, strict=True):
            if was != now:
                for watcher in list(self._watchers):
                    watcher._pin_changed(gpio)

    def watch_encoder(self, watcher: PinWatcher) -> None:
        """As watch_pins, for a rotaryio encoder (nothing about keys held unseen)."""
        self._watchers.append(watcher)

    # --- OLED and LEDs ---
    def oled_on_bus(self, scl: str, sda: str) -> bool:
        return (scl, sda) == self._oled_pins

    def i2c_write(self, oled_on_bus: bool, address: int, data: bytes) -> None:
        if not self.live:
            return
        if not oled_on_bus or address != OLED_ADDRESS:
            raise OSError(errno.ENODEV, "No such device")
        self.i2c_bytes += len(data)
        self.oled.write(data)
        self.charge(costs.I2C_WRITE_US + (costs.I2C_BYTE_US + costs.RENDER_US_PER_BYTE) * len(data))

    def _new_oled(self) -> Any:
        return SH1106() if self.definition.spi_oled is not None else SSD1306()

    def spi_write(self, pins: tuple[str, ...], data: bytes) -> None:
        """A write on a busio.SPI with (clock, MOSI, ...) ``pins``: on the display's bus, each
        byte is recorded with the DC and CS levels and clocked into the SH1106 (CS low)."""
        if not (self.live or self.runtime) or not data:
            return
        if self._spi_oled is not None and pins[:2] == self._spi_oled[:2]:
            dc = bool(self._outputs.get(self._spi_oled[2], False))
            cs = bool(self._outputs.get(self._spi_oled[3], True))  # pulled up: not selected
            self.spi_record.append(SpiWrite(self.now_us, dc, cs, data))
            self.spi_bytes += len(data)
            if not cs:
                self.oled.write(data, dc)
            self._charge_ns((costs.SPI_BYTE_NS + 1000 * costs.RENDER_US_PER_BYTE) * len(data))
        else:
            self._charge_ns(costs.SPI_BYTE_NS * len(data))

    def _charge_ns(self, ns: int) -> None:
        """charge() in nanoseconds: the fractions of a microsecond add up (a byte's 0.9 us)."""
        if not self.live:
            return
        self._owed_ns += ns
        us, self._owed_ns = divmod(self._owed_ns, 1000)
        self.charge(us)

    def neopixel_write(self, gpio: str, data: bytes) -> None:
        if self.live and gpio == self._ring_gpio:
            self.ring_bytes = bytes(data)

    def tone(self, gpio: str, frequency: int) -> None:
        self.tones.append((self.now_ms, gpio, frequency))

    def leds(self) -> list[str]:
        """The ring's colours as '#rrggbb', pixel 0 first (the bytes are GRB)."""
        padded = self.ring_bytes[: 3 * RING_SIZE].ljust(3 * RING_SIZE, b"\0")
        return [
            f"#{padded[i + 1]:02x}{padded[i]:02x}{padded[i + 2]:02x}"
            for i in range(0, len(padded), 3)
        ]

    # --- NVM ---
    def write_nvm(self, index: Any, value: Any) -> None:
        if not self.live:
            return
        size = len(self.nvm)
        if isinstance(index, slice):
            start, stop, step = index.indices(size)
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            data = bytes(memoryview(value))
            if len(data) != max(0, stop - start):
                raise ValueError("Slice and value different lengths")
        else:
            start = operator.index(index)
            start += size if start < 0 else 0
            if not 0 <= start < size:
                raise IndexError("ByteArray index out of range")
            if not 0 <= value <= 255:
                raise ValueError("bytes value out of range")
            data = bytes([value])
        cut_after = self.tear_after
        # a power cut scheduled while the flash is busy (interrupts off, time passes) lands inside
        erased, pages, _ = flash_write(bytearray(self.nvm), start, data)
        busy_us = flash_write_us(erased, pages)
        cut_us = next(
            (t for t in self.power_cuts_us if self.now_us <= t < self.now_us + busy_us), None
        )
        if cut_after is None and cut_us is not None:
            done_us = cut_us - self.now_us - (ERASE_US if erased else 0)
            cut_after = max(0, done_us) * FLASH_PAGE // PAGE_PROGRAM_US
        free = len(self.nvm) - len(bytes(self.nvm).rstrip(b"\xff"))
        erased, pages, landed = flash_write(self.nvm, start, data, cut_after)
        torn = cut_after is not None
        record = len(data.rstrip(b"\xff"))
        self.nvm_writes.append(
            NvmWrite(self.now_ms, start, len(data), torn, erased, pages, landed, free, record)
        )
        if torn:
            self.tear_after = None
            if cut_us is not None:
                self.now_us = cut_us
            self.cut_power()
            raise StopFirmware
        self.charge(flash_write_us(erased, pages))  # interrupts off: the keys wait

    @property
    def nvm_erases(self) -> int:
        return sum(w.erased for w in self.nvm_writes)

    @property
    def nvm_pages(self) -> int:
        return sum(w.pages for w in self.nvm_writes)

    # --- crashes ---
    def record_crash(self, exc: BaseException, *, caught: bool) -> None:
        text = "".join(traceback.format_exception(exc))
        self.crashes.append(Crash(self.now_ms, caught, text))

    def record_failure(self, message: str) -> None:
        """A fault that is not an exception in the firmware (e.g. a watchdog reset)."""
        self.crashes.append(Crash(self.now_ms, False, message + "\n"))
