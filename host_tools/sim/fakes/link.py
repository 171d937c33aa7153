"""The Machine the fakes talk to: set by ``host_tools.sim.fakes.attach`` (the SimBoard that is
running), read by every fake through :func:`machine` or :func:`attached`. A module of its own,
below the package's ``install``/``attach`` (which import the fakes): the fakes import only
this."""

from typing import Optional

from host_tools.sim.machine import Machine

_attached: Optional[Machine] = None


def connect(machine: Optional[Machine]) -> None:
    global _attached
    _attached = machine


def machine() -> Machine:
    if _attached is None:
        raise RuntimeError("no simulated board is running")
    return _attached


def attached() -> Optional[Machine]:
    return _attached
