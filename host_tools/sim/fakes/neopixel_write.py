"""Fake ``neopixel_write``: the bytes written to the ring's data pin are what the LEDs show."""

from typing import Any

from host_tools.sim.fakes.link import machine


def neopixel_write(digitalinout: Any, buf: Any) -> None:
    machine().neopixel_write(digitalinout._gpio, bytes(memoryview(buf)))
