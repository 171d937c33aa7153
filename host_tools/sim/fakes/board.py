"""Fake ``board``: the pin names of the simulated board (set by :func:`configure`), and on a
board whose runtime makes a display (the MacroPad's) ``board.DISPLAY``: the display made at
power-on (``host_tools.sim.displays``), kept through soft reloads, ``None`` once
``displayio.release_displays()`` has released it, until the power comes back."""

import sys
from typing import Any

import host_tools.sim.fakes.microcontroller as microcontroller  # by path: fakes imports board
from host_tools.sim.boards import BoardDefinition
from host_tools.sim.fakes.link import attached

board_id = ""
_names: list[str] = []
_has_display = False


def configure(definition: BoardDefinition) -> None:
    global _has_display
    module = globals()
    for name in _names:
        del module[name]
    _names[:] = definition.pins
    module.update(
        {name: getattr(microcontroller.pin, gpio) for name, gpio in definition.pins.items()}
    )
    module["board_id"] = definition.board_id
    _has_display = definition.spi_oled is not None


def __getattr__(name: str) -> Any:
    if name == "DISPLAY" and _has_display:
        return _display()
    raise AttributeError(f"module 'board' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *(["DISPLAY"] if _has_display else [])])


def _display() -> Any:
    sim = attached()
    if sim is None or sim.board_display is None:
        return None
    displayio = sys.modules.get("displayio")
    if sim.board_display not in getattr(displayio, "displays", ()):
        sim.board_display = None  # released: gone until the power comes back
    return sim.board_display
