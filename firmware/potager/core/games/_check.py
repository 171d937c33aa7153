"""Input checks shared by the game modules' score(data).

Every failure is a ValueError whose message starts with the field's path, e.g.
``players[1].karma: must be an integer 0-6, got 7``. Pure Python that runs unchanged on
CPython, MicroPython and CircuitPython: on MicroPython ``isinstance(True, int)`` is False and
on CPython it is True, so types are compared with ``type(v) is ...``.
"""


def show(v):
    """A value as JSON spells it, kept short: for messages."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    t = type(v)
    if t is str:
        v = v if len(v) <= 24 else v[:21] + "..."
        return '"' + v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"') + '"'
    if t is list:
        return "a list"
    if t is dict:
        return "an object"
    return str(v)


def fail(path, what):
    raise ValueError((path or "input") + ": " + what)


def key(path, name):
    return path + "." + name if path else name


def item(path, i):
    return path + "[" + str(i) + "]"


def need(d, path, name):
    """The value of a required key of object d (at path)."""
    if name not in d:
        fail(key(path, name), "missing")
    return d[name]


def obj(v, path):
    if type(v) is not dict:
        fail(path, "must be an object, got " + show(v))
    return v


def span(lo, hi):
    if lo is None:
        return ""
    if hi is None:
        return " >= " + str(lo)
    return " " + str(lo) + "-" + str(hi)


def integer(v, path, lo=0, hi=None, hint=None):
    """v if it is an integer lo..hi (None: no bound); booleans and floats are refused."""
    want = "must be an integer" + span(lo, hi)
    if type(v) is not int:
        fail(path, want + ", got " + show(v))
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        fail(path, want + (" " + hint if hint else ", got " + str(v)))
    return v


def boolean(v, path):
    if v is not True and v is not False:
        fail(path, "must be true or false, got " + show(v))
    return v


def text(v, path):
    if type(v) is not str:
        fail(path, "must be a string, got " + show(v))
    return v


def array(v, path, lo=0, hi=None, what="items"):
    """v if it is a list of lo..hi items."""
    if type(v) is not list:
        fail(path, "must be a list, got " + show(v))
    if len(v) < lo or (hi is not None and len(v) > hi):
        fail(path, "must hold" + span(lo, hi) + " " + what + ", got " + str(len(v)))
    return v


def choice(v, path, options):
    if type(v) is not str or v not in options:
        fail(
            path, "must be one of " + ", ".join('"' + o + '"' for o in options) + ", got " + show(v)
        )
    return v


def players(data, lo, hi):
    """The players list of data (lo..hi of them), each an object with a unique text name."""
    ps = array(need(obj(data, ""), "", "players"), "players", lo, hi, "players")
    names = []  # type: list
    for i, p in enumerate(ps):
        path = item("players", i)
        name = text(need(obj(p, path), path, "name"), key(path, "name"))
        if name in names:
            fail(
                key(path, "name"),
                '"' + name + '" is already used by players[' + str(names.index(name)) + "]",
            )
        names.append(name)
    return ps


def best(names, keys):
    """The names whose key (a number or a tuple of numbers) is the highest, in input order."""
    if not keys:
        return []
    top = max(keys)
    return [n for i, n in enumerate(names) if keys[i] == top]
