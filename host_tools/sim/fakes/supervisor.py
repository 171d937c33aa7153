"""Fake ``supervisor``: ``ticks_ms()`` is the virtual clock, wrapping at 2**29 like the device."""

from host_tools.sim.fakes import machine


def ticks_ms() -> int:
    return machine().ticks_ms()


class Runtime:
    serial_connected = False
    serial_bytes_available = 0
    usb_connected = True
    autoreload = True


class StatusBar:
    console = True
    display = True


runtime = Runtime()
status_bar = StatusBar()


def reload() -> None:
    """A soft reload loses RAM like a reset: the simulator treats it as one."""
    machine().request_reset()
