"""Fake ``microcontroller``: pins, NVM, watchdog, CPU, reset, and the ``on_crash`` hook."""

from types import SimpleNamespace
from typing import Any

from host_tools.sim.fakes.link import machine
from host_tools.sim.fakes.watchdog import WatchDogTimer


class Pin:
    """A pin of the RP2040; compared by identity, as on the device."""

    def __init__(self, gpio: str) -> None:
        self._gpio = gpio

    def __repr__(self) -> str:
        return f"microcontroller.pin.{self._gpio}"


pin = SimpleNamespace(**{f"GPIO{n}": Pin(f"GPIO{n}") for n in range(30)})


def gpio_of(p: Any) -> str:
    if not isinstance(p, Pin):
        raise TypeError(f"pin must be of type Pin, not {type(p).__name__}")
    return p._gpio


class ByteArray:
    """``microcontroller.nvm``: every assignment is one flash erase-and-write."""

    def __len__(self) -> int:
        return len(machine().nvm)

    def __getitem__(self, index: Any) -> Any:
        data = machine().nvm
        if isinstance(index, slice):
            if index.indices(len(data))[2] != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            return bytearray(data[index])
        return data[index]

    def __setitem__(self, index: Any, value: Any) -> None:
        machine().write_nvm(index, value)


class Processor:
    frequency = 125_000_000
    temperature = 27.0
    voltage = 3.3
    uid = bytearray(b"\xe6\x61\x38\x50\x93\x22\x35\x2b")


nvm = ByteArray()
watchdog = WatchDogTimer()
cpu = Processor()


def reset() -> None:
    machine().request_reset()


def on_crash(exc: BaseException) -> None:
    """Not in CircuitPython: the firmware reports here an exception its recovery caught."""
    machine().record_crash(exc, caught=True)
