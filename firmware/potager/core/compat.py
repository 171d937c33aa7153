"""What CPython lacks of MicroPython/CircuitPython, for the code that runs on both."""

try:
    from micropython import const
except ImportError:  # CPython: const() is only an optimisation hint on the board

    def const(expr):  # type: ignore[misc]
        return expr
