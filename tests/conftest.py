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
