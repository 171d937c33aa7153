"""Fakes of the CircuitPython core modules, installed in ``sys.modules`` under their names.

Only the core modules are faked (``board``, ``busio``, ``digitalio``, ``keypad``,
``microcontroller``, ``neopixel_write``, ``pwmio``, ``rotaryio``, ``storage``, ``supervisor``,
``watchdog``); the libraries above them (Blinka's displayio, fourwire and busdisplay, the
SSD1306 driver, display_text, neopixel, ...) are the real ones. With these in ``sys.modules``
first, Blinka's platform detection never runs.
The fakes offer only what CircuitPython offers (plus ``microcontroller.on_crash``, the
simulator's hook for crashes the firmware caught) and talk to the :class:`Machine` attached by
the SimBoard that is running (``link.py``: the fakes import it, never this package's
``__init__``, which imports them).
"""

import importlib
import sys
from typing import Optional

from host_tools.sim.boards import BoardDefinition
from host_tools.sim.fakes import link
from host_tools.sim.machine import Machine

CORE_MODULES = (
    "microcontroller",  # first: the others use its Pin
    "watchdog",
    "board",
    "busio",
    "digitalio",
    "keypad",
    "neopixel_write",
    "pwmio",
    "rotaryio",
    "storage",
    "supervisor",
)


def install() -> None:
    """Put the fakes in ``sys.modules``; they stay there for the rest of the process."""
    for name in CORE_MODULES:
        sys.modules[name] = importlib.import_module(f"{__name__}.{name}")


def attach(machine: Optional[Machine], definition: Optional[BoardDefinition] = None) -> None:
    """Connect the fakes to a machine (None: to nothing) and name its board's pins."""
    link.connect(machine)
    if definition is not None:
        from host_tools.sim.fakes import board

        board.configure(definition)
