"""The one writer of game state: a reducer applied to actions, with undo and redo.

The state is a base snapshot plus the log of actions applied since. Undo moves the last
action to the redo stack and replays the log from the base; persistence saves the base and
the log; a save restored at boot replays the same log. The log is bounded: past LOG_LIMIT
the oldest action is folded into the base, so memory and save size stay fixed.

An action is a tuple of three ints ``(op, a, b)``; ``op`` < 16 are table services shared by
every mode (``potager.core.table``), the rest belong to the game module. A game module
provides ``reduce(state, action)``: it either changes ``state`` in place and returns None, or
returns a reason (a text key) and leaves ``state`` untouched.
"""

from potager.core.compat import const

LOG_LIMIT = const(48)


def _shallow(value):
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return value[:]
    return value


def clone(value):
    """Deep copy of the JSON-like values a state is made of (dict, list, int, str, bool).

    Iterative, not recursive: replay runs deep in the key handling, and each level of a
    recursive copy costs a frame of the board's 2 KiB Python stack. Containers are copied
    at their exact size (no growth while filling), then their nested containers in turn."""
    top = _shallow(value)
    if top is value:
        return value
    todo = [value, top]  # (original, copy) pairs whose nested containers are still shared
    while todo:
        copy = todo.pop()
        original = todo.pop()
        keys = original if isinstance(original, dict) else range(len(original))
        for k in keys:
            inner = original[k]
            new = _shallow(inner)
            if new is not inner:
                copy[k] = new
                todo.append(inner)
                todo.append(new)
    return top


class Engine:
    def __init__(self, rules, base, log=(), limit=LOG_LIMIT):
        self.rules = rules
        self.base = base
        self.log = list(log)
        self.redo_log = []
        self.limit = limit
        self.revision = 0  # bumped on every change: drives saving and redrawing
        self.gone = 0  # actions folded into the base: the journal counts from the base
        self.lo = len(self.log)  # the log's shortest end (gone + length) since the last save
        self.state = self.replay()

    def replay(self):
        """Rebuild the current state from the base and the log (undo, restore, recovery)."""
        state = clone(self.base)
        for action in self.log:
            reason = self.rules.reduce(state, action)
            if reason is not None:
                raise ValueError("log does not replay: " + str(reason))
        return state

    def apply(self, action):
        """Apply one action; return None, or the reason it was refused (state unchanged)."""
        reason = self.rules.reduce(self.state, action)
        if reason is not None:
            return reason
        self.log.append(action)
        self.redo_log = []  # a new action forks history: redo no longer means anything
        if len(self.log) > self.limit:
            self.rules.reduce(self.base, self.log.pop(0))
            self.gone += 1
        self.revision += 1
        return None

    def undo(self):
        if not self.log:
            return False
        self.redo_log.append(self.log.pop())
        self.lo = min(self.lo, self.gone + len(self.log))
        self.state = self.replay()
        self.revision += 1
        return True

    def redo(self):
        if not self.redo_log:
            return False
        action = self.redo_log.pop()
        if self.rules.reduce(self.state, action) is not None:
            self.redo_log = []
            return False
        self.log.append(action)
        self.revision += 1
        return True

    def recover(self):
        """After a crash inside a reducer: the log holds only completed actions."""
        self.state = self.replay()
        self.revision += 1
