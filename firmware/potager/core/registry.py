"""The modes the device offers, imported only when chosen (RAM is scarce on the board).

Each entry: key (saved in NVM), the rules module, the screen module. A mode's screen module
provides ``setup_fields(tr)``, ``new_state(values)`` and ``GameScreen``.
"""

import gc
import sys

MODES = (
    ("free", "potager.core.games.free", "potager.ui.free"),
    ("diced_tomatoes", "potager.core.games.diced_tomatoes", "potager.ui.diced_tomatoes"),
    ("horticolor", "potager.core.games.horticolor", "potager.ui.horticolor"),
    ("hortis", "potager.core.games.hortis", "potager.ui.hortis"),
    ("arboretum", "potager.core.games.arboretum", "potager.ui.arboretum"),
)


# Modules are loaded ahead of need, and kept, only while this much heap is free (the goal of
# the board's heap budget): on a tighter heap each is loaded when needed, the RAM the game's.
ROOMY = 64 * 1024


def roomy():
    """Whether the heap has this room to spare (always, where the runtime does not say)."""
    return not hasattr(gc, "mem_free") or gc.mem_free() >= ROOMY


def names():
    return [mode[0] for mode in MODES]


def _entry(key):
    for mode in MODES:
        if mode[0] == key:
            return mode
    raise KeyError(key)


def load(path):
    if path not in sys.modules:
        gc.collect()  # compiling a module wants large free blocks: gather the garbage first
        __import__(path)
    return sys.modules[path]


def rules(key):
    return load(_entry(key)[1])


def screens(key):
    return load(_entry(key)[2])


def forget(name):
    """Drop a module: from sys.modules and from its package, so nothing keeps its RAM."""
    sys.modules.pop(name, None)
    parent, _, child = name.rpartition(".")
    package = sys.modules.get(parent)
    if package is not None and hasattr(package, child):
        delattr(package, child)


def unload(key):
    """Forget a mode's modules (rules, screens, texts) so their RAM can be reclaimed."""
    for name in list(sys.modules):
        texts = name.startswith("potager.lang.") and name.endswith("_" + key)
        for prefix in ("potager.core.games." + key, "potager.ui." + key):
            if texts or name == prefix or name.startswith(prefix + "_"):
                forget(name)
                break
