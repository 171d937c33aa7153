"""Fake ``pwmio``: a PWM output; on the piezo's pin, each tone started is recorded."""

from typing import Any

from host_tools.sim.fakes.link import machine
from host_tools.sim.fakes.microcontroller import gpio_of


class PWMOut:
    def __init__(
        self,
        pin: Any,
        *,
        duty_cycle: int = 0,
        frequency: int = 500,
        variable_frequency: bool = False,
    ) -> None:
        self._gpio = gpio_of(pin)
        machine().claim(self._gpio)
        self._frequency = frequency
        self._variable = variable_frequency
        self._duty = 0
        self.duty_cycle = duty_cycle

    @property
    def frequency(self) -> int:
        return self._frequency

    @frequency.setter
    def frequency(self, value: int) -> None:
        if not self._variable:
            raise AttributeError("Cannot change frequency: variable_frequency is False")
        self._frequency = value

    @property
    def duty_cycle(self) -> int:
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value: int) -> None:
        if not 0 <= value <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        if value and not self._duty:
            machine().tone(self._gpio, self._frequency)
        self._duty = value

    def deinit(self) -> None:
        machine().release(self._gpio)
