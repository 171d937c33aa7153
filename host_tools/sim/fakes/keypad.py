"""Fake ``keypad``: ``Keys`` reports the simulated buttons' changes as events.

As on the board, the keys are scanned every ``interval`` (20 ms) from the moment ``Keys`` is
made: a change is seen at the first scan after it, and the event carries that scan's time (a
press and release between two scans are never seen). The queue fills while the firmware works
(button changes run while work is charged to the clock), in time order. Key numbers are the
index of the pin in ``pins``; whether a key reads as pressed follows the wiring (buttons to
ground): ``value_when_pressed=False`` with ``pull=True`` (internal pull-ups) is the
configuration that works.
"""

from collections import deque
from typing import Any, Optional, Sequence

from host_tools.sim.fakes.link import attached, machine
from host_tools.sim.fakes.microcontroller import gpio_of


class Event:
    def __init__(self, key_number: int = 0, pressed: bool = True, timestamp: Optional[int] = None):
        if timestamp is None:
            sim = attached()
            timestamp = sim.ticks_ms() if sim is not None else 0
        self._key_number, self._pressed, self._timestamp = key_number, pressed, timestamp

    @property
    def key_number(self) -> int:
        return self._key_number

    @property
    def pressed(self) -> bool:
        return self._pressed

    @property
    def released(self) -> bool:
        return not self._pressed

    @property
    def timestamp(self) -> int:
        return self._timestamp

    def __eq__(self, other: object) -> bool:
        """As on the device: the timestamp does not count."""
        if not isinstance(other, Event):
            return NotImplemented
        return (self._key_number, self._pressed) == (other._key_number, other._pressed)

    def __hash__(self) -> int:
        return hash((self._key_number, self._pressed))

    def __repr__(self) -> str:
        state = "pressed" if self._pressed else "released"
        return f"<Event: key_number {self._key_number} {state}>"


class EventQueue:
    def __init__(self, max_events: int) -> None:
        self._events: deque[Event] = deque()
        self._max_events = max_events
        self._overflowed = False

    def get(self) -> Optional[Event]:
        return self._events.popleft() if self._events else None

    def get_into(self, event: Event) -> bool:
        if not self._events:
            return False
        queued = self._events.popleft()
        event._key_number, event._pressed = queued._key_number, queued._pressed
        event._timestamp = queued._timestamp
        return True

    def clear(self) -> None:
        self._events.clear()
        self._overflowed = False

    @property
    def overflowed(self) -> bool:
        return self._overflowed

    def __len__(self) -> int:
        return len(self._events)

    def __bool__(self) -> bool:
        return bool(self._events)

    def _put(self, event: Event) -> None:
        if len(self._events) >= self._max_events:
            self._overflowed = True
        else:
            self._events.append(event)


class Keys:
    def __init__(
        self,
        pins: Sequence[Any],
        *,
        value_when_pressed: bool,
        pull: bool = True,
        interval: float = 0.020,
        max_events: int = 64,
        debounce_threshold: int = 1,
    ) -> None:
        if not pins:
            raise ValueError("pins must not be empty")
        if not 1 <= max_events <= 64:
            raise ValueError("max_events must be 1-64")
        sim = machine()
        self._gpios = tuple(gpio_of(pin) for pin in pins)
        for gpio in self._gpios:
            sim.claim(gpio)
        self._value_when_pressed = bool(value_when_pressed)
        # pull=True pulls away from the pressed level; without it the pins float
        self._pull_up = (not value_when_pressed) if pull else None
        self._events = EventQueue(max_events)
        self._active = True
        self._interval_us = max(1, round(interval * 1_000_000))
        self._origin_us = sim.now_us
        sim.watch_pins(self)
        # As CircuitPython's keypad: a key's state is unknown until the first scan, which
        # only learns it (a key held now gives no press event, its release is reported).
        self._start(None)

    @property
    def events(self) -> EventQueue:
        self._check()
        sim = machine()
        sim.run_due_events(keys_only=True)  # changes made while the firmware was busy
        self._scan_until(sim.now_us)
        return self._events

    @property
    def key_count(self) -> int:
        self._check()
        return len(self._gpios)

    def reset(self) -> None:
        """As CircuitPython's keypad does it (common_hal_keypad_generic_reset sets every
        debounce counter to "pressed"): a key up now is reported released at the next scan,
        a key held now gives nothing."""
        self._check()
        self._start(True)

    def _start(self, state: Optional[bool]) -> None:
        sim = machine()
        # as last reported; None: not known yet (the next scan learns it silently)
        self._pressed: list[Optional[bool]] = [state] * len(self._gpios)
        self._levels = [self._read(sim, gpio) for gpio in self._gpios]
        self._scans = -((self._origin_us - sim.now_us) // self._interval_us)  # the next scan

    def deinit(self) -> None:
        if self._active:
            sim = machine()
            sim.unwatch_pins(self)
            for gpio in self._gpios:
                sim.release(gpio)
            self._active = False

    def __enter__(self) -> "Keys":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.deinit()

    def _check(self) -> None:
        if not self._active:
            raise ValueError("Object has been deinitialized and can no longer be used.")

    def _read(self, sim: Any, gpio: str) -> bool:
        return sim.pin_level(gpio, self._pull_up) == self._value_when_pressed

    def _scan_until(self, until_us: int) -> None:
        """The scans up to ``until_us`` with the levels as they are: only the first can see a
        change, so one pass reports it, stamped with that scan's time."""
        last = (until_us - self._origin_us) // self._interval_us
        if last < self._scans:
            return
        at_us = self._origin_us + self._scans * self._interval_us
        self._scans = last + 1
        sim = machine()
        for key_number, level in enumerate(self._levels):
            known = self._pressed[key_number]
            if level != known:
                self._pressed[key_number] = level
                if known is not None:
                    self._events._put(Event(key_number, level, sim.ticks_at(at_us)))

    def _pin_changed(self, gpio: str) -> bool:
        if gpio not in self._gpios:
            return False
        sim = machine()
        at_us = sim.event_time_us()
        self._scan_until(at_us - 1)  # the scans before this change saw the old level
        self._levels[self._gpios.index(gpio)] = self._read(sim, gpio)
        return True

    def _deactivate(self) -> None:
        self._active = False
