"""Screen texts, one table per language; only the chosen one is kept in RAM."""

import sys

CODES = ("fr", "en")


def load(code, previous=None):
    if previous and previous != code:
        sys.modules.pop("potager.lang." + previous, None)  # free the other table
    name = "potager.lang." + code
    __import__(name)
    return sys.modules[name].T
