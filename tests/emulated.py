"""The pool the emulated boards' runs share (test_pico.py, test_macropad_emulated.py): two
at a time, beside the rest of the suite (tests/conftest.py starts them once the tests are
known). The runs are CPU-bound Node processes; the machine has two cores."""

import concurrent.futures

POOL = concurrent.futures.ThreadPoolExecutor(max_workers=2)
