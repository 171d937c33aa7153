"""What runs on the board imports nothing MicroPython/CircuitPython lack; the core and the
screens import nothing from the hardware world."""

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "firmware" / "potager"
PURE = sorted(p for p in PACKAGE.rglob("*.py") if "hw" not in p.relative_to(PACKAGE).parts)
ALL = sorted(PACKAGE.rglob("*.py"))

MISSING_ON_MICROPYTHON = re.compile(
    r"^\s*(from|import)\s+(typing|dataclasses|enum|functools|itertools|abc|__future__|"
    r"collections|pathlib|copy)\b|\._replace\(|\._fields\b|\.bit_length\(|\.rjust\(|\.ljust\(|"
    r"\.center\(",
    re.M,
)
HARDWARE = re.compile(
    r"^\s*(from|import)\s+(board|busio|digitalio|displayio|keypad|microcontroller|neopixel|"
    r"supervisor|watchdog|storage|adafruit_\w+|i2cdisplaybus|potager\.hw)\b",
    re.M,
)


def rel(path):
    return str(path.relative_to(PACKAGE))


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_nothing_missing_on_micropython(path):
    source = path.read_text()
    # typing is allowed only inside try/except ImportError
    source = re.sub(r"try:\n\s+from typing import[^\n]*\nexcept ImportError:", "", source)
    assert not MISSING_ON_MICROPYTHON.findall(source)


@pytest.mark.parametrize("path", PURE, ids=rel)
def test_core_and_screens_import_no_hardware(path):
    source = path.read_text()
    if path.name == "app.py":  # main() opens the hardware, inside the function only
        source = source.split("def main():")[0]
    assert not HARDWARE.findall(source)
