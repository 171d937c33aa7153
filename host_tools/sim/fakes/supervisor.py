"""Fake ``supervisor``: ``ticks_ms()`` is the virtual clock, wrapping at 2**29 like the device."""

import sys

from host_tools.sim import costs
from host_tools.sim.fakes.link import machine


def ticks_ms() -> int:
    sim = machine()
    sim.charge(costs.TICKS_CALL_US)
    return sim.ticks_ms()


class Runtime:
    serial_bytes_available = 0
    usb_connected = True
    autoreload = True

    @property
    def serial_connected(self) -> bool:
        """As on the board (supervisor/shared/serial.c): a display's terminal counts as a
        console, so this is True whenever a display exists, terminal program or not."""
        displayio = sys.modules.get("displayio")
        return machine().console or bool(getattr(displayio, "displays", ()))


class StatusBar:
    console = True
    display = True


runtime = Runtime()
status_bar = StatusBar()


def reload() -> None:
    """A soft reload: code.py starts again; RAM is lost, the power, ticks and displays stay."""
    machine().soft_reload()
