"""Fake ``busio``: an I2C bus whose writes reach the SSD1306 emulator when it is wired to the
bus's pins (as on the device, a bus on other pins finds no display), and an SPI bus whose
writes reach the SH1106 emulator on the MacroPad's display pins (each byte with the level of
the DC and CS outputs; on other pins they only take their time). Nothing is wired to a UART:
it exists as a name only."""

from typing import Any, Optional

from host_tools.sim.boards import OLED_ADDRESS
from host_tools.sim.fakes.link import machine
from host_tools.sim.fakes.microcontroller import gpio_of

PERIPHERAL_HZ = 125_000_000  # the RP2040's clk_peri


class I2C:
    def __init__(self, scl: Any, sda: Any, *, frequency: int = 100_000, timeout: int = 255) -> None:
        sim = machine()
        self._pins = (gpio_of(scl), gpio_of(sda))
        for gpio in self._pins:
            sim.claim(gpio)
        self._oled_on_bus = sim.oled_on_bus(*self._pins)
        self.frequency = frequency
        self._locked = False
        self._deinited = False

    def _check(self, *, lock: bool = True) -> None:
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if lock and not self._locked:
            raise RuntimeError("Function requires lock")

    def try_lock(self) -> bool:
        self._check(lock=False)
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    def scan(self) -> list[int]:
        self._check()
        return [OLED_ADDRESS] if self._oled_on_bus else []

    def writeto(
        self, address: int, buffer: Any, *, start: int = 0, end: Optional[int] = None
    ) -> None:
        self._check()
        machine().i2c_write(self._oled_on_bus, address, bytes(memoryview(buffer)[start:end]))

    def deinit(self) -> None:
        if not self._deinited:
            self._deinited = True
            for gpio in self._pins:
                machine().release(gpio)

    def __enter__(self) -> "I2C":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deinit()


class SPI:
    """``busio.SPI(clock, MOSI=None, MISO=None, *, half_duplex=False)``, write-only here: a read
    gets zeros (no part on the simulated boards answers on SPI)."""

    def __init__(
        self, clock: Any, MOSI: Any = None, MISO: Any = None, *, half_duplex: bool = False
    ) -> None:
        sim = machine()
        self._pins = tuple(gpio_of(pin) for pin in (clock, MOSI, MISO) if pin is not None)
        self._clock_and_mosi = (gpio_of(clock), gpio_of(MOSI) if MOSI is not None else "")
        claimed: list[str] = []
        try:
            for gpio in self._pins:
                sim.claim(gpio)
                claimed.append(gpio)
        except ValueError:
            for gpio in claimed:
                sim.release(gpio)
            raise
        self._has_mosi = MOSI is not None
        self._baudrate, self._polarity, self._phase, self._bits = 250_000, 0, 0, 8
        self._locked = False
        self._deinited = False

    def _check(self, *, lock: bool = True) -> None:
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if lock and not self._locked:
            raise RuntimeError("Function requires lock")

    def configure(
        self, *, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8
    ) -> None:
        self._check()
        if polarity not in (0, 1) or phase not in (0, 1):
            raise ValueError("polarity and phase must be 0 or 1")
        if bits not in (8, 16):
            raise ValueError("bits must be 8 or 16")
        self._baudrate, self._polarity, self._phase, self._bits = baudrate, polarity, phase, bits

    @property
    def frequency(self) -> int:
        """The clock the RP2040 makes of the baud rate asked (pico-sdk's spi_set_baudrate: the
        smallest even prescaler that reaches it, then the largest post-divider not above it):
        10 MHz gives 125 MHz / 14 = 8.93 MHz."""
        self._check(lock=False)
        clock, baudrate = PERIPHERAL_HZ, self._baudrate
        prescale = next((p for p in range(2, 255, 2) if clock < (p + 2) * 256 * baudrate), 254)
        postdiv = next(
            (d for d in range(256, 1, -1) if clock // (prescale * (d - 1)) > baudrate), 1
        )
        return clock // (prescale * postdiv)

    def try_lock(self) -> bool:
        self._check(lock=False)
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self) -> None:
        self._locked = False

    def write(self, buffer: Any, *, start: int = 0, end: Optional[int] = None) -> None:
        self._check()
        if not self._has_mosi:
            raise ValueError("No MOSI pin")
        machine().spi_write(self._clock_and_mosi, bytes(memoryview(buffer)[start:end]))

    def readinto(
        self, buffer: Any, *, start: int = 0, end: Optional[int] = None, write_value: int = 0
    ) -> None:
        self._check()
        view = memoryview(buffer).cast("B")[start:end]
        view[:] = bytes(len(view))

    def write_readinto(
        self,
        out_buffer: Any,
        in_buffer: Any,
        *,
        out_start: int = 0,
        out_end: Optional[int] = None,
        in_start: int = 0,
        in_end: Optional[int] = None,
    ) -> None:
        self.write(out_buffer, start=out_start, end=out_end)
        self.readinto(in_buffer, start=in_start, end=in_end)

    def deinit(self) -> None:
        if not self._deinited:
            self._deinited = True
            for gpio in self._pins:
                machine().release(gpio)

    def __enter__(self) -> "SPI":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deinit()


class UART:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("nothing is wired to a UART on the simulated board")
