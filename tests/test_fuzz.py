"""Random key presses (seeded, reproducible) through the real App, across every mode, with
power cuts: nothing raises, every invariant holds after every press, undo returns exactly the
state before the last action and redo the state after it. Sessions of 2,500 presses, each
starting in a mode: `make test` runs 10 (two a mode), `make soak` 40 (100,000 presses;
tests/soak.py)."""

import random

import pytest
from soak import SCALE

from host_tools.mpy.pureboard import KEYS, PureBoard
from potager.core import registry
from potager.core.engine import Engine, clone

PRESSES_PER_SESSION = 2_500
SESSIONS = 10 * SCALE
# more of the keys that play than of those that leave the game
WEIGHTS = {"UP": 3, "DOWN": 4, "LEFT": 4, "RIGHT": 5, "OK": 4, "BACK": 2, "TURN": 3}


def check_invariants(board):
    rows = board.display.rows
    assert len(rows) == 5 and all(len(row) <= 21 for row in rows), rows
    assert all(type(c) is int and 0 <= c <= 0xFFFFFF for c in board.pixels.leds)
    app = board.app
    if app.engine is not None:
        registry.rules(app.mode).check(app.engine.state)


class CountingEngine(Engine):
    """Counts the actions applied, so the test knows when a press applied exactly one."""

    applied = 0

    def apply(self, action):
        reason = Engine.apply(self, action)
        if reason is None:
            CountingEngine.applied += 1
        return reason


def undo_is_exact(board, engine, before, revision, applied):
    """When the last press applied one action and nothing else to `engine`: undo gives
    `before`, redo the state after."""
    if engine is None or board.app.engine is not engine or engine.revision != revision + 1:
        return
    if CountingEngine.applied != applied + 1:
        return  # an undo, a redo or a replay moved the revision
    after = clone(engine.state)
    assert engine.undo() and engine.state == before
    assert engine.redo() and engine.state == after


@pytest.mark.slow
@pytest.mark.parametrize("session", range(SESSIONS))
@pytest.mark.usefixtures("invariants")  # checked after every reducer call, not only per press
def test_random_presses_raise_nothing_and_keep_every_invariant(session, monkeypatch):
    monkeypatch.setattr("potager.app.Engine", CountingEngine)
    rng = random.Random(session)
    names = list(WEIGHTS)
    weights = [WEIGHTS[k] for k in names]
    board = PureBoard(now=rng.randrange(1 << 29))  # anywhere on the ticks, wrap included
    board.script("press " + rng.choice(["OK", "DOWN\npress OK"]))  # a language
    # start in a given mode, then wander anywhere (menus, settings, other modes)
    modes = registry.names()
    board.script("press DOWN\n" * (session % len(modes)) + "press OK")
    for _ in range(PRESSES_PER_SESSION):
        roll = rng.random()
        if roll < 0.002:
            board.script("power-cut\nwait 200\nboot")
        elif roll < 0.004:
            board.run(rng.choice([1000, 3000, 60_000]))
        else:
            engine = board.app.engine
            before = clone(engine.state) if engine is not None else None
            revision = engine.revision if engine is not None else 0
            applied = CountingEngine.applied
            key = rng.choices(names, weights)[0]
            board.key(key, 80 if rng.random() < 0.85 else rng.choice([600, 1000, 1400]))
            undo_is_exact(board, engine, before, revision, applied)
        check_invariants(board)
    assert KEYS  # every key name the sessions used exists on the device
