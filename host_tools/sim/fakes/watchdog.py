"""Fake ``watchdog``: modes, the timeout exception, and the timer behind
``microcontroller.watchdog`` (the Machine fires it when virtual time passes its deadline, in a
sleep or while work is charged to the clock). RESET only, as on the RP2040."""

from typing import Any

from host_tools.sim.fakes.link import machine
from host_tools.sim.machine import WatchDogMode, WatchDogTimeout

__all__ = ["RP2040_MAX_TIMEOUT_S", "WatchDogMode", "WatchDogTimeout", "WatchDogTimer"]

RP2040_MAX_TIMEOUT_S = 8.388


class WatchDogTimer:
    @property
    def timeout(self) -> float:
        return machine().watchdog.timeout_s

    @timeout.setter
    def timeout(self, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError("watchdog timeout must be greater than 0")
        if seconds > RP2040_MAX_TIMEOUT_S:
            raise ValueError("timeout duration exceeded the maximum supported value")
        state = machine().watchdog
        state.timeout_s = seconds
        if state.mode is not None:
            self.feed()

    @property
    def mode(self) -> Any:
        return machine().watchdog.mode

    @mode.setter
    def mode(self, mode: Any) -> None:
        state = machine().watchdog
        if mode is None:
            self.deinit()
            return
        if not isinstance(mode, WatchDogMode):
            raise TypeError("mode must be a watchdog.WatchDogMode")
        if mode is WatchDogMode.RAISE:  # the RP2040 and RP2350 ports offer RESET only
            raise NotImplementedError("RAISE mode is not supported")
        if state.timeout_s <= 0:
            raise ValueError("watchdog timeout must be set before its mode")
        state.mode = mode
        self.feed()

    def feed(self) -> None:
        sim = machine()
        state = sim.watchdog
        if state.mode is None:
            raise ValueError("WatchDogTimer is not currently running")
        state.deadline_us = sim.now_us + round(state.timeout_s * 1_000_000)

    def deinit(self) -> None:
        state = machine().watchdog
        if state.mode is WatchDogMode.RESET:
            raise RuntimeError("WatchDogTimer cannot be deinitialized once mode is set to RESET")
        state.mode = None
        state.deadline_us = None
