"""Screen texts, one table per language; only the chosen one is kept in RAM.

``potager.lang.<code>`` holds the texts every screen shares (and each mode's name for the
home screen); ``potager.lang.<code>_<mode>`` those of one mode, loaded with the mode. A table
is one string of ``key=text`` lines, searched on lookup: a dict of the same texts would take
about three times the RAM on the board.
"""

import sys

CODES = ("fr", "en")


# The texts last found, kept: a search costs the board 1.4-2.4 ms (str.find compares at
# every byte, and its character index is counted from the table's start), and a screen
# looks up 15-35 texts each time it is drawn. Cleared when full (~2 KB at most).
CACHED = 48


class Texts:
    def __init__(self, tables):
        self.tables = tables  # newline-framed strings, searched in order
        self.found = {}

    def add(self, table):
        """A table searched first (a small one: each search costs the board ~0.35 us a byte
        of the tables before the one that holds the key)."""
        self.tables.insert(0, table)
        self.found.clear()  # a text of the new table may hide one found

    def get(self, key, default=None):
        text = self.found.get(key)
        if text is not None:
            return text
        probe = "\n" + key + "="
        for table in self.tables:
            start = table.find(probe)
            if start >= 0:
                start += len(probe)
                text = table[start : table.find("\n", start)]
                if len(self.found) >= CACHED:
                    self.found.clear()
                self.found[key] = text  # a miss is not kept: a table added may hold it
                return text
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
