"""The checks of a save's fields (types, ranges, shapes) for potager.restore_game: a module of
their own so that each compiles in the little heap a boot leaves (the board's .mpy needs no
compiling). Imported only when there is a save, then forgotten."""

from potager.core import registry, table
from potager.power import DEFAULTS, RANGES

COLOURS = 8


def fits(value, texts=False):
    """Only what a state is made of: dicts with text keys, lists, ints, nested 6 deep at most
    (no floats or booleans: a score must be an int; texts only if `texts`). Iterative: the
    board's Python stack is small."""
    stack = [(value, 0)]
    while stack:
        v, level = stack.pop()
        t = type(v)
        if t is dict or t is list:
            if level >= 6:
                return False
            for k in v:
                if t is dict:
                    if type(k) is not str:
                        return False
                    k = v[k]
                stack.append((k, level + 1))
        elif t is not int and (t is not str or not texts):
            return False
    return True


def fit(v, lo, hi, n=None):
    if type(v) is not list or (n is not None and len(v) != n):
        return False
    return all(type(k) is int and lo <= k <= hi for k in v)


def record(r):
    """A history record: [seq, mode, colours, totals, winners, ...fields added later]; the
    mode one of the names the modes' games are filed under (registry FILED)."""
    if type(r) is not list or len(r) < 5 or not fits(r, True):
        return False
    seq, mode, col, totals, winners = r[0], r[1], r[2], r[3], r[4]
    if type(seq) is not int or seq < 1 or registry.mode_of(mode) is None:
        return False
    n = len(col) if type(col) is list else 0
    if not 1 <= n <= table.MAX_PLAYERS or not fit(col, 0, COLOURS - 1) or len(set(col)) != n:
        return False
    return fit(totals, -99999, 99999, n) and fit(winners, 0, n - 1) and len(winners) <= n


def settings(s):
    if type(s) is not dict:
        return False
    return all(type(s.get(k)) is int and RANGES[k][0] <= s[k] <= RANGES[k][1] for k in DEFAULTS)


def state(base):
    """A state's shape: ints everywhere, texts only in the players' names (the table checks
    those)."""
    names = base.get("names")
    rest = {k: base[k] for k in base if k != "names"}
    return fits(rest) and (names is None or fits(names, True))


def records(rec):
    """Records per mode, each checked by its mode's checker (registry RECORDS); the last
    setups, and a checksum of players.txt. What cannot be kept is dropped alone: a mode's
    records its check refuses, those of a mode this firmware does not have (or that keeps
    none), a field of the wrong type. False if anything was (or `rec` is not a dict)."""
    if type(rec) is not dict:
        return False
    ok = True
    for key in list(rec):
        v = rec[key]
        if key == "last_setups":  # per mode [values, table settings]: the setup form checks
            good = type(v) is dict  # each against its defaults when it opens (ui.setup)
        elif key == "players.txt":  # the file whose skipped lines were listed (ui.setup)
            good = type(v) is int
        else:
            good = False
            for mode in registry.MODES:
                path = mode[registry.RECORDS]
                if mode[registry.KEY] == key and path:
                    good = registry.load(path).records(v)
                    registry.forget(path)
        if not good:
            del rec[key]
            ok = False
    return ok


def check_table(base):
    """The table services' fields, which every mode's state holds: present, the right shape,
    in range (the modes' checks look at their own fields and at the table's main ones)."""
    n = base.get("n")
    if type(n) is not int or not 1 <= n <= table.MAX_PLAYERS:
        return False
    new = table.new_table(n, list(range(n)))
    for k in new:
        v = base.get(k)
        if k == "log":  # the round's handovers (at most one a player; absent in older saves)
            if v is not None and (type(v) is not list or len(v) > table.MAX_PLAYERS):
                return False
        elif type(v) is not type(new[k]) or (type(v) is list and len(v) != n):
            return False
    for k, lo, hi in table._LIMITS.values():
        if not lo <= base[k] <= hi:
            return False
    big = 1 << 30
    return (
        fit(base["col"], 0, COLOURS - 1)
        and fit(base["seat"], 0, table.RING - 1)
        and fit(base["bk"], -big, big)
        and fit(base["used"], 0, big)
        and fit(base["turns"], 0, big)
        and fit(base["long"], 0, big)
    )
