"""Screen texts, one table per language; only the chosen one is kept in RAM.

``potager.lang.<code>`` holds the texts every screen shares (and each mode's name for the
home screen); ``potager.lang.<code>_<mode>`` those of one mode, loaded with the mode.
"""

import sys

CODES = ("fr", "en")


def _take(name):
    try:
        __import__(name)
    except ImportError:
        return {}
    return sys.modules[name].T


def _drop(prefix):
    for name in list(sys.modules):
        if name == prefix or name.startswith(prefix + "_"):
            sys.modules.pop(name)


def load(code, mode=None, previous=None):
    """The texts of one language: the shared table, plus the mode's own if it has one."""
    if previous and previous != code:
        _drop("potager.lang." + previous)  # free the other language
    texts = _take("potager.lang." + code)
    if mode:
        extra = _take("potager.lang." + code + "_" + mode)
        if extra:
            texts = dict(texts)
            texts.update(extra)
    return texts
