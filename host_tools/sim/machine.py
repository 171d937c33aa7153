"""The simulated board's hardware: clock, power, OLED, LED ring, buttons, NVM, watchdog.

The fakes of the CircuitPython core modules (``host_tools.sim.fakes``) call into the attached
Machine; the SimBoard (``runner.py``) drives it: it moves the clock, runs the scheduled events
and starts and stops the firmware. Hardware writes made while the firmware is not running
(``live`` false: power gone, or the code unwinding after a cut) have no effect.
"""

import errno
import heapq
import itertools
import operator
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol

from host_tools.sim.boards import KEY_NAMES, OLED_ADDRESS, RING_SIZE, BoardDefinition
from host_tools.sim.ssd1306 import SSD1306

# CircuitPython's supervisor.ticks_ms() wraps at 2**29 and starts 65.536 s before its first wrap.
TICKS_PERIOD = 1 << 29
TICKS_AT_BOOT = TICKS_PERIOD - 65_536
NVM_SIZE = 4096  # RP2040 and RP2350
ERASED_NVM = b"\xff" * NVM_SIZE  # a new device's flash


class StopFirmware(BaseException):
    """Unwinds the firmware when the simulator takes the CPU away (power cut, reset, end of the
    script). Not an Exception, so the firmware's ``except Exception`` recovery lets it pass."""


@dataclass(frozen=True)
class NvmWrite:
    """One assignment to ``microcontroller.nvm`` (each one erases and rewrites flash)."""

    t_ms: int
    start: int
    length: int  # bytes that landed
    torn: bool = False  # the power was cut during this write


@dataclass(frozen=True)
class Crash:
    t_ms: int
    caught: bool  # reported by the firmware's own recovery through microcontroller.on_crash
    traceback: str


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


@dataclass(order=True)
class _Event:
    at_us: int
    seq: int
    action: Callable[[], None] = field(compare=False)


class Machine:
    def __init__(self, definition: BoardDefinition, nvm: bytes = ERASED_NVM) -> None:
        if len(nvm) != NVM_SIZE:
            raise ValueError(f"an NVM image is {NVM_SIZE} bytes, not {len(nvm)}")
        self.definition = definition
        self.now_us = 0
        self.boot_us = 0
        self.powered = False
        self.live = False  # the firmware is running (and so the board is powered)
        self.boot_pending = False
        self.nvm = bytearray(nvm)
        self.nvm_writes: list[NvmWrite] = []
        self.tear_after: Optional[int] = None
        self.crashes: list[Crash] = []
        self.warnings: list[str] = []
        self.i2c_bytes = 0  # total sent to the OLED
        self.oled = SSD1306()
        self.ring_bytes = b""
        self.tones: list[tuple[int, str, int]] = []  # (t_ms, gpio, frequency) per tone started
        self.watchdog = WatchdogState()
        self._events: list[_Event] = []
        self._seq = itertools.count()
        self._buttons_down: set[str] = set()
        self._watchers: list[PinWatcher] = []
        self._claimed: set[str] = set()
        gpio = definition.gpio
        self._oled_pins = (gpio(definition.oled_scl), gpio(definition.oled_sda))
        self._ring_gpio = gpio(definition.ring)
        self._button_gpios = tuple(gpio(name) for name in definition.buttons)

    # --- time and scheduled events ---
    @property
    def now_ms(self) -> int:
        return self.now_us // 1000

    def ticks_ms(self) -> int:
        return (TICKS_AT_BOOT + (self.now_us - self.boot_us) // 1000) % TICKS_PERIOD

    def uptime_us(self) -> int:
        return self.now_us - self.boot_us

    def schedule(self, at_us: int, action: Callable[[], None]) -> None:
        """Run ``action`` when the clock reaches ``at_us`` (same-time events in schedule order)."""
        heapq.heappush(self._events, _Event(at_us, next(self._seq), action))

    def next_event_us(self) -> Optional[int]:
        return self._events[0].at_us if self._events else None

    def run_due_events(self) -> None:
        while self._events and self._events[0].at_us <= self.now_us:
            heapq.heappop(self._events).action()

    # --- power ---
    def power_on(self) -> None:
        self.powered = True
        self.boot_pending = True

    def start_firmware(self) -> None:
        self.boot_pending = False
        self.live = True
        self.boot_us = self.now_us

    def halt(self) -> None:
        """The firmware stopped but the power stays: the screen and LEDs keep what they show."""
        self.live = False
        for watcher in self._watchers:
            watcher._deactivate()
        self._watchers.clear()
        self._claimed.clear()
        self.watchdog = WatchdogState()

    def cut_power(self) -> None:
        """RAM, the OLED's GDDRAM and the LEDs' latches are lost; the NVM stays."""
        self.halt()
        self.powered = False
        self.boot_pending = False
        self.oled = SSD1306()
        self.ring_bytes = b""

    def request_reset(self) -> None:
        """microcontroller.reset(), supervisor.reload() or the watchdog: a cut, then power back."""
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
        return bool(pull_up)

    # --- buttons and key scanners ---
    def watch_pins(self, watcher: PinWatcher) -> None:
        self._watchers.append(watcher)

    def unwatch_pins(self, watcher: PinWatcher) -> None:
        self._watchers.remove(watcher)

    def set_button(self, key: int, down: bool) -> None:
        gpio = self._button_gpios[key]
        if (gpio in self._buttons_down) == down:
            return
        if down:
            self._buttons_down.add(gpio)
        else:
            self._buttons_down.discard(gpio)
        watched = [watcher._pin_changed(gpio) for watcher in list(self._watchers)]
        if self.live and down and not any(watched):
            self.warnings.append(
                f"t={self.now_ms} ms: {KEY_NAMES[key]} pressed while no keypad.Keys watched"
                f" {self.board_name(gpio)}: the press is lost, as on the device"
            )

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
        torn = self.tear_after is not None
        landed = data[: self.tear_after] if torn else data
        self.nvm[start : start + len(landed)] = landed
        self.nvm_writes.append(NvmWrite(self.now_ms, start, len(landed), torn))
        if torn:
            self.tear_after = None
            self.cut_power()
            raise StopFirmware

    # --- crashes ---
    def record_crash(self, exc: BaseException, *, caught: bool) -> None:
        text = "".join(traceback.format_exception(exc))
        self.crashes.append(Crash(self.now_ms, caught, text))

    def record_failure(self, message: str) -> None:
        """A fault that is not an exception in the firmware (e.g. a watchdog reset)."""
        self.crashes.append(Crash(self.now_ms, False, message + "\n"))
