import gc
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


# the emulated boards' test modules: each has start_runs(test names) and stop_runs()
EMULATED = ("test_pico", "test_macropad_emulated")


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected: only the runs still needed
def pytest_collection_modifyitems(session, config, items):
    """The emulated boards' runs are slow: start the ones the selected tests need as soon as
    the tests are known, and run those tests last, so the runs overlap the rest of the suite."""
    emulated = {name: [] for name in EMULATED}
    for item in items:
        name = item.module.__name__.rpartition(".")[2]
        if name in emulated:
            emulated[name].append(item)
    last = [item for name in EMULATED for item in emulated[name]]
    if not last:
        return
    moved = set(last)
    items[:] = [item for item in items if item not in moved] + last
    for name in EMULATED:  # in the order their tests run: the Pico's runs are queued first
        if emulated[name]:
            emulated[name][0].module.start_runs({item.originalname for item in emulated[name]})


def pytest_sessionfinish(session, exitstatus):
    for name in EMULATED:
        module = sys.modules.get(name) or sys.modules.get("tests." + name)
        if module is not None:
            module.stop_runs()


def pytest_collection_finish(session):
    """What the collection built (every test module, pytest's rewritten assertions, Blinka,
    Pillow) lives to the end: frozen out of the collector's sight, so that each full
    collection (the firmware's gc.collect() on PureBoard, ~250 in a fuzz run) walks only
    what the tests make, not those. A fuzz run took half its time there."""
    gc.collect()
    gc.freeze()
