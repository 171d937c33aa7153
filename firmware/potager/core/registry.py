"""The modes the device offers, each described in one place, its modules imported only when
chosen (RAM is scarce on the board)."""

# A mode's descriptor is a plain tuple (RAM: no class, no dict per mode), its fields at these
# places:
#
# - KEY: its name, saved in NVM (the game in progress, the last setups, the records).
# - LOW, HIGH: the fewest and the most players its setup offers.
# - FILED: the names the history files its games under, in the score CLI's order (that CLI
#   names a game so, "_" as "-"). One name: the key. More: the screen module's
#   ``filed(state)`` says which (an index), e.g. HORTIS's Automne, "hortis-automne".
# - RULES: its rules module (``new``, ``reduce``, ``check``).
# - SCREENS: its screen module: ``SETUP``, its setup form's fields as data (potager.ui.table:
#   name, text keys, choices, default, when held; laid out by potager.ui.table_setup), with
#   ``setup_line``/``setup_move`` for a field of its own; ``new_state(values)`` the game's first
#   state from the form's values; ``GameScreen``.
# - TEXTS: its texts are ``potager.lang.<code>_<TEXTS>`` (one a language), or None.
# - OWNS: the modules it owns besides RULES, SCREENS, those named after either then "_" (its
#   parts: ``potager.ui.hortis_end``) and its texts: name prefixes, as those. ``unload`` forgets
#   them all; tests/test_registry.py checks that no module is owned by two modes.
# - RECORDS: the module whose ``records(value)`` checks the records the mode keeps
#   (``app.records[KEY]``) when a save is restored, or None: a mode without one keeps none.

import gc
import sys

from potager.core.compat import const

KEY = const(0)
LOW = const(1)
HIGH = const(2)
FILED = const(3)
RULES = const(4)
SCREENS = const(5)
TEXTS = const(6)
OWNS = const(7)
RECORDS = const(8)


def _mode(*fields):
    # A descriptor built by a call, not written as a constant tuple: a constant tuple's
    # strings are objects of their own on the board, a call's arguments interned names
    # shared with the modules' own (272 bytes of heap less, CircuitPython's 32-bit VM).
    return fields


MODES: tuple = (
    _mode(
        "free", 1, 6, ("free",),
        "potager.core.games.free", "potager.ui.free", None, (), None,
    ),
    _mode(
        "diced_tomatoes", 1, 6, ("diced_tomatoes",),
        "potager.core.games.diced_tomatoes", "potager.ui.diced_tomatoes", "diced_tomatoes", (),
        None,
    ),
    _mode(
        "horticolor", 2, 4, ("horticolor",),
        "potager.core.games.horticolor", "potager.ui.horticolor", "horticolor", (), None,
    ),
    _mode(
        "hortis", 1, 6, ("hortis-automne", "hortis"),
        "potager.core.games.hortis", "potager.ui.hortis", "hortis", (),
        "potager.core.games.hortis_records",
    ),
    _mode(
        "arboretum", 2, 4, ("arboretum",),
        "potager.core.games.arboretum", "potager.ui.arboretum", "arboretum", (), None,
    ),
)  # fmt: skip


# Modules are loaded ahead of need, and kept, only while this much heap is free: the board's
# heap budget (48 KiB) and room for the modules a screen loads ahead (HORTIS's setup: 5.7 KB
# of .mpy). On a tighter heap each is loaded when needed, the RAM the game's.
ROOMY = 56 * 1024


def roomy():
    """Whether the heap has this room to spare (always, where the runtime does not say)."""
    return not hasattr(gc, "mem_free") or gc.mem_free() >= ROOMY


def names():
    return [mode[KEY] for mode in MODES]


def entry(key):
    """The descriptor of mode `key` (KeyError if there is none)."""
    for mode in MODES:
        if mode[KEY] == key:
            return mode
    raise KeyError(key)


def mode_of(name):
    """The key of the mode whose games the history files under `name`, or None."""
    for mode in MODES:
        if name in mode[FILED]:
            return mode[KEY]
    return None


def load(path):
    if path not in sys.modules:
        gc.collect()  # compiling a module wants large free blocks: gather the garbage first
        __import__(path)
    return sys.modules[path]


def rules(key):
    return load(entry(key)[RULES])


def screens(key):
    return load(entry(key)[SCREENS])


def forget(name):
    """Drop a module: from sys.modules and from its package, so nothing keeps its RAM."""
    sys.modules.pop(name, None)
    parent, _, child = name.rpartition(".")
    package = sys.modules.get(parent)
    if package is not None and hasattr(package, child):
        delattr(package, child)


def owns(mode, name):
    """Whether module `name` is one of the descriptor `mode`'s (see OWNS)."""
    texts = mode[TEXTS]
    if texts and name.startswith("potager.lang.") and name.endswith("_" + texts):
        return True
    for prefix in (mode[RULES], mode[SCREENS]) + mode[OWNS]:
        if name == prefix or name.startswith(prefix + "_"):
            return True
    return False


def unload(key):
    """Forget the modules a mode owns (rules, screens, their parts, texts) so their RAM can be
    reclaimed."""
    mode = entry(key)
    for name in list(sys.modules):
        if owns(mode, name):
            forget(name)
