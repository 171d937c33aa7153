"""What the host commands share: importing firmware modules, writing UTF-8 whatever the locale."""

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
SCRIPTS = ROOT / "docs" / "scripts"  # the demo session of every mode


def firmware(name: str) -> ModuleType:
    """A firmware module. firmware/ goes at the END of sys.path: its code.py must never shadow
    the standard library's `code` module (pdb imports it)."""
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))
    return importlib.import_module(name)


def write_utf8(stream: Any, text: str) -> None:
    """Lone surrogates (from a file name in undecodable bytes) come out as \\udcXX."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        buffer.write(text.encode("utf-8", "backslashreplace"))
        buffer.flush()
    else:
        stream.write(text)
        stream.flush()


def sessions() -> dict[str, str]:
    """The demo session of every mode; those that need files on the drive ("# drive: DIR",
    e.g. players.txt) are left out: the pure boards of the heap measure have no drive."""
    found = {path.stem: path.read_text() for path in sorted(SCRIPTS.glob("*.txt"))}
    return {name: text for name, text in found.items() if not text.startswith("# drive:")}
