"""Fake ``keypad``: ``Keys`` reports the simulated buttons' changes as events.

An event carries the exact virtual time of the change (the sim does not quantize to the scan
interval nor debounce). Key numbers are the index of the pin in ``pins``; whether a key reads
as pressed follows the wiring (buttons to ground): ``value_when_pressed=False`` with
``pull=True`` (internal pull-ups) is the configuration that works.
"""

from collections import deque
from typing import Any, Optional, Sequence

from host_tools.sim.fakes import attached, machine
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
        self._pressed = [False] * len(self._gpios)
        sim.watch_pins(self)
        self.reset()

    @property
    def events(self) -> EventQueue:
        self._check()
        return self._events

    @property
    def key_count(self) -> int:
        self._check()
        return len(self._gpios)

    def reset(self) -> None:
        """Forget the key states: a key held now is reported pressed again."""
        self._check()
        self._pressed = [False] * len(self._gpios)
        for gpio in self._gpios:
            self._pin_changed(gpio)

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

    def _pin_changed(self, gpio: str) -> bool:
        if gpio not in self._gpios:
            return False
        sim = machine()
        key_number = self._gpios.index(gpio)
        pressed = sim.pin_level(gpio, self._pull_up) == self._value_when_pressed
        if pressed != self._pressed[key_number]:
            self._pressed[key_number] = pressed
            self._events._put(Event(key_number, pressed, sim.ticks_ms()))
        return True

    def _deactivate(self) -> None:
        self._active = False
