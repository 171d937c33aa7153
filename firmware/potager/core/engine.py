"""The one writer of game state: a reducer applied to actions, with undo and redo.

The state is a base snapshot plus the log of actions applied since. Undo moves the last
action to the redo stack and replays the log from the base; persistence saves the base and
the log; a save restored at boot replays the same log. The log is bounded: past LOG_LIMIT
the oldest action is folded into the base, so memory and save size stay fixed.

An action is a tuple of three ints ``(op, a, b)``; ``op`` < 16 are table services shared by
every mode (``potager.core.table``), the rest belong to the game module. A game module
provides ``reduce(state, action)``: it either changes ``state`` in place and returns None, or
returns a reason (a text key) and leaves ``state`` untouched.

An entry made of several actions (a form that collects several values) is one undo step:
``apply`` given a list logs the actions after the first with 128 (JOINED) added to their op,
and undo and redo take such a group whole. The log stays one flat list of actions (saved and
replayed as ever); the reducer never sees the flag, and ``step`` (the first action of the
step last undone or redone, for its message) never carries it.
"""

from potager.core.compat import const

LOG_LIMIT = const(48)


def _shallow(value):
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return value[:]
    return value


def _numbers(items):
    # Whether a list holds numbers only, found in C: sum() refuses anything else. Most of a
    # state's lists are numbers, and a turn of a Python loop costs the board ~40 us (an
    # Arboretum state clones in 4.4 ms instead of 9.9).
    try:
        sum(items)
    except TypeError:
        return False
    return True


def clone(value):
    """Deep copy of the JSON-like values a state is made of (dict, list, int, str, bool).

    Iterative, not recursive: replay runs deep in the key handling, and each level of a
    recursive copy costs a frame of the board's 2 KiB Python stack. Containers are copied
    at their exact size (no growth while filling), then their nested containers in turn."""
    top = _shallow(value)
    if top is value or (isinstance(top, list) and _numbers(top)):
        return top
    todo = [value, top]  # (original, copy) pairs whose nested containers are still shared
    while todo:
        copy = todo.pop()
        original = todo.pop()
        # the loop inlines _shallow: a call costs the board more than the copy it makes
        for k, inner in original.items() if isinstance(original, dict) else enumerate(original):
            if isinstance(inner, list):
                new = inner[:]
                copy[k] = new
                if _numbers(inner):
                    continue  # nothing nested: the copy is whole
            elif isinstance(inner, dict):
                new = _shallow(inner)  # (rare: the states are one dict of lists)
                copy[k] = new
            else:
                continue  # a number or a string, shared
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
        self.step = None  # the first action of the step last undone or redone
        self.gone = 0  # actions folded into the base: the journal counts from the base
        self.lo = len(self.log)  # the log's shortest end (gone + length) since the last save
        self.state = self.replay()

    def replay(self):
        """Rebuild the current state from the base and the log (undo, restore, recovery)."""
        state = clone(self.base)
        for op, a, b in self.log:
            reason = self.rules.reduce(state, (op & 127, a, b))
            if reason is not None:
                raise ValueError("log does not replay: " + str(reason))
        return state

    def apply(self, action):
        # One action, or a list of them as one undo step (all or none): None, or the reason it
        # was refused (state unchanged).
        if type(action) is not list:
            action = [action]
        for i in range(len(action)):
            op, a, b = action[i]
            reason = self.rules.reduce(self.state, (op, a, b))
            if reason is not None:
                if i:
                    del self.log[len(self.log) - i :]
                    self.state = self.replay()
                return reason
            self.log.append((op + 128, a, b) if i else (op, a, b))  # 128: JOINED
        self.redo_log = []  # a new action forks history: redo no longer means anything
        while len(self.log) > self.limit or (self.log and self.log[0][0] & 128):
            op, a, b = self.log.pop(0)  # (a step goes into the base whole, never in part)
            self.rules.reduce(self.base, (op & 127, a, b))
            self.gone += 1
        self.revision += 1
        return None

    def undo(self):
        # The last step undone; self.step: its first action, for the message.
        if not self.log:
            return False
        group = [self.log.pop()]
        while self.log and group[0][0] & 128:
            group.insert(0, self.log.pop())
        self.redo_log.append(group)
        self.lo = min(self.lo, self.gone + len(self.log))
        self.state = self.replay()
        self.revision += 1
        op, a, b = group[0]
        self.step = (op & 127, a, b)
        return True

    def redo(self):
        # The last step undone done again; self.step as for undo.
        if not self.redo_log:
            return False
        group = self.redo_log.pop()
        for op, a, b in group:
            if self.rules.reduce(self.state, (op & 127, a, b)) is not None:
                self.redo_log = []
                self.state = self.replay()
                return False
        self.log += group
        self.revision += 1
        op, a, b = group[0]
        self.step = (op & 127, a, b)
        return True

    def recover(self):
        """After a crash inside a reducer: the log holds only completed actions."""
        self.state = self.replay()
        self.revision += 1
