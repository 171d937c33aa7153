"""Key numbers, in the order of every pin table's "keys" entry."""

from potager.core.compat import const

UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
OK = const(4)
BACK = const(5)
TURN = const(6)
COUNT = const(7)

NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN")
