"""The firmware with the radish race added as docs/adding-a-mode.md says: a copy of firmware/,
the mode's own modules dropped in, its descriptor in MODES, its names in the shared texts."""

import importlib.util
import shutil
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent


def shared():
    spec = importlib.util.spec_from_file_location("radishes_descriptor", HERE / "descriptor.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def firmware_with_radishes(out: Path) -> Path:
    """The firmware tree at `out` (made once: an existing tree is reused)."""
    if (out / "code.py").is_file():
        return out
    descriptor = shared()
    shutil.copytree(ROOT / "firmware", out, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (HERE / "potager").rglob("*.py"):
        shutil.copy(path, out / path.relative_to(HERE))
    registry = out / "potager" / "core" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    end = ")  # fmt: skip\n"  # the end of MODES
    assert text.count(end) == 1, "MODES no longer ends as build.py expects"
    registry.write_text(text.replace(end, descriptor.DESCRIPTOR + end), encoding="utf-8")
    for code, lines in descriptor.SHARED_TEXTS.items():
        path = out / "potager" / "lang" / (code + ".py")
        text = path.read_text(encoding="utf-8")
        assert text.rstrip().endswith('"""'), path
        path.write_text(text.rstrip()[:-3] + lines + '"""\n', encoding="utf-8")
    return out
