"""Fake ``busio``: an I2C bus whose writes reach the SSD1306 emulator when it is wired to the
bus's pins (as on the device, a bus on other pins finds no display). Nothing is wired to an
SPI bus or a UART: those exist as names only (Blinka's displayio annotates with ``busio.SPI``)."""

from typing import Any, Optional

from host_tools.sim.boards import OLED_ADDRESS
from host_tools.sim.fakes import machine
from host_tools.sim.fakes.microcontroller import gpio_of


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
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("nothing is wired to an SPI bus on the simulated board")


class UART:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("nothing is wired to a UART on the simulated board")
