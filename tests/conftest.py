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


def pytest_collection_modifyitems(session, config, items):
    """The emulated Pico's runs are slow: start the ones the selected tests need as soon as
    the tests are known, and run those tests last, so the runs overlap the rest of the suite."""
    pico = [item for item in items if item.module.__name__.endswith("test_pico")]
    if not pico:
        return
    items[:] = [item for item in items if item not in pico] + pico
    pico[0].module.start_runs({item.originalname for item in pico})


def pytest_sessionfinish(session, exitstatus):
    module = sys.modules.get("test_pico") or sys.modules.get("tests.test_pico")
    if module is not None:
        module.stop_runs()
