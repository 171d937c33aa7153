import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"

# firmware/ goes at the END of sys.path: its code.py must never shadow the stdlib's `code`
# module (pdb imports it).
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(FIRMWARE) not in sys.path:
    sys.path.append(str(FIRMWARE))
os.environ.setdefault("PYTHONHASHSEED", "0")


import pytest  # noqa: E402


@pytest.fixture
def invariants(monkeypatch):
    """Every reducer call through an Engine (apply, undo, redo, replay) is followed by the
    mode's invariant checks: a rule that breaks one fails the test where it happens."""
    from potager.core.engine import Engine

    def checked(method):
        def run(self, *args):
            result = method(self, *args)
            self.rules.check(self.state)
            return result

        return run

    for name in ("apply", "undo", "redo", "recover"):
        monkeypatch.setattr(Engine, name, checked(getattr(Engine, name)))
