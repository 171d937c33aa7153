"""The modes the device offers, imported only when chosen (RAM is scarce on the board).

Each entry: key (saved in NVM), the rules module, the screen module. A mode's screen module
provides ``setup_fields(tr)``, ``new_state(values)`` and ``GameScreen``.
"""

import sys

MODES = (("free", "potager.core.games.free", "potager.ui.free"),)


def names():
    return [mode[0] for mode in MODES]


def _entry(key):
    for mode in MODES:
        if mode[0] == key:
            return mode
    raise KeyError(key)


def load(path):
    __import__(path)
    return sys.modules[path]


def rules(key):
    return load(_entry(key)[1])


def screens(key):
    return load(_entry(key)[2])
