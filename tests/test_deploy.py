"""host_tools.deploy against temporary folders standing in for a CIRCUITPY drive."""

import importlib.metadata
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import deploy

ROOT = Path(__file__).resolve().parent.parent
BOOT_OUT = (
    "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
    "Board ID:raspberry_pi_pico\nUID:E660583883724A2F\n"
)
# What circup puts in lib/ for requirements-device.txt, in the three accepted shapes.
FULL_LIB = {
    "adafruit_displayio_ssd1306.mpy": b"m",
    "adafruit_display_text/__init__.mpy": b"m",
    "adafruit_display_text/bitmap_label.mpy": b"m",
    "adafruit_bitmap_font/__init__.py": b"m",
    "neopixel.mpy": b"m",
    "adafruit_pixelbuf.mpy": b"m",
    "adafruit_ticks.py": b"m",
}


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def source(tmp_path: Path) -> Path:
    src = tmp_path / "firmware"
    write_tree(
        src,
        {
            "code.py": b"from potager.app import main\nmain()\n",
            "notes.txt": b"not ours to deploy",
            "potager/__init__.py": b'VERSION = "0.1.0"\n',
            "potager/app.py": b"def main():\n    pass\n",
            "potager/core/__init__.py": b"",
            "potager/core/keys.py": b"UP = 0\n",
            "potager/fonts/small.bdf": b"STARTFONT 2.1\n",
            "potager/fonts/small.pcf": b"\x01fcp",
            "potager/games.json": b'{"games": []}\n',
            "potager/__pycache__/app.cpython-311.pyc": b"\x00cache",
            "potager/core/__pycache__/keys.cpython-311.pyc": b"\x00cache",
            "potager/core/.keys.py.swp": b"editor",
        },
    )
    return src


EXPECTED = {
    "code.py",
    "potager/__init__.py",
    "potager/app.py",
    "potager/core/__init__.py",
    "potager/core/keys.py",
    "potager/fonts/small.bdf",
    "potager/fonts/small.pcf",
    "potager/games.json",
}


@pytest.fixture
def drive(tmp_path: Path) -> Path:
    d = tmp_path / "CIRCUITPY"
    write_tree(d, {"boot_out.txt": BOOT_OUT.encode(), "settings.toml": b"X=1\n"})
    write_tree(d / "lib", FULL_LIB)
    return d


def run(drive: Path, source: Path, *extra: str) -> int:
    return deploy.main(["--to", str(drive), "--source", str(source), *extra])


def ours(drive: Path) -> dict[str, bytes]:
    return {
        rel: data
        for rel, data in tree(drive).items()
        if rel in ("code.py", "boot.py") or rel.startswith("potager/")
    }


def test_fresh_drive_gets_the_firmware_and_data_files_but_no_caches(source, drive, capsys):
    assert run(drive, source) == 0
    assert set(ours(drive)) == EXPECTED
    for rel in EXPECTED:
        assert (drive / rel).read_bytes() == (source / rel).read_bytes()
    assert not (drive / "notes.txt").exists()
    out = capsys.readouterr().out
    assert "8 added, 0 updated, 0 removed, 0 unchanged" in out
    total = sum(len((source / rel).read_bytes()) for rel in EXPECTED)
    assert f"{total:,} bytes written and verified" in out


def test_boot_py_is_deployed_when_the_firmware_has_one(source, drive):
    (source / "boot.py").write_bytes(b"import storage\n")
    assert run(drive, source) == 0
    assert (drive / "boot.py").read_bytes() == b"import storage\n"


def test_update_writes_only_the_changed_file(source, drive, capsys):
    assert run(drive, source) == 0
    old = 1_000_000_000_000_000_000  # a fixed past mtime: any rewrite would change it
    for rel in EXPECTED:
        os.utime(drive / rel, ns=(old, old))
    (source / "potager/core/keys.py").write_bytes(b"UP = 0\nDOWN = 1\n")
    capsys.readouterr()

    assert run(drive, source) == 0
    out = capsys.readouterr().out
    assert re.findall(r"^  (add|update|remove) +(\S+)$", out, re.M) == [
        ("update", "potager/core/keys.py")
    ]
    assert "0 added, 1 updated, 0 removed, 7 unchanged" in out
    assert (drive / "potager/core/keys.py").read_bytes() == b"UP = 0\nDOWN = 1\n"
    for rel in EXPECTED - {"potager/core/keys.py"}:
        assert (drive / rel).stat().st_mtime_ns == old, rel


def test_second_run_changes_nothing(source, drive, capsys):
    assert run(drive, source) == 0
    before = tree(drive)
    assert run(drive, source) == 0
    assert tree(drive) == before
    assert "0 added, 0 updated, 0 removed, 8 unchanged; 0 bytes written" in capsys.readouterr().out


def test_stale_files_of_ours_go_and_everything_else_stays(source, drive):
    user = {
        "settings.toml": b"X=1\n",
        "boot.py": b"# the user's own boot.py: the firmware has none\n",
        "mystuff/potager/keep.py": b"keep",
        "potager.txt": b"keep",
        "lib/potager_extra.py": b"keep",
    }
    write_tree(drive, user)
    write_tree(
        drive,
        {
            "potager/old.py": b"stale",
            "potager/gone/deep/x.py": b"stale",
            "potager/core/removed.py": b"stale",
        },
    )
    lib_before = tree(drive / "lib")

    assert run(drive, source) == 0
    assert set(ours(drive)) == EXPECTED | {"boot.py"}
    assert not (drive / "potager/gone").exists()  # emptied folders go too
    for rel, data in user.items():
        assert (drive / rel).read_bytes() == data
    assert tree(drive / "lib") == lib_before


@pytest.mark.parametrize("make", ["missing", "no_boot_out"])
def test_a_folder_that_is_not_a_circuitpy_drive_is_refused(tmp_path, source, make, capsys):
    target = tmp_path / "somewhere"
    if make == "no_boot_out":
        write_tree(target, {"lib/neopixel.mpy": b"m", "code.py": b"print(1)\n"})
    before = tree(target) if target.exists() else None

    assert run(target, source) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "not a CIRCUITPY drive (no boot_out.txt)" in err
    assert (tree(target) if target.exists() else None) == before


def test_dry_run_writes_nothing_and_says_what_would_change(source, drive, capsys):
    write_tree(drive, {"potager/old.py": b"stale", "potager/app.py": b"old app"})
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in drive.rglob("*") if p.is_file()}

    assert run(drive, source, "--dry-run") == 0
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in drive.rglob("*") if p.is_file()}
    assert after == before
    out = capsys.readouterr().out
    assert "  add     code.py" in out
    assert "  update  potager/app.py" in out
    assert "  remove  potager/old.py" in out
    assert "nothing written: would be 7 added, 1 updated, 1 removed, 0 unchanged" in out


def test_missing_libraries_are_named_with_the_circup_command(source, drive, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    for rel in ("neopixel.mpy", "adafruit_ticks.py"):
        (drive / "lib" / rel).unlink()
    for p in sorted((drive / "lib/adafruit_display_text").iterdir()):
        p.unlink()
    (drive / "lib/adafruit_display_text").rmdir()

    assert run(drive, source) == 1
    out = capsys.readouterr().out
    assert set(ours(drive)) == EXPECTED  # the firmware is copied all the same
    missing = re.search(r"^not ready: missing in .*: (.*)$", out, re.M)
    assert missing is not None
    assert missing.group(1).split(", ") == ["adafruit_display_text", "neopixel", "adafruit_ticks"]
    assert "next step: circup install -r requirements-device.txt" in out


def test_no_lib_folder_at_all(source, drive, capsys):
    for p in sorted((drive / "lib").rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    (drive / "lib").rmdir()
    assert run(drive, source, "--dry-run") == 1
    assert "circup install -r requirements-device.txt" in capsys.readouterr().out


def test_pixelbuf_is_needed_only_where_it_is_not_built_in(source, drive, capsys):
    (drive / "lib/adafruit_pixelbuf.mpy").unlink()
    assert run(drive, source) == 0  # built into CircuitPython for the Pico
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("raspberry_pi_pico", "some_other_board"))
    assert run(drive, source) == 1
    assert "missing in" in capsys.readouterr().out


def test_an_old_circuitpython_is_reported(source, drive, capsys):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.2.1", "8.2.10"))
    assert run(drive, source) == 1
    assert "needs CircuitPython 9.x or 10.x" in capsys.readouterr().out


def test_a_failed_read_back_is_an_error(source, drive, capsys, monkeypatch):
    real_fsync = os.fsync

    def corrupting_fsync(fd: int) -> None:  # the drive "stores" something else
        os.pwrite(fd, b"#", 0)
        real_fsync(fd)

    monkeypatch.setattr(deploy.os, "fsync", corrupting_fsync)
    assert run(drive, source) == 3
    assert "read back differently" in capsys.readouterr().err


def test_not_enough_space_is_refused_before_writing(source, drive, capsys, monkeypatch):
    monkeypatch.setattr(
        deploy.shutil, "disk_usage", lambda _path: shutil._ntuple_diskusage(1000, 990, 10)
    )
    before = tree(drive)
    assert run(drive, source) == 2
    assert tree(drive) == before
    assert "not enough space" in capsys.readouterr().err


def test_usage_errors_return_2(capsys):
    assert deploy.main([]) == 2
    assert "--to" in capsys.readouterr().err


# ---------------------------------------------------------------------------------- mpy-cross

FAKE_MPY_CROSS = """#!{python}
import sys
args = sys.argv[1:]
if args == ["--version"]:
    print({version!r})
    sys.exit(0)
out, name, src = args[args.index("-o") + 1], args[args.index("-s") + 1], args[-1]
if {fail!r} and src.endswith("app.py"):
    sys.stderr.write(src + ":2: SyntaxError: invalid syntax\\n")
    sys.exit(1)
with open(src, "rb") as f:
    data = f.read()
with open(out, "wb") as f:
    f.write({magic!r} + name.encode() + b"|" + data)
"""
CP_VERSION = "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3"


def fake_mpy_cross(tmp_path: Path, version=CP_VERSION, magic=b"C\x06", fail=False) -> Path:
    path = tmp_path / "mpy-cross"
    path.write_text(
        FAKE_MPY_CROSS.format(python=sys.executable, version=version, magic=magic, fail=fail)
    )
    path.chmod(0o755)
    return path


def test_mpy_cross_deploys_compiled_modules_and_removes_py_twins(tmp_path, source, drive):
    assert run(drive, source) == 0  # a .py deploy first: its .py files become twins
    mpy = fake_mpy_cross(tmp_path)

    assert run(drive, source, "--mpy-cross", str(mpy)) == 0
    expected = {
        "code.py",  # code.py and boot.py stay source: CircuitPython only runs them as .py
        "potager/__init__.mpy",
        "potager/app.mpy",
        "potager/core/__init__.mpy",
        "potager/core/keys.mpy",
        "potager/fonts/small.bdf",
        "potager/fonts/small.pcf",
        "potager/games.json",
    }
    assert set(ours(drive)) == expected
    assert (drive / "potager/core/keys.mpy").read_bytes() == b"C\x06potager/core/keys.py|UP = 0\n"
    assert (drive / "code.py").read_bytes() == (source / "code.py").read_bytes()

    assert run(drive, source) == 0  # and back to .py: the .mpy files go
    assert set(ours(drive)) == EXPECTED


def test_mpy_cross_dry_run_writes_nothing_on_the_drive(tmp_path, source, drive, capsys):
    mpy = fake_mpy_cross(tmp_path)
    assert run(drive, source, "--mpy-cross", str(mpy), "--dry-run") == 0
    assert ours(drive) == {}
    assert "  add     potager/core/keys.mpy" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("missing", "no such file"),
        ("fails", "SyntaxError: invalid syntax"),
        ("micropython", "not CircuitPython's mpy-cross"),
        ("wrong_magic", "in a format CircuitPython does not load"),
    ],
)
def test_a_bad_mpy_cross_is_refused_and_nothing_is_written(
    tmp_path, source, drive, capsys, kind, message
):
    if kind == "missing":
        mpy = tmp_path / "no-such-mpy-cross"
    elif kind == "fails":
        mpy = fake_mpy_cross(tmp_path, fail=True)
    elif kind == "micropython":
        mpy = fake_mpy_cross(tmp_path, version="MicroPython v1.24.1 on 2024-11-29; mpy-cross")
    else:
        mpy = fake_mpy_cross(tmp_path, magic=b"M\x06")
    before = tree(drive)

    assert run(drive, source, "--mpy-cross", str(mpy)) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert tree(drive) == before


# ------------------------------------------------------------------------ facts the tool uses


def test_module_names_match_what_the_pypi_packages_install():
    """KNOWN_MODULES and the fallback rule agree with the installed dist-info."""
    names = [
        line.split("#")[0].strip()
        for line in (ROOT / "requirements-device.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    assert names
    for name in [*names, "adafruit-circuitpython-pixelbuf"]:
        files = importlib.metadata.files(name) or []
        top = {f.parts[0].removesuffix(".py") for f in files if ".dist-info" not in f.parts[0]}
        assert deploy.module_for(name) in top, name


def test_built_in_modules_agree_with_the_board_stubs():
    spec = importlib.util.find_spec("board_definitions")  # from circuitpython-stubs
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("circuitpython-stubs not installed")
    stubs = Path(next(iter(spec.submodule_search_locations)))
    for module, boards in deploy.BUILT_IN.items():
        for board_id in boards:
            text = (stubs / board_id / "__init__.pyi").read_text()
            included = re.search(r"Included modules: (.*)", text)
            assert included is not None
            assert module in included.group(1).split(", "), (board_id, module)


def test_through_python_dash_m(source, drive):
    if not (ROOT / "host_tools" / "__main__.py").exists():
        pytest.skip("host_tools/__main__.py not there yet")
    cmd = [
        sys.executable,
        "-m",
        "host_tools",
        "deploy",
        "--to",
        str(drive),
        "--source",
        str(source),
    ]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert set(ours(drive)) == EXPECTED
    bad = subprocess.run(
        [*cmd[:5], str(drive.parent), *cmd[6:]], cwd=ROOT, capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert "not a CIRCUITPY drive" in bad.stderr


def test_as_a_module_script(source, drive):
    """`python -m host_tools.deploy` works whether or not the dispatcher exists."""
    cmd = [sys.executable, "-m", "host_tools.deploy", "--to", str(drive), "--source", str(source)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert set(ours(drive)) == EXPECTED
