"""Fake ``digitalio``: pins as inputs (reading the buttons) or outputs (the NeoPixel data, the
display bus's DC, CS and RESET lines: the machine knows the level each output drives)."""

from typing import Any, Optional

from host_tools.sim.fakes.link import machine
from host_tools.sim.fakes.microcontroller import gpio_of


class _Constant:
    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"digitalio.{self._name}"


class Direction:
    INPUT = _Constant("Direction.INPUT")
    OUTPUT = _Constant("Direction.OUTPUT")


class Pull:
    UP = _Constant("Pull.UP")
    DOWN = _Constant("Pull.DOWN")


class DriveMode:
    PUSH_PULL = _Constant("DriveMode.PUSH_PULL")
    OPEN_DRAIN = _Constant("DriveMode.OPEN_DRAIN")


class DigitalInOut:
    def __init__(self, pin: Any) -> None:
        self._gpio = gpio_of(pin)
        machine().claim(self._gpio)
        self._deinited = False
        self._direction: Any = Direction.INPUT
        self._pull: Optional[Any] = None
        self._value = False
        self.drive_mode: Any = DriveMode.PUSH_PULL

    def _check(self) -> None:
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")

    @property
    def direction(self) -> Any:
        self._check()
        return self._direction

    @direction.setter
    def direction(self, direction: Any) -> None:
        if direction is Direction.OUTPUT:
            self.switch_to_output()
        elif direction is Direction.INPUT:
            self.switch_to_input()
        else:
            raise ValueError("Invalid direction.")

    def switch_to_output(self, value: bool = False, drive_mode: Any = DriveMode.PUSH_PULL) -> None:
        self._check()
        self._direction, self._pull = Direction.OUTPUT, None
        self._value, self.drive_mode = bool(value), drive_mode
        machine().set_output(self._gpio, self._value)

    def switch_to_input(self, pull: Optional[Any] = None) -> None:
        self._check()
        self._direction, self._pull = Direction.INPUT, pull
        machine().set_output(self._gpio, None)

    @property
    def value(self) -> bool:
        self._check()
        if self._direction is Direction.OUTPUT:
            return self._value
        pull_up = None if self._pull is None else self._pull is Pull.UP
        return machine().pin_level(self._gpio, pull_up)

    @value.setter
    def value(self, value: bool) -> None:
        self._check()
        if self._direction is not Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._value = bool(value)
        machine().set_output(self._gpio, self._value)

    @property
    def pull(self) -> Optional[Any]:
        self._check()
        return self._pull

    @pull.setter
    def pull(self, pull: Optional[Any]) -> None:
        self._check()
        if self._direction is not Direction.INPUT:
            raise AttributeError("Pull not used when direction is output.")
        self._pull = pull

    def deinit(self) -> None:
        if not self._deinited:
            self._deinited = True
            machine().set_output(self._gpio, None)
            machine().release(self._gpio)

    def __enter__(self) -> "DigitalInOut":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deinit()
