"""Key numbers, in the order of every pin table's "keys" entry."""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
OK = const(4)
BACK = const(5)
TURN = const(6)
COUNT = const(7)

NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN")
