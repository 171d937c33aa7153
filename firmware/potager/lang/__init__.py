"""Screen texts, one table per language; only the chosen one is kept in RAM.

``potager.lang.<code>`` holds the texts every screen shares (and each mode's name for the
home screen); ``potager.lang.<code>_<mode>`` those of one mode, loaded with the mode. A table
is one string of ``key=text`` lines, searched on lookup (as bytes: ``Texts``): a dict of the
same texts would take about three times the RAM on the board.
"""

import sys

from potager.core import registry

CODES = ("fr", "en")


# The texts last found, kept: a screen looks up 15-35 texts each time it is drawn. Cleared when
# full (~2 KB at most).
CACHED = 48


class Texts:
    """Lookups in tables of ``key=text`` lines. A table is held as bytes (``str.encode``): found
    by byte offsets, a text costs the board half what it cost in a ``str``, whose character
    indices CircuitPython counts from the start at every find and slice (a key of a mode's
    table 0.8 ms, not 1.6). ``names``: the module of each table, for ``load`` to reuse."""

    def __init__(self, tables, names=()):
        self.tables = [_bytes(table) for table in tables]  # newline-framed, searched in order
        self.names = list(names) + [""] * (len(tables) - len(names))
        self.found = {}
        self.route = {}  # a key's prefix ("dt.") -> the tables that hold keys of it

    def add(self, table, name=""):
        """A table searched first (a small one: each search costs the board ~0.35 us a byte
        of the tables before the one that holds the key)."""
        self.tables.insert(0, _bytes(table))
        self.names.insert(0, name)
        self.found.clear()  # a text of the new table may hide one found
        self.route.clear()

    def get(self, key, default=None):
        text = self.found.get(key)
        if text is not None:
            return text
        probe = ("\n" + key + "=").encode()
        for table in self.tables_for(probe):
            start = table.find(probe)
            if start >= 0:
                start += len(probe)
                text = str(table[start : table.find(b"\n", start)], "utf-8")
                if len(self.found) >= CACHED:
                    self.found.clear()
                self.found[key] = text  # a miss is not kept: a table added may hold it
                return text
        return default

    def tables_for(self, probe):
        # A key without a prefix is one of the last table's (the shared one: test_i18n); one
        # with a prefix is searched only in the tables that hold that prefix, found once. A
        # mode's table holds its own prefix, r. and u.: the shared keys ("c.red", "players")
        # skip its 3-4 KB, ~1.2 ms a search on the board.
        dot = probe.find(b".")
        if dot < 0:
            return self.tables[-1:]
        prefix = probe[: dot + 1]
        found = self.route.get(prefix)
        if found is None:
            found = self.route[prefix] = [table for table in self.tables if prefix in table]
        return found


def _bytes(table):
    return table.encode() if isinstance(table, str) else table


def take(name, texts=None):
    """The table of module ``name`` (bytes), or None if there is no such module: the one
    ``texts`` holds, else imported and the module forgotten (its string goes; the bytes are
    the table's only copy in RAM)."""
    if texts is not None and name in texts.names:
        return texts.tables[texts.names.index(name)]
    try:
        __import__(name)
    except ImportError:
        return None
    table = sys.modules[name].T.encode()
    registry.forget(name)
    return table


def _drop(prefix):
    for name in list(sys.modules):
        if name == prefix or name.startswith(prefix + "_"):
            registry.forget(name)


def load(code, mode=None, texts=None):
    """The texts of one language: the mode's own table (if any), then the shared one. The
    tables ``texts`` (those in use) hold are reused; a language left is dropped."""
    shared = texts.names[-1] if texts is not None and texts.names else ""
    if shared and not shared.endswith("." + code):
        _drop(shared)  # modules of the other language loaded ahead
    names = ["potager.lang." + code]
    mode = mode and registry.entry(mode)[registry.TEXTS]  # its texts, if any (registry TEXTS)
    if mode:
        names.insert(0, "potager.lang." + code + "_" + mode)
    tables = []
    kept = []
    for name in names:
        table = take(name, texts)
        if table is not None:
            tables.append(table)
            kept.append(name)
    return Texts(tables, kept)


def keys(table):
    """Every key of a table (tests and tools)."""
    table = table if isinstance(table, str) else str(table, "utf-8")
    return [line.split("=", 1)[0] for line in table.split("\n") if "=" in line]
