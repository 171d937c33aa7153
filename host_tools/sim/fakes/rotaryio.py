"""Fake ``rotaryio``: ``IncrementalEncoder`` counts the detents of the machine's encoder.

As CircuitPython's decoder (shared-module/rotaryio, fed on the RP2040 by a PIO program that
reports every change of the pins): each Gray-code step of (A, B) is a quarter count, +1
clockwise (11 -> 01 -> 00 -> 10 -> 11), -1 the other way, a jump over a state is ignored;
``divisor`` quarter counts one way make ``position`` move by one and start the count again.
The pins are read with pull-ups and stay claimed until ``deinit()``.
"""

from typing import Any

from host_tools.sim.fakes.link import machine
from host_tools.sim.fakes.microcontroller import gpio_of

# (A, B) as A*2+B in clockwise order: one step forward is a quarter count +1, one back -1, two
# (a jump over a state: the direction is unknown) nothing
_CLOCKWISE = (0b11, 0b01, 0b00, 0b10)
_QUARTER = {1: +1, 3: -1}


class IncrementalEncoder:
    def __init__(self, pin_a: Any, pin_b: Any, divisor: int = 4) -> None:
        sim = machine()
        self._gpios = (gpio_of(pin_a), gpio_of(pin_b))
        if self._gpios[0] == self._gpios[1]:
            raise ValueError("pin_a and pin_b must be different")
        sim.claim(self._gpios[0])
        try:
            sim.claim(self._gpios[1])
        except ValueError:
            sim.release(self._gpios[0])
            raise
        self._divisor = 4
        self.divisor = divisor
        self._state = self._read()
        self._sub_count = 0
        self._position = 0
        self._deinited = False
        sim.watch_encoder(self)

    def _read(self) -> int:
        sim = machine()
        a, b = (sim.pin_level(gpio, True) for gpio in self._gpios)
        return int(a) << 1 | int(b)

    def _check(self) -> None:
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")

    @property
    def position(self) -> int:
        self._check()
        return self._position

    @position.setter
    def position(self, value: int) -> None:
        self._check()
        self._position = int(value)

    @property
    def divisor(self) -> int:
        self._check()
        return self._divisor

    @divisor.setter
    def divisor(self, value: int) -> None:
        if int(value) < 1:
            raise ValueError("divisor must be at least 1")
        self._divisor = int(value)

    def deinit(self) -> None:
        if not self._deinited:
            self._deinited = True
            sim = machine()
            if self in sim._watchers:
                sim.unwatch_pins(self)
            for gpio in self._gpios:
                sim.release(gpio)

    def __enter__(self) -> "IncrementalEncoder":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deinit()

    # --- told by the machine (a PinWatcher) ---
    def _pin_changed(self, gpio: str) -> bool:
        if gpio not in self._gpios:
            return False
        new = self._read()
        turn = (_CLOCKWISE.index(new) - _CLOCKWISE.index(self._state)) % len(_CLOCKWISE)
        self._state = new
        step = _QUARTER.get(turn)
        if step is None:
            return True
        self._sub_count += step
        if self._sub_count >= self._divisor:
            self._position += 1
            self._sub_count = 0
        elif self._sub_count <= -self._divisor:
            self._position -= 1
            self._sub_count = 0
        return True

    def _deactivate(self) -> None:
        self._deinited = True
