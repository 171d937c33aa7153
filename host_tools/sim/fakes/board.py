"""Fake ``board``: the pin names of the simulated board (set by :func:`configure`)."""

from host_tools.sim.boards import BoardDefinition
from host_tools.sim.fakes import microcontroller

board_id = ""
_names: list[str] = []


def configure(definition: BoardDefinition) -> None:
    module = globals()
    for name in _names:
        del module[name]
    _names[:] = definition.pins
    module.update(
        {name: getattr(microcontroller.pin, gpio) for name, gpio in definition.pins.items()}
    )
    module["board_id"] = definition.board_id
