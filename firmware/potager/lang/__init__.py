"""Screen texts, one table per language; only the chosen one is kept in RAM.

``potager.lang.<code>`` holds the texts every screen shares (and each mode's name for the
home screen); ``potager.lang.<code>_<mode>`` those of one mode, loaded with the mode. A table
is one string of ``key=text`` lines, searched on lookup: a dict of the same texts would take
about three times the RAM on the board.
"""

import sys

CODES = ("fr", "en")


class Texts:
    def __init__(self, tables):
        self.tables = tables  # newline-framed strings, the mode's first

    def get(self, key, default=None):
        probe = "\n" + key + "="
        for table in self.tables:
            start = table.find(probe)
            if start >= 0:
                start += len(probe)
                return table[start : table.find("\n", start)]
        return default


def _take(name):
    try:
        __import__(name)
    except ImportError:
        return None
    return sys.modules[name].T


def _drop(prefix):
    for name in list(sys.modules):
        if name == prefix or name.startswith(prefix + "_"):
            sys.modules.pop(name)
            child = name.rpartition(".")[2]
            if hasattr(sys.modules[__name__], child):  # the package's attribute holds it too
                delattr(sys.modules[__name__], child)


def load(code, mode=None, previous=None):
    """The texts of one language: the mode's own table (if any), then the shared one."""
    if previous and previous != code:
        _drop("potager.lang." + previous)  # free the other language
    tables = [_take("potager.lang." + code)]
    extra = _take("potager.lang." + code + "_" + mode) if mode else None
    if extra:
        tables.insert(0, extra)
    return Texts(tables)


def keys(table):
    """Every key of a table (tests and tools)."""
    return [line.split("=", 1)[0] for line in table.split("\n") if "=" in line]
