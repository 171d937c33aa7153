"""host_tools.deploy against temporary folders standing in for a CIRCUITPY drive."""

import errno
import importlib.metadata
import importlib.util
import itertools
import json
import os
import random
import re
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from host_tools import cpkit, deploy
from host_tools import drive as drive_files

ROOT = Path(__file__).resolve().parent.parent
BOOT_OUT = (
    "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\n"
    "Board ID:raspberry_pi_pico\nUID:E660583883724A2F\n"
)
LIB_PY = drive_files.library_files(None)  # the pinned libraries, as sources


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def tree(root: Path) -> dict[str, bytes]:
    """Every entry under root, links as links (never followed): what a test compares."""
    found: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                found[rel] = b"link->" + os.readlink(path).encode()
            elif stat.S_ISREG(st.st_mode):
                found[rel] = path.read_bytes() if st.st_mode & stat.S_IRUSR else b"unreadable"
            elif not stat.S_ISDIR(st.st_mode):
                found[rel] = b"special"
    return found


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
            "potager/games.json": b'{"games": []}\n',
            "potager/__pycache__/app.cpython-311.pyc": b"\x00cache",
            "potager/core/.keys.py.swp": b"editor",
        },
    )
    return src


FIRMWARE_FILES = {
    "code.py",
    "potager/__init__.py",
    "potager/app.py",
    "potager/core/__init__.py",
    "potager/core/keys.py",
    "potager/fonts/small.bdf",
    "potager/games.json",
}
EXPECTED = FIRMWARE_FILES | set(LIB_PY)
USER = {
    "settings.toml": b"X=1\n",
    "lib/user_lib.py": b"mine\n",
    "lib/adafruit_display_text/my_extra.py": b"mine too\n",
    "mystuff/potager/keep.py": b"keep",
}


@pytest.fixture
def drive(tmp_path: Path) -> Path:
    d = tmp_path / "CIRCUITPY"
    write_tree(d, {"boot_out.txt": BOOT_OUT.encode(), "code.py": b'print("Hello World!")\n'})
    write_tree(d, USER)
    return d


def run(drive: Path, source: Path, *extra: str) -> int:
    return deploy.main(["--to", str(drive), "--source", str(source), *extra])


def ours(drive: Path) -> dict[str, bytes]:
    return {
        rel: data
        for rel, data in tree(drive).items()
        if (rel in ("code.py", "boot.py") or rel.startswith(("potager/", "lib/")))
        and rel not in USER
        and (drive / rel).is_file()
    }


def refused(capsys, *needles: str) -> str:
    return one_line(capsys.readouterr().err, *needles)


def one_line(err: str, *needles: str) -> str:
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err
    return err


def test_fresh_drive_gets_the_firmware_and_the_pinned_libraries(source, drive, capsys):
    assert run(drive, source, "--py") == 0
    assert set(ours(drive)) == EXPECTED
    for rel in FIRMWARE_FILES:
        assert (drive / rel).read_bytes() == (source / rel).read_bytes()
    for rel, data in LIB_PY.items():
        assert (drive / rel).read_bytes() == data
    assert not (drive / "notes.txt").exists()
    for rel, data in USER.items():
        assert (drive / rel).read_bytes() == data
    out = capsys.readouterr().out
    assert f"{len(EXPECTED) - 1} added, 1 updated, 0 removed, 0 unchanged" in out  # code.py
    record = json.loads((drive / deploy.MANIFEST).read_text())["files"]
    assert set(record) == EXPECTED


def test_the_libraries_are_the_versions_the_tests_run():
    device = drive_files.pinned_versions(ROOT / "requirements-device.txt")
    host = drive_files.pinned_versions(ROOT / "requirements.txt")
    assert device and all(host.get(name) == version for name, version in device.items())
    for line in (ROOT / "requirements-device.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        assert not line or "==" in line, line  # every device library pinned
    for name, version in device.items():
        assert importlib.metadata.version(name) == version


def test_a_library_at_another_version_is_refused(source, drive, capsys, tmp_path):
    reqs = tmp_path / "req.txt"
    reqs.write_text("adafruit-circuitpython-ticks==0.0.1\n")
    before = tree(drive)
    assert run(drive, source, "--py", "--requirements", str(reqs)) == 2
    refused(capsys, "adafruit-circuitpython-ticks", "pins 0.0.1")
    assert tree(drive) == before


def test_boot_py_is_deployed_when_the_firmware_has_one(source, drive):
    (source / "boot.py").write_bytes(b"import storage\n")
    assert run(drive, source, "--py") == 0
    assert (drive / "boot.py").read_bytes() == b"import storage\n"


def test_update_writes_only_the_changed_file(source, drive, capsys):
    assert run(drive, source, "--py") == 0
    old = 1_000_000_000_000_000_000  # a fixed past mtime: any rewrite would change it
    for rel in EXPECTED:
        os.utime(drive / rel, ns=(old, old))
    (source / "potager/core/keys.py").write_bytes(b"UP = 0\nDOWN = 1\n")
    capsys.readouterr()

    assert run(drive, source, "--py") == 0
    out = capsys.readouterr().out
    assert re.findall(r"^  (add|update|remove) +(\S+)$", out, re.M) == [
        ("update", "potager/core/keys.py")
    ]
    assert f"0 added, 1 updated, 0 removed, {len(EXPECTED) - 1} unchanged" in out
    assert (drive / "potager/core/keys.py").read_bytes() == b"UP = 0\nDOWN = 1\n"
    for rel in EXPECTED - {"potager/core/keys.py"}:
        assert (drive / rel).stat().st_mtime_ns == old, rel


def test_second_run_changes_nothing(source, drive, capsys):
    assert run(drive, source, "--py") == 0
    before = tree(drive)
    assert run(drive, source, "--py") == 0
    assert tree(drive) == before
    assert f"0 removed, {len(EXPECTED)} unchanged; 0 bytes written" in capsys.readouterr().out


def test_stale_files_of_ours_go_and_the_users_stay(source, drive, capsys):
    (source / "potager/gone/deep").mkdir(parents=True)
    (source / "potager/gone/deep/x.py").write_bytes(b"old module")
    (source / "potager/old.py").write_bytes(b"old")
    assert run(drive, source, "--py") == 0
    (source / "potager/old.py").unlink()
    shutil.rmtree(source / "potager/gone")
    write_tree(drive, {"potager/mine.txt": b"the user's note", "boot.py": b"# the user's\n"})
    capsys.readouterr()

    assert run(drive, source, "--py") == 0
    out = capsys.readouterr().out
    assert "  remove  potager/old.py" in out and "  remove  potager/gone/deep/x.py" in out
    assert "  keep    potager/mine.txt (not written by deploy)" in out
    assert not (drive / "potager/gone").exists()  # emptied folders go too
    assert (drive / "potager/mine.txt").read_bytes() == b"the user's note"
    assert (drive / "boot.py").read_bytes() == b"# the user's\n"  # the firmware has none
    for rel, data in USER.items():
        assert (drive / rel).read_bytes() == data


def test_libraries_deploy_wrote_are_kept_in_sync_and_the_users_stay(source, drive, tmp_path):
    assert run(drive, source, "--py") == 0
    fewer = tmp_path / "fewer.txt"  # a library the firmware no longer needs
    fewer.write_text(
        "".join(
            line + "\n"
            for line in (ROOT / "requirements-device.txt").read_text().splitlines()
            if "ticks" not in line
        )
    )
    assert run(drive, source, "--py", "--requirements", str(fewer)) == 0
    assert not (drive / "lib/adafruit_ticks.py").exists()
    assert (drive / "lib/neopixel.py").read_bytes() == LIB_PY["lib/neopixel.py"]
    for rel, data in USER.items():
        assert (drive / rel).read_bytes() == data
    (drive / "lib/neopixel.py").write_bytes(b"# changed on the drive\n")
    assert run(drive, source, "--py") == 2  # not deploy's any more: the user's now


@pytest.mark.parametrize("make", ["missing", "no_boot_out", "boot_out_link"])
def test_a_folder_that_is_not_a_circuitpy_drive_is_refused(tmp_path, source, make, capsys):
    target = tmp_path / "somewhere"
    if make != "missing":
        write_tree(target, {"lib/neopixel.mpy": b"m", "code.py": b"print(1)\n"})
    if make == "boot_out_link":
        (tmp_path / "real_boot_out.txt").write_text(BOOT_OUT)
        (target / "boot_out.txt").symlink_to(tmp_path / "real_boot_out.txt")
    before = tree(tmp_path)

    assert run(target, source, "--py") == 2
    refused(capsys, "not a CIRCUITPY drive (no boot_out.txt)")
    assert tree(tmp_path) == before


def test_the_drive_given_by_a_link_is_the_drive(tmp_path, source, drive):
    link = tmp_path / "link-to-drive"
    link.symlink_to(drive)
    assert run(link, source, "--py") == 0
    assert set(ours(drive)) == EXPECTED


def test_dry_run_writes_nothing_and_says_what_would_change(source, drive, capsys):
    assert run(drive, source, "--py") == 0
    (source / "potager/app.py").write_bytes(b"new app\n")
    write_tree(source, {"potager/new.py": b"x = 1\n"})
    (source / "potager/games.json").unlink()
    capsys.readouterr()
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in drive.rglob("*") if p.is_file()}

    assert run(drive, source, "--py", "--dry-run") == 0
    after = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in drive.rglob("*") if p.is_file()}
    assert after == before
    out = capsys.readouterr().out
    assert "  add     potager/new.py" in out
    assert "  update  potager/app.py" in out
    assert "  remove  potager/games.json" in out
    assert "nothing written: would be 1 added, 1 updated, 1 removed" in out


def test_pixelbuf_is_installed_only_where_it_is_not_built_in(source, drive):
    assert run(drive, source, "--py") == 0
    assert not (drive / "lib/adafruit_pixelbuf.py").exists()  # in the Pico's CircuitPython
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("raspberry_pi_pico", "some_other_board"))
    assert run(drive, source, "--py") == 0
    assert (drive / "lib/adafruit_pixelbuf.py").is_file()


def test_an_old_circuitpython_is_refused(source, drive, capsys):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.2.1", "8.2.10"))
    before = tree(drive)
    assert run(drive, source, "--py") == 2
    refused(capsys, "needs CircuitPython 9.x or 10.x")
    assert tree(drive) == before


def test_a_failed_read_back_is_an_error(source, drive, capsys, monkeypatch):
    real_fsync = os.fsync

    def corrupting_fsync(fd: int) -> None:  # the drive "stores" something else
        os.pwrite(fd, b"#", 0)
        real_fsync(fd)

    monkeypatch.setattr(deploy.os, "fsync", corrupting_fsync)
    assert run(drive, source, "--py") == 3
    assert "read back differently" in capsys.readouterr().err


def test_a_write_error_is_one_line(source, drive, capsys, monkeypatch):
    real_write = os.write

    def full(fd: int, data) -> int:
        if len(data) > 1000:
            raise OSError(28, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(deploy.os, "write", full)
    assert run(drive, source, "--py") == 3
    refused(capsys, "copy failed: No space left on device")


def fake_free_space(monkeypatch, free: int, cluster: int = 512) -> None:
    """The drive has `free` bytes free in clusters of `cluster` bytes, by statvfs and by
    shutil.disk_usage alike."""
    blocks = 1 << 20
    result = os.statvfs_result((cluster, cluster, blocks, free // cluster, free // cluster,
                                0, 0, 0, 0, 255))  # fmt: skip
    monkeypatch.setattr(os, "statvfs", lambda _path: result)
    monkeypatch.setattr(
        shutil, "disk_usage", lambda _path: shutil._ntuple_diskusage(blocks * cluster, 0, free)
    )


def test_not_enough_space_is_refused_before_writing(source, drive, capsys, monkeypatch):
    fake_free_space(monkeypatch, 10)
    before = tree(drive)
    assert run(drive, source, "--py") == 2
    assert tree(drive) == before
    refused(capsys, "not enough space")


def test_usage_errors_return_2(capsys):
    assert deploy.main([]) == 2
    assert "--to" in capsys.readouterr().err
    assert deploy.main(["--to", "x", "--py", "--mpy-cross", "y"]) == 2


# ----------------------------------------------------------------- never hurting the user


def test_potager_linked_to_a_users_folder_is_refused_and_the_folder_untouched(
    tmp_path, source, drive, capsys
):
    users = tmp_path / "my_project"
    write_tree(users, {"app.py": b"my own work", "notes/today.txt": b"keep"})
    (drive / "potager").symlink_to(users)
    before = tree(tmp_path)

    assert run(drive, source, "--py") == 2
    refused(capsys, "potager on the drive is a symbolic link", "never writes through a link")
    assert tree(tmp_path) == before


def test_a_linked_code_py_is_refused_and_its_target_untouched(tmp_path, source, drive, capsys):
    target = tmp_path / "my_code.py"
    target.write_bytes(b"print('mine')\n")
    (drive / "code.py").unlink()
    (drive / "code.py").symlink_to(target)
    before = tree(tmp_path)

    assert run(drive, source, "--py") == 2
    refused(capsys, "code.py on the drive is a symbolic link")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("where", ["code.py", "potager/app.py", "potager/extra.py", "lib"])
def test_a_dangling_link_is_one_line(tmp_path, source, drive, capsys, where):
    (drive / "potager").mkdir()
    if (drive / where).is_dir():
        shutil.rmtree(drive / where)
    elif (drive / where).exists():
        (drive / where).unlink()
    (drive / where).symlink_to(tmp_path / "nowhere")
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, f"{where} on the drive is a symbolic link")
    assert tree(tmp_path) == before
    assert not (tmp_path / "nowhere").exists()


def test_a_fifo_on_the_drive_is_refused_without_hanging(tmp_path, source, drive):
    (drive / "potager").mkdir()
    os.mkfifo(drive / "potager" / "app.py")
    before = tree(tmp_path)
    cmd = [sys.executable, "-m", "host_tools.deploy", "--py", "--to", str(drive)]
    done = subprocess.run(
        [*cmd, "--source", str(source)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "deploy: potager/app.py on the drive is a FIFO: deploy writes only real files; move it away"
    )
    assert tree(tmp_path) == before


def test_a_socket_in_the_package_folder_is_refused(tmp_path, source, drive, capsys):
    (drive / "potager").mkdir()
    sock = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(drive / "potager")  # AF_UNIX paths are short: bind relative to the folder
    try:
        sock.bind("sock")
        before = tree(tmp_path)
        assert run(drive, source, "--py") == 2
    finally:
        os.chdir(here)
        sock.close()
    refused(capsys, "potager/sock on the drive is a socket")
    assert tree(tmp_path) == before


def test_an_unreadable_file_is_one_line(tmp_path, source, drive, capsys):
    write_tree(drive, {"potager/secret.txt": b"x"})
    (drive / "potager/secret.txt").chmod(0)
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, "potager/secret.txt on the drive is unreadable")
    assert tree(tmp_path) == before


def test_a_read_only_file_deploy_would_change_is_refused(tmp_path, source, drive, capsys):
    assert run(drive, source, "--py") == 0
    (source / "potager/app.py").write_bytes(b"new\n")
    (drive / "potager/app.py").chmod(0o444)
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, "potager/app.py on the drive is read-only")
    assert tree(tmp_path) == before


def test_a_read_only_folder_is_refused(tmp_path, source, drive, capsys):
    assert run(drive, source, "--py") == 0
    write_tree(source, {"potager/core/new.py": b"x = 1\n"})
    (drive / "potager/core").chmod(0o555)
    before = tree(tmp_path)
    try:
        assert run(drive, source, "--py") == 2
    finally:
        (drive / "potager/core").chmod(0o755)
    refused(capsys, "potager/core is read-only")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("where", ["potager", "lib", "potager/core", "potager/fonts"])
def test_a_file_where_a_folder_should_be(tmp_path, source, drive, capsys, where):
    if (drive / where).is_dir():
        shutil.rmtree(drive / where)
    write_tree(drive, {where: b"a file"})
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, f"{where} on the drive is a file where deploy needs a folder")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("where", ["code.py", "potager/app.py", "lib/neopixel.py"])
def test_a_folder_where_a_file_should_be(tmp_path, source, drive, capsys, where):
    if (drive / where).exists():
        (drive / where).unlink()
    write_tree(drive, {where + "/inside.txt": b"the user's"})
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, f"{where} on the drive is a folder where deploy puts a file")
    assert tree(tmp_path) == before


def test_a_users_own_code_py_is_replaced_only_when_asked(tmp_path, source, drive, capsys):
    (drive / "code.py").write_bytes(b"print('my blinky')\n")
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, "code.py on the drive was not written by deploy", "--replace")
    assert tree(tmp_path) == before
    assert run(drive, source, "--py", "--replace") == 0
    assert (drive / "code.py").read_bytes() == (source / "code.py").read_bytes()


def test_a_file_the_user_changed_after_deploy_is_not_overwritten_nor_removed(
    tmp_path, source, drive, capsys
):
    write_tree(source, {"potager/old.py": b"old\n"})
    assert run(drive, source, "--py") == 0
    (drive / "potager/app.py").write_bytes(b"# my fix\n")
    (source / "potager/app.py").write_bytes(b"def main():\n    return 1\n")
    before = tree(tmp_path)
    capsys.readouterr()
    assert run(drive, source, "--py") == 2
    refused(capsys, "potager/app.py on the drive was not written by deploy")
    assert tree(tmp_path) == before

    (drive / "potager/app.py").write_bytes((source / "potager/app.py").read_bytes())
    (drive / "potager/old.py").write_bytes(b"# changed by the user\n")
    (source / "potager/old.py").unlink()
    assert run(drive, source, "--py") == 0
    assert (drive / "potager/old.py").read_bytes() == b"# changed by the user\n"


def test_circup_libraries_in_the_way_need_replace_and_others_stay(tmp_path, source, drive, capsys):
    write_tree(drive, {"lib/neopixel.py": b"# circup's newer neopixel\n"})
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, "lib/neopixel.py on the drive was not written by deploy")
    assert tree(tmp_path) == before
    assert run(drive, source, "--py", "--replace") == 0
    assert (drive / "lib/neopixel.py").read_bytes() == LIB_PY["lib/neopixel.py"]
    for rel, data in USER.items():
        assert (drive / rel).read_bytes() == data


def test_the_refusal_names_every_file_in_the_way_and_replace_lists_them(
    tmp_path, source, drive, capsys
):
    circup = {rel: b"# circup's\n" for rel in LIB_PY}  # what a circup install leaves
    circup["potager/app.py"] = b"# a hand copy\n"
    write_tree(drive, circup)
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    err = refused(capsys, f"{len(circup)} files on the drive were not written by deploy")
    for rel in circup:
        assert rel in err, rel
    assert "--replace to overwrite them" in err
    assert tree(tmp_path) == before

    assert run(drive, source, "--py", "--dry-run", "--replace") == 0
    out = capsys.readouterr().out
    assert sorted(re.findall(r"^  replace (\S+) \(not deploy's\)$", out, re.M)) == sorted(circup)
    assert tree(tmp_path) == before


def test_many_files_in_the_way_are_named_up_to_a_dozen_then_counted(
    tmp_path, source, drive, capsys
):
    for i in range(20):
        write_tree(source, {f"potager/m{i:02}.py": b"X = 1\n"})
        write_tree(drive, {f"potager/m{i:02}.py": b"# an old hand copy\n"})
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    err = refused(capsys, "20 files on the drive", "and 8 more", "--dry-run --replace")
    assert [f"potager/m{i:02}.py" in err for i in range(20)] == [True] * 12 + [False] * 8
    assert tree(tmp_path) == before


def test_a_py_twin_in_the_way_is_named_as_one_replace_removes(
    tmp_path, source, drive, capsys, no_mpy_cross
):
    write_tree(drive, {"lib/neopixel.py": b"# circup's, as source\n"})
    mpy = fake_mpy_cross(tmp_path)
    assert run(drive, source, "--mpy-cross", str(mpy)) == 2
    refused(capsys, "lib/neopixel.py on the drive", "--replace to remove it", "instead of")
    assert run(drive, source, "--mpy-cross", str(mpy), "--replace") == 0
    assert "  remove  lib/neopixel.py (not deploy's)" in capsys.readouterr().out
    assert not (drive / "lib/neopixel.py").exists()


def progress_lines(out: str) -> list[tuple[int, int, int, int, int]]:
    found = re.findall(
        r"^  wrote   (\d+)/(\d+) files, ([\d,]+) of ([\d,]+) bytes \((\d+)%\)$", out, re.M
    )
    return [tuple(int(x.replace(",", "")) for x in line) for line in found]


def test_progress_is_files_and_bytes_of_the_total_a_line_a_tenth(tmp_path, source, drive, capsys):
    for i in range(40):  # many small files: far more files than progress lines
        write_tree(source, {f"potager/extra/m{i:02}.py": b"X = %d\n" % i * 50})
    assert run(drive, source, "--py") == 0
    out = capsys.readouterr().out
    assert "\r" not in out  # a log shows it as a terminal does
    lines = progress_lines(out)
    written = int(re.search(r"; ([\d,]+) bytes written", out)[1].replace(",", ""))
    files = len(re.findall(r"^  (add|update) ", out, re.M))
    assert lines[-1] == (files, files, written, written, 100)
    assert 3 <= len(lines) <= deploy.PROGRESS_STEPS + 1 < files
    for (f0, _, b0, *_), (f1, _, b1, *_) in itertools.pairwise(lines):
        assert f0 < f1 and b0 < b1
    assert all(total == written for _, _, _, total, _ in lines)
    assert out.index("  update  code.py") < out.index("  wrote ") < out.index("deployed:")

    app = b"def main():\n    return 2\n"
    (source / "potager/app.py").write_bytes(app)
    assert run(drive, source, "--py") == 0  # one file: one line
    assert progress_lines(capsys.readouterr().out) == [(1, 1, len(app), len(app), 100)]
    assert run(drive, source, "--py") == 0  # nothing to write: no progress
    assert progress_lines(capsys.readouterr().out) == []


def test_a_bad_record_never_makes_deploy_delete_the_users_files(tmp_path, source, drive, capsys):
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep")
    record = {
        "format": 1,
        "files": {
            "settings.toml": None,
            "mystuff/potager/keep.py": None,
            "../outside.txt": None,
            str(outside): None,
            "lib/../settings.toml": None,
        },
    }
    (drive / deploy.MANIFEST).write_text(json.dumps(record))
    assert run(drive, source, "--py") == 0
    for rel, data in USER.items():
        assert (drive / rel).read_bytes() == data
    assert outside.read_bytes() == b"keep"

    (drive / deploy.MANIFEST).write_text("{not json")
    assert run(drive, source, "--py") == 2
    refused(capsys, f"{deploy.MANIFEST} on the drive is not deploy's record")


def test_a_deploy_cut_short_is_finished_by_the_next(source, drive, monkeypatch):
    real_write = deploy._write
    calls = []

    def cut(drive_, rel, data):
        calls.append(rel)
        if len(calls) == 10:
            real_write(drive_, rel, data[: len(data) // 2])
            raise OSError(5, "Input/output error")  # the cable pulled mid-file
        real_write(drive_, rel, data)

    monkeypatch.setattr(deploy, "_write", cut)
    assert run(drive, source, "--py") == 3
    monkeypatch.setattr(deploy, "_write", real_write)
    assert run(drive, source, "--py") == 0
    assert set(ours(drive)) == EXPECTED
    for rel, data in LIB_PY.items():
        assert (drive / rel).read_bytes() == data


# ------------------------------------------------------------- a deploy stopped anywhere

TMP = ".potager-tmp"  # deploy's temporary names: NAME.potager-tmp


class Killed(BaseException):
    """deploy stopped dead (killed, the cable pulled): none of its handlers runs."""


class Faults:
    """Counts deploy's changes to the drive (a file opened to write, each write, a rename, a
    removal, a folder made or removed; only the kinds in `kinds`) and stops deploy at change
    number `at`: "kill" raises Killed (a write lands half its bytes first), "error" an I/O
    error deploy sees. `hit` names the change stopped at; `count` how many were seen."""

    PATH_OPS = ("replace", "rename", "unlink", "mkdir", "rmdir")

    def __init__(self, mp, drive: Path, at: int, how: str = "kill", kinds=None):
        self.at, self.how, self.count, self.hit = at, how, 0, None
        root = str(drive.resolve()) + os.sep
        real = {n: getattr(os, n) for n in ("open", "write", "close", *self.PATH_OPS)}
        fds: dict[int, str] = {}

        def stop_here(kind: str, what: str) -> bool:
            if kinds is not None and kind not in kinds:
                return False
            self.count += 1
            if self.count - 1 != self.at:
                return False
            self.hit = f"{kind} {what.removeprefix(root)}"
            return True

        def fail() -> None:
            if self.how == "kill":
                raise Killed(self.hit)
            raise OSError(errno.EIO, "Input/output error")

        def open_(path, flags, *args, **kwargs):
            writing = flags & (os.O_WRONLY | os.O_RDWR) and str(path).startswith(root)
            if writing and stop_here("open", str(path)):
                fail()
            fd = real["open"](path, flags, *args, **kwargs)
            if writing:
                fds[fd] = str(path)
            return fd

        def write(fd, data):
            if fd in fds and stop_here("write", fds[fd]):
                if self.how == "kill":
                    real["write"](fd, bytes(data[: len(data) // 2]))
                fail()
            return real["write"](fd, data)

        def close(fd):
            fds.pop(fd, None)
            return real["close"](fd)

        def path_op(name):
            def op(path, *args, **kwargs):
                if str(path).startswith(root) and stop_here(name, str(path)):
                    fail()
                return real[name](path, *args, **kwargs)

            return op

        mp.setattr(os, "open", open_)
        mp.setattr(os, "write", write)
        mp.setattr(os, "close", close)
        for name in self.PATH_OPS:
            mp.setattr(os, name, path_op(name))


@pytest.fixture
def many_deploys(monkeypatch):
    """For tests that deploy hundreds of times: the pinned libraries read from the venv once
    (the slow part of a deploy), and no flush to the host's disk (fsync, sync: a test's
    folder is no USB drive, and the flushes, not deploy, would take the time)."""
    monkeypatch.setattr(os, "fsync", lambda _fd: None)
    monkeypatch.setattr(os, "sync", lambda: None)
    real, cache = deploy.library_files, {}

    def cached(mpy_cross, board, requirements):
        key = (mpy_cross, board, str(requirements))
        if key not in cache:
            cache[key] = real(mpy_cross, board, requirements)
        return dict(cache[key])

    monkeypatch.setattr(deploy, "library_files", cached)


@pytest.fixture
def scratch(tmp_path):
    """A folder for the hundreds of drives a test makes, in RAM where there is a tmpfs (a
    disk's journal makes each unlink cost milliseconds)."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        folder = Path(tempfile.mkdtemp(prefix="potager-deploy-", dir=shm))
        yield folder
        shutil.rmtree(folder, ignore_errors=True)
    else:
        yield tmp_path / "scratch"


def fresh_copy(drive: Path, scratch: Path) -> Path:
    """scratch/drive, holding a copy of drive (and nothing of the last test's copy)."""
    copy = scratch / "drive"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(drive, copy, symlinks=True)
    return copy


def firmware_view(drive: Path) -> dict[str, bytes]:
    """What the board imports from the drive: deploy's places, without temporary files."""
    return {rel: data for rel, data in ours(drive).items() if not rel.endswith(TMP)}


def folders(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()}


def without_device_libraries(tmp_path: Path, name: str) -> Path:
    fewer = tmp_path / f"without-{name}.txt"
    lines = (ROOT / "requirements-device.txt").read_text().splitlines()
    fewer.write_text("".join(line + "\n" for line in lines if name not in line))
    return fewer


@pytest.fixture
def old_drive(tmp_path, source, drive) -> Path:
    """A drive holding an older deploy of `source`: every module different, code.py calling
    a name only the old app.py has (old and new mixed cannot run), a module and a library the
    new one drops or adds, a folder fewer, and the user's files, one in potager/."""
    old = tmp_path / "old-firmware"
    shutil.copytree(source, old)
    for path in (old / "potager").rglob("*.py"):
        path.write_bytes(path.read_bytes() + b"# old\n")
    (old / "code.py").write_bytes(b"from potager.app import main_old\nmain_old()\n")
    (old / "potager/app.py").write_bytes(b"def main_old():\n    pass\n")
    shutil.rmtree(old / "potager/fonts")
    write_tree(old, {"potager/gone/stale.py": b"STALE = 1\n"})
    fewer = without_device_libraries(tmp_path, "ticks")
    assert run(drive, old, "--py", "--requirements", str(fewer)) == 0
    write_tree(drive, {"potager/mine.txt": b"the user's note\n"})
    return drive


def completed(tmp_path: Path, old: Path, source: Path) -> tuple[dict, set]:
    """The drive an uninterrupted deploy of `source` makes of `old`: files and folders."""
    reference = tmp_path / "reference"
    shutil.copytree(old, reference, symlinks=True)
    assert run(reference, source, "--py") == 0
    return tree(reference), folders(reference)


def stopped_deploy(mp, drive: Path, source: Path, at: int, how: str, **faults):
    with mp.context() as m:
        fault = Faults(m, drive, at, how, **faults)
        try:
            code = run(drive, source, "--py")
        except Killed:
            code = None
    return fault, code


@pytest.mark.parametrize("how", ["kill", "error"])
def test_a_deploy_stopped_at_any_change_is_finished_by_the_next_plain_deploy(
    tmp_path, source, old_drive, monkeypatch, capsys, many_deploys, scratch, how
):
    """Killed (or failing) at each of its changes to the drive in turn: meanwhile the board
    finds the old firmware whole, the placeholder code.py, or the new firmware whole; the next
    plain deploy leaves exactly what an uninterrupted one would (the user's files as they
    were, no temporary file, no folder more), and a deploy after that changes nothing."""
    old_view = firmware_view(old_drive)
    expected, expected_folders = completed(tmp_path, old_drive, source)
    new_view = firmware_view(tmp_path / "reference")
    capsys.readouterr()
    at = 0
    while True:
        d = fresh_copy(old_drive, scratch)
        before = tree(d)
        fault, code = stopped_deploy(monkeypatch, d, source, at, how)
        if fault.hit is None:  # past its last change: it went through
            assert code == 0 and tree(d) == expected
            break
        view = firmware_view(d)
        assert view in (old_view, new_view) or view["code.py"] == deploy.GUARD_CODE, fault.hit
        if how == "error":
            assert code == 3, fault.hit
            err = refused(capsys, "copy failed: Input/output error")
            if "the drive is as it was" in err:
                assert tree(d) == before, fault.hit
        assert run(d, source, "--py") == 0, fault.hit
        assert tree(d) == expected, fault.hit
        assert folders(d) == expected_folders, fault.hit
        assert run(d, source, "--py") == 0 and tree(d) == expected
        assert "0 added, 0 updated, 0 removed" in capsys.readouterr().out
        at += 1
    assert at > 2 * len(new_view)  # each file written and renamed, the record twice...
    for rel, data in {**USER, "potager/mine.txt": b"the user's note\n"}.items():
        assert expected[rel] == data


def test_a_dry_run_on_a_drive_a_deploy_left_midway_says_so_and_writes_nothing(
    source, old_drive, monkeypatch, capsys, many_deploys, scratch
):
    for at in range(100):  # the first change after the placeholder went in
        d = fresh_copy(old_drive, scratch)
        stopped_deploy(monkeypatch, d, source, at, "kill")
        if (d / "code.py").read_bytes() == deploy.GUARD_CODE:
            break
    before = tree(d)
    capsys.readouterr()
    assert run(d, source, "--py", "--dry-run") == 0
    out = capsys.readouterr().out
    assert "  finish  the deploy that was stopped midway" in out
    assert re.search(
        r"^  clean   \S+\.potager-tmp \(a stopped deploy's temporary file\)$", out, re.M
    )
    assert "  update  code.py" in out
    assert tree(d) == before


def test_a_link_named_like_deploys_temporary_files_is_refused(tmp_path, source, drive, capsys):
    (drive / "code.py.potager-tmp").symlink_to(tmp_path / "nowhere")
    before = tree(tmp_path)
    assert run(drive, source, "--py") == 2
    refused(capsys, "code.py.potager-tmp on the drive is a symbolic link named like deploy's")
    assert tree(tmp_path) == before


def test_a_deploy_killed_twice_is_finished_by_the_third(
    tmp_path, source, old_drive, monkeypatch, many_deploys, scratch
):
    """The mending deploy killed too, at a change of its own: the next one still mends."""
    expected, _ = completed(tmp_path, old_drive, source)
    rng = random.Random(33)
    for first, second in sorted({(rng.randrange(60), rng.randrange(40)) for _ in range(40)}):
        d = fresh_copy(old_drive, scratch)
        stopped_deploy(monkeypatch, d, source, first, "kill")
        fault, _ = stopped_deploy(monkeypatch, d, source, second, "kill")
        assert run(d, source, "--py") == 0, (first, fault.hit)
        assert tree(d) == expected, (first, fault.hit)


def test_a_deploy_killed_at_any_file_leaves_a_drive_that_boots_and_is_mended(
    tmp_path, monkeypatch, many_deploys, scratch
):
    """The real firmware over an older one whose code.py calls a name the new app.py lacks:
    killed at each file it writes (half written) and each it renames or removes, the drive
    boots in the simulator without an error (old firmware, or the placeholder), and after the
    next plain deploy it is the new firmware, which boots to its first screen."""
    from host_tools.sim import DEFAULT_FIRMWARE, SimBoard

    old = tmp_path / "old-firmware"
    shutil.copytree(DEFAULT_FIRMWARE, old, ignore=shutil.ignore_patterns("__pycache__"))
    for path in (old / "potager").rglob("*.py"):
        path.write_bytes(path.read_bytes() + b"\n# old\n")
    code = (old / "code.py").read_text()
    assert "from potager.app import main " in code
    (old / "code.py").write_text(code.replace("import main ", "import main_old as main "))
    with (old / "potager/app.py").open("a") as app:
        app.write("main_old = main\n")
    write_tree(old, {"potager/stale_old.py": b"STALE = 1\n"})
    base = tmp_path / "base"
    write_tree(base, {"boot_out.txt": BOOT_OUT.encode(), **USER})
    assert run(base, old, "--py") == 0
    boots: dict[str, list] = {}

    def boot(d: Path) -> list:
        """Errors of a boot of the drive in the simulator (one boot per distinct drive)."""
        key = deploy.sha(repr(sorted(firmware_view(d).items())).encode())
        if key not in boots:
            result = SimBoard(d).run_script("wait 4000\n")
            boots[key] = [c.traceback for c in result.crashes] + result.warnings
            if firmware_view(d)["code.py"] == (DEFAULT_FIRMWARE / "code.py").read_bytes():
                assert result.state["screen"] == "LanguageScreen"  # erased NVM: first boot
        return boots[key]

    expected, _ = completed(tmp_path, base, DEFAULT_FIRMWARE)
    assert boot(tmp_path / "reference") == []
    at = 0
    while True:
        d = fresh_copy(base, scratch)
        fault, _ = stopped_deploy(
            monkeypatch, d, DEFAULT_FIRMWARE, at, "kill", kinds=("write", "replace", "unlink")
        )
        if fault.hit is None:
            break
        assert boot(d) == [], fault.hit
        assert run(d, DEFAULT_FIRMWARE, "--py") == 0, fault.hit
        assert tree(d) == expected, fault.hit
        at += 1
    changed = len(firmware_view(tmp_path / "reference").items() - firmware_view(base).items())
    assert at > 2 * changed  # each file written, then renamed
    assert len(boots) > changed  # the drive as each rename left it


def test_the_drive_an_older_deploy_leaves_when_killed_mid_copy_does_not_boot(old_drive, source):
    """Why the placeholder: old code.py beside a new app.py is what a copy in place left."""
    from host_tools.sim import SimBoard

    (old_drive / "potager/app.py").write_bytes((source / "potager/app.py").read_bytes())
    [crash] = SimBoard(old_drive).run_script("wait 1000\n").crashes
    assert "main_old" in crash.traceback


def test_a_record_cut_short_by_an_older_deploy_does_not_lock_deploy_out(
    tmp_path, source, drive, capsys, many_deploys
):
    """Deploys before the transaction wrote the record in place: a kill left a prefix of it.
    Cut at every length, its complete entries are kept, the next deploy goes through, and a
    firmware change is refused only for a file whose entry was lost, saying why."""
    assert run(drive, source, "--py") == 0
    files = json.loads((drive / deploy.MANIFEST).read_bytes())["files"]
    files["potager/core/keys.py"] = None  # an older deploy's mark: it was writing that file
    legacy = (json.dumps({"files": files, "format": 1}, indent=0, sort_keys=True) + "\n").encode()
    (source / "potager/app.py").write_bytes(b"def main():\n    return 2\n")
    for cut in [*range(0, len(legacy), 7), len(legacy) - 1]:
        d = tmp_path / f"cut-{cut}"
        shutil.copytree(drive, d, symlinks=True)
        (d / deploy.MANIFEST).write_bytes(legacy[:cut] + b"\0" * (cut % 3))
        capsys.readouterr()
        code = run(d, source, "--py")
        out, err = capsys.readouterr()
        if code == 2:
            assert "potager/app.py" in err and "cut short" in err and "--replace" in err, err
            assert len(err.strip().splitlines()) == 1
            assert b'"potager/app.py"' not in legacy[:cut].rsplit(b"\n", 1)[0]
            assert run(d, source, "--py", "--replace") == 0
        else:
            assert code == 0, err
            assert (f"mend    {deploy.MANIFEST}" in out) == (cut < len(legacy) - 1 or cut % 3 > 0)
        assert (d / "potager/app.py").read_bytes() == (source / "potager/app.py").read_bytes()
        assert json.loads((d / deploy.MANIFEST).read_bytes())["files"].keys() == EXPECTED
        for rel, data in USER.items():
            assert (d / rel).read_bytes() == data


def test_the_space_check_counts_clusters_not_bytes(source, drive, capsys, monkeypatch):
    """Ten small files take ten clusters: 4 KiB clusters and twice the bytes free do not fit."""
    assert run(drive, source, "--py", "--dry-run") == 0
    need = int(re.search(r"([\d,]+) bytes to write", capsys.readouterr().out)[1].replace(",", ""))
    fake_free_space(monkeypatch, 2 * need, cluster=4096)
    before = tree(drive)
    assert run(drive, source, "--py") == 2
    refused(capsys, "not enough space", "clusters of 4096 B")
    assert tree(drive) == before
    fake_free_space(monkeypatch, 80 * 512, cluster=512)  # fits in 512-byte clusters
    assert run(drive, source, "--py") == 0


def test_without_statvfs_the_cluster_is_512_bytes_or_the_one_given(
    source, drive, capsys, monkeypatch
):
    fake_free_space(monkeypatch, 80 * 512, cluster=512)
    monkeypatch.delattr(os, "statvfs")
    before = tree(drive)
    assert run(drive, source, "--py", "--cluster-size", "4096") == 2
    refused(capsys, "not enough space", "clusters of 4096 B")
    assert tree(drive) == before
    assert run(drive, source, "--py", "--cluster-size", "1000") == 2
    assert "power of two" in capsys.readouterr().err
    assert run(drive, source, "--py") == 0


class Quota:
    """The drive as a FAT volume of `capacity` clusters: a write past it fails with ENOSPC
    (landing nothing: CircuitPython's drive is small enough that one write is one file);
    statvfs says what is free, plus `optimism` clusters (a stale free count)."""

    def __init__(self, mp, drive: Path, spare: int, cluster: int = 512, optimism: int = 0):
        self.drive, self.cluster = drive, cluster
        self.capacity = capacity = self.used() + spare
        real_open, real_write, real_mkdir = os.open, os.write, os.mkdir
        root = str(drive.resolve()) + os.sep
        fds: set[int] = set()

        def open_(path, flags, *args, **kwargs):
            fd = real_open(path, flags, *args, **kwargs)
            if flags & (os.O_WRONLY | os.O_RDWR) and str(path).startswith(root):
                fds.add(fd)
            return fd

        def write(fd, data):
            if fd in fds:
                size = os.fstat(fd).st_size
                grows = self.clusters(size + len(data)) - self.clusters(size)
                if self.used() + grows > self.capacity:
                    raise OSError(errno.ENOSPC, "No space left on device")
            return real_write(fd, data)

        def mkdir(path, *args, **kwargs):
            if str(path).startswith(root) and self.used() + 1 > self.capacity:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
            return real_mkdir(path, *args, **kwargs)

        def free() -> int:
            return max(0, self.capacity - self.used()) + optimism

        mp.setattr(os, "open", open_)
        mp.setattr(os, "write", write)
        mp.setattr(os, "mkdir", mkdir)
        mp.setattr(os, "statvfs", lambda _p: os.statvfs_result(
            (cluster, cluster, capacity, free(), free(), 0, 0, 0, 0, 255)))  # fmt: skip
        mp.setattr(shutil, "disk_usage", lambda _p: shutil._ntuple_diskusage(
            capacity * cluster, 0, free() * cluster))  # fmt: skip

    def clusters(self, size: int) -> int:
        return -(-size // self.cluster)

    def used(self) -> int:
        paths = list(self.drive.rglob("*"))
        files = sum(self.clusters(p.lstat().st_size) for p in paths if p.is_file())
        return files + sum(1 for p in paths if p.is_dir())


@pytest.mark.parametrize("optimism", [0, 1000])
def test_a_drive_too_full_is_left_as_it_was_or_completely_updated(
    tmp_path, source, old_drive, monkeypatch, capsys, many_deploys, scratch, optimism
):
    """From no cluster spare to enough, with statvfs right (refused before writing) and with
    it promising 1000 clusters more than there are (the copy fails and is undone)."""
    # small files: each takes a whole cluster, which counting bytes misses
    write_tree(source, {f"potager/extra/m{i}.py": b"X = %d\n" % i for i in range(20)})
    expected, _ = completed(tmp_path, old_drive, source)
    before = tree(old_drive)
    for spare in range(400):
        d = fresh_copy(old_drive, scratch)
        capsys.readouterr()
        with monkeypatch.context() as m:
            Quota(m, d, spare, optimism=optimism)
            code = run(d, source, "--py")
        err = capsys.readouterr().err
        if code == 0:
            assert tree(d) == expected, spare
            break
        assert tree(d) == before, (spare, err)
        if optimism:
            assert code == 3, spare
            one_line(err, "copy failed: No space left on device", "the drive is as it was")
        else:
            assert code == 2 and "not enough space" in err, (spare, err)
    assert 10 < spare < 399  # refused or undone many times over, then it fits


# ----------------------------------------------------------------- the board's CircuitPython


@pytest.mark.parametrize("form", ["py", "mpy"])
def test_circuitpython_11_is_refused_with_py_too(tmp_path, source, drive, capsys, form):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.2.1", "11.0.0"))
    mpy = fake_mpy_cross(tmp_path, version=CP_VERSION.replace("9.2.1", "11.0.0"))
    before = tree(drive)
    assert run(drive, source, *(["--py"] if form == "py" else ["--mpy-cross", str(mpy)])) == 2
    refused(capsys, "the drive runs Adafruit CircuitPython 11.0.0", "needs CircuitPython 9.x")
    assert tree(drive) == before


GARBLED = {
    "escapes": b"\x1b[2J\x1b]0;pwned\x07Adafruit CircuitPython 9.2.1\x1b[0m\nBoard ID:x\n",
    "zeros": b"\0" * 512,
    "not_utf8": b"Adafruit Circuit\xff\xfePython 9.2.1 on\nBoard ID:raspberry_pi_pico\n",
    "empty": b"",
    "no_version": b"Adafruit CircuitPy\n",
    "board_id": BOOT_OUT.replace("raspberry_pi_pico", "rasp\x08\x08berry").encode(),
    "random": bytes(random.Random(7).randrange(256) for _ in range(300)),
}


@pytest.mark.parametrize("kind", sorted(GARBLED))
def test_a_garbled_boot_out_is_one_printable_line(tmp_path, source, drive, capsys, kind):
    (drive / "boot_out.txt").write_bytes(GARBLED[kind])
    before = tree(drive)
    assert run(drive, source, "--py") == 2
    err = refused(capsys, "boot_out.txt on the drive", "reset the board")
    assert err.endswith("\n") and err[:-1].isprintable(), repr(err)
    assert tree(drive) == before


def test_boot_py_output_in_boot_out_is_not_garbling(source, drive, capsys):
    """What the user's boot.py printed follows the header: not deploy's to judge."""
    (drive / "boot_out.txt").write_text(BOOT_OUT + "boot.py output:\n\x1b[1mhello\x07\n")
    assert run(drive, source, "--py") == 0
    assert capsys.readouterr().out.isascii()


ODD = ("file", "dir", "link_out", "link_in", "dangling", "fifo", "unreadable", "readonly")
PLACES = (
    "code.py",
    "boot.py",
    "potager",
    "potager/app.py",
    "potager/core",
    "potager/core/keys.py",
    "potager/x.py",
    "lib",
    "lib/neopixel.py",
    "lib/adafruit_display_text",
    "lib/adafruit_display_text/label.py",
    "lib/mine.py",
    "settings.toml",
    "elsewhere/deep.txt",
    deploy.MANIFEST,
)


def _make_odd(rng, drive_path: Path, outside: Path, rel: str, kind: str) -> None:
    path = drive_path / rel
    if os.path.lexists(path):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        return
    if kind == "file":
        path.write_bytes(rng.randbytes(rng.randrange(40)))
    elif kind == "dir":
        path.mkdir()
        (path / "inner.txt").write_bytes(b"inner")
    elif kind == "link_out":
        path.symlink_to(outside / rng.choice(["a.txt", "folder"]))
    elif kind == "link_in":
        path.symlink_to(drive_path / rng.choice(["settings.toml", "elsewhere", "lib"]))
    elif kind == "dangling":
        path.symlink_to(outside / "missing")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "unreadable":
        path.write_bytes(b"secret")
        path.chmod(0)
    else:
        path.write_bytes(b"read-only")
        path.chmod(0o444)


@pytest.mark.parametrize("seed", range(40))
def test_random_drives_never_touch_anything_outside_what_deploy_wrote(tmp_path, source, seed):
    rng = random.Random(seed)
    outside = tmp_path / "outside"
    write_tree(outside, {"a.txt": b"outside", "folder/b.txt": b"outside too"})
    d = tmp_path / "CIRCUITPY"
    write_tree(d, {"boot_out.txt": BOOT_OUT.encode(), "settings.toml": b"X=1\n"})
    if rng.random() < 0.5:  # half the drives start from a good deploy
        assert run(d, source, "--py") == 0
    for rel in rng.sample(PLACES, rng.randrange(1, 5)):
        _make_odd(rng, d, outside, rel, rng.choice(ODD))
    outside_before = tree(outside) | {
        "mtimes": repr(
            sorted((p.as_posix(), p.lstat().st_mtime_ns) for p in outside.rglob("*"))
        ).encode()
    }
    drive_before = tree(d)
    record_before = set()
    try:  # only a regular file: a FIFO there would block this read
        assert stat.S_ISREG((d / deploy.MANIFEST).lstat().st_mode)
        record_before = set(json.loads((d / deploy.MANIFEST).read_bytes())["files"])
    except (OSError, ValueError, KeyError, TypeError, AssertionError):
        pass  # none, or not deploy's

    code = run(d, source, "--py", *(["--replace"] if rng.random() < 0.3 else []))
    assert code in (0, 2, 3)
    after = tree(outside) | {
        "mtimes": repr(
            sorted((p.as_posix(), p.lstat().st_mtime_ns) for p in outside.rglob("*"))
        ).encode()
    }
    assert after == outside_before
    now = tree(d)
    allowed = EXPECTED | record_before | {deploy.MANIFEST}
    if code == 2:
        assert now == drive_before  # refused: nothing written
    for rel, data in drive_before.items():
        if rel not in allowed and not rel.startswith("potager/"):
            assert now.get(rel) == data, rel  # the user's files, never touched
    for rel in set(now) - set(drive_before):
        assert rel in allowed or any(r.startswith(rel + "/") for r in allowed), rel


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


def fake_mpy_cross(
    folder: Path, version=CP_VERSION, magic=b"C\x06", fail=False, name="mpy-cross"
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(
        FAKE_MPY_CROSS.format(python=sys.executable, version=version, magic=magic, fail=fail)
    )
    path.chmod(0o755)
    return path


@pytest.fixture
def no_mpy_cross(monkeypatch, tmp_path):
    """Nothing to find: an empty PATH folder, no $MPY_CROSS, no project mpy-cross/ folder."""
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.delenv("MPY_CROSS", raising=False)
    monkeypatch.setattr(drive_files, "MPY_CROSS_DIR", tmp_path / "no-mpy-cross-folder")
    return empty


def test_mpy_is_the_default_and_py_twins_go(tmp_path, source, drive, monkeypatch, no_mpy_cross):
    assert run(drive, source, "--py") == 0  # a .py deploy first: its .py files become twins
    fake_mpy_cross(no_mpy_cross, name="mpy-cross-9.2.1")

    assert run(drive, source) == 0
    expected = (
        {
            "code.py",  # code.py and boot.py stay source: CircuitPython only runs them as .py
            "potager/__init__.mpy",
            "potager/app.mpy",
            "potager/core/__init__.mpy",
            "potager/core/keys.mpy",
            "potager/fonts/small.bdf",
            "potager/games.json",
        }
        | {rel[: -len(".py")] + ".mpy" for rel in LIB_PY}
    )
    assert set(ours(drive)) == expected
    assert (drive / "potager/core/keys.mpy").read_bytes() == b"C\x06potager/core/keys.py|UP = 0\n"
    assert (drive / "lib/neopixel.mpy").read_bytes().startswith(b"C\x06neopixel.py|")
    assert (drive / "code.py").read_bytes() == (source / "code.py").read_bytes()

    assert run(drive, source, "--py") == 0  # and back to .py: the .mpy files go
    assert set(ours(drive)) == EXPECTED


@pytest.mark.parametrize("version", ["9.2.1", "10.2.1"])
def test_without_mpy_cross_the_sources_go_and_one_line_says_how_to_get_mpy(
    source, drive, capsys, no_mpy_cross, version
):
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.2.1", version))
    major = version.split(".")[0]
    assert run(drive, source) == 0
    assert set(ours(drive)) == EXPECTED  # what --py writes
    err = one_line(
        capsys.readouterr().err,
        f"no mpy-cross for CircuitPython {major} found",
        ".py sources go",
        f"mpy-cross {major}.x from {drive_files.MPY_CROSS_URL}",
        "--mpy-cross PATH",
        "$MPY_CROSS",
    )
    assert err.startswith("deploy: ")
    assert run(drive, source, "--py") == 0  # --py: the same files, without the note
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("how", ["option", "env"])
def test_an_mpy_cross_named_but_missing_is_still_refused(
    tmp_path, source, drive, capsys, no_mpy_cross, monkeypatch, how
):
    missing = tmp_path / "no-such-mpy-cross"
    if how == "env":
        monkeypatch.setenv("MPY_CROSS", str(missing))
    before = tree(drive)
    assert run(drive, source, *(["--mpy-cross", str(missing)] if how == "option" else [])) == 2
    refused(capsys, f"mpy-cross {missing}: no such file")
    assert tree(drive) == before


@pytest.mark.parametrize("how", ["path", "folder", "env", "plain_on_path"])
def test_where_mpy_cross_is_found(tmp_path, source, drive, monkeypatch, no_mpy_cross, how):
    if how == "path":
        fake_mpy_cross(
            no_mpy_cross, version=CP_VERSION.replace("9.2.1", "10.0.0"), name="mpy-cross-10.0.0"
        )  # another major: passed over
        fake_mpy_cross(no_mpy_cross, name="mpy-cross-linux-amd64-9.2.1.static")
    elif how == "folder":
        folder = tmp_path / "project-mpy-cross"
        monkeypatch.setattr(drive_files, "MPY_CROSS_DIR", folder)
        fake_mpy_cross(folder, name="mpy-cross-9.2.9")
    elif how == "env":
        monkeypatch.setenv("MPY_CROSS", str(fake_mpy_cross(tmp_path / "anywhere")))
    else:
        fake_mpy_cross(no_mpy_cross)
    assert run(drive, source) == 0
    assert (drive / "potager/app.mpy").read_bytes().startswith(b"C\x06")


def test_an_mpy_cross_of_another_major_is_refused(tmp_path, source, drive, capsys, no_mpy_cross):
    other = fake_mpy_cross(tmp_path, version=CP_VERSION.replace("9.2.1", "10.2.1"))
    before = tree(drive)
    assert run(drive, source, "--mpy-cross", str(other)) == 2
    refused(capsys, "is CircuitPython 10's but the board runs CircuitPython 9")
    assert tree(drive) == before


def test_mpy_dry_run_writes_nothing_on_the_drive(tmp_path, source, drive, capsys):
    mpy = fake_mpy_cross(tmp_path)
    before = tree(drive)
    assert run(drive, source, "--mpy-cross", str(mpy), "--dry-run") == 0
    assert tree(drive) == before
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
    refused(capsys, message)
    assert tree(drive) == before


def test_the_real_mpy_deploy_loads_on_circuitpython(tmp_path, drive, monkeypatch, capsys):
    absent = cpkit.missing(cpkit.VM, cpkit.MPY_CROSS)
    if absent:
        pytest.skip(absent)
    (drive / "boot_out.txt").write_text(BOOT_OUT.replace("9.2.1", "10.2.1"))
    monkeypatch.setenv("MPY_CROSS", str(cpkit.executable(cpkit.MPY_CROSS)))
    assert deploy.main(["--to", str(drive)]) == 0
    out = capsys.readouterr().out
    mpy_bytes = int(re.search(r"([\d,]+) bytes in", out).group(1).replace(",", ""))
    py_bytes = sum(len(d) for d in drive_files.circuitpy_files(None).values())
    assert mpy_bytes < py_bytes * 0.6  # what .mpy saves on a 1 MB drive
    assert not list((drive / "potager").rglob("*.py"))
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import potager.app, adafruit_ticks\n"
        "from potager.core import registry\n"
        "for mode in registry.names():\n"
        "    registry.rules(mode)\n"
        "print('loaded', potager.app.__file__)\n"
    )
    done = cpkit.run_vm(probe, heap="96K", path=[drive, drive / "lib"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("CIRCUITPY/potager/app.mpy")


# ------------------------------------------------------------------------ facts the tool uses


def test_module_names_match_what_the_pypi_packages_install():
    """KNOWN_MODULES and the fallback rule agree with the installed dist-info."""
    names = [
        line.split("#")[0].strip()
        for line in (ROOT / "requirements-device.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    assert names
    for name in names:
        files = importlib.metadata.files(name.split("==")[0]) or []
        top = {f.parts[0].removesuffix(".py") for f in files if ".dist-info" not in f.parts[0]}
        assert deploy.module_for(name) in top, name


def board_modules(board_id: str) -> set[str]:
    """The modules built into the board's CircuitPython, as circuitpython-stubs lists them."""
    spec = importlib.util.find_spec("board_definitions")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("circuitpython-stubs not installed")
    stubs = Path(next(iter(spec.submodule_search_locations)))
    included = re.search(r"Included modules: (.*)", (stubs / board_id / "__init__.pyi").read_text())
    assert included is not None
    return set(included.group(1).split(", "))


def test_built_in_modules_agree_with_the_board_stubs():
    for module, boards in deploy.BUILT_IN.items():
        for board_id in boards:
            assert module in board_modules(board_id), (board_id, module)


def test_through_python_dash_m(source, drive):
    cmd = [sys.executable, "-m", "host_tools", "deploy", "--py", "--to", str(drive)]
    done = subprocess.run(
        [*cmd, "--source", str(source)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert set(ours(drive)) == EXPECTED
    bad = subprocess.run(
        [*cmd[:-1], str(drive.parent), "--source", str(source)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert "not a CIRCUITPY drive" in bad.stderr


# ----------------------------------------------------------------- the assembly guide's path

# A CIRCUITPY drive as CircuitPython 10.2.1 makes it on its first start (the names are in its
# firmware image): the header of boot_out.txt, the stock code.py, and its empty files.
FRESH_DRIVE = {
    "boot_out.txt": b"Adafruit CircuitPython 10.2.1 on 2026-05-12; Raspberry Pi Pico with rp2040\n"
    b"Board ID:raspberry_pi_pico\n",
    "code.py": b'print("Hello World!")\n',
    "settings.toml": b"",
    "sd/placeholder.txt": b"SD cards mounted at /sd will hide this file from Python.\n",
    ".fseventsd/no_log": b"",
    ".metadata_never_index": b"",
    ".Trashes": b"",
}
GUIDE_DRIVE = "/media/$USER/CIRCUITPY"


def guide_blocks(md: str) -> list[tuple[str, str]]:
    """The fenced code blocks of a Markdown page: (language, text), in order."""
    found = re.findall(r"^ *```(\w*)\n(.*?)^ *```", md, re.M | re.S)
    return [(lang, textwrap.dedent(text)) for lang, text in found]


@pytest.mark.parametrize("mpy", ["none found", "the kit's on PATH"])
def test_the_assembly_guide_is_one_path_that_works(tmp_path, no_mpy_cross, capsys, mpy):
    """hardware/assembly.md's commands, in order, on a fresh drive: its deploy puts every
    library its part tests import on the drive, circup is no step of it, and its second
    deploy (the first boot's) finds nothing in its way."""
    if mpy != "none found":
        if cpkit.missing(cpkit.MPY_CROSS):
            pytest.skip(cpkit.missing(cpkit.MPY_CROSS))
        (no_mpy_cross / "mpy-cross-10.2.1").symlink_to(cpkit.executable(cpkit.MPY_CROSS))
    md = (ROOT / "hardware/assembly.md").read_text(encoding="utf-8")
    blocks = guide_blocks(md)
    commands = [
        line.strip()
        for lang, text in blocks
        if lang != "python"
        for line in text.splitlines()
        if line.strip()
    ]
    assert not [c for c in commands if "circup" in c]  # an alternative in the text, no step
    deploys = [c for c in commands if "host_tools deploy" in c]
    assert len(deploys) == 2 and deploys == commands, commands  # section 1, then 6
    d = tmp_path / "CIRCUITPY"
    write_tree(d, FRESH_DRIVE)
    (d / "lib").mkdir()

    for i, command in enumerate(deploys):
        words = shlex.split(command.replace(GUIDE_DRIVE, str(d)))
        assert words[:4] == [".venv/bin/python", "-m", "host_tools", "deploy"], command
        assert deploy.main(words[4:]) == 0, capsys.readouterr().err
        out, err = capsys.readouterr()
        if mpy == "none found":
            one_line(err, "no mpy-cross for CircuitPython 10 found", ".py sources go")
        else:
            assert err == ""
        if i == 0:
            assert "deployed: " in out
            built_in = board_modules("raspberry_pi_pico")
            for lang, text in blocks:  # every part test of the guide can run at the prompt
                if lang != "python":
                    continue
                for line in re.findall(r"^import (.*)$", text, re.M):
                    for module in (m.strip() for m in line.split(",")):
                        on_drive = [p for p in (d / "lib").glob(module + "*")]
                        assert module in built_in or on_drive, module
        else:
            assert "0 added, 0 updated, 0 removed" in out
    suffix = ".py" if mpy == "none found" else ".mpy"
    assert (d / f"potager/app{suffix}").is_file() and (d / f"lib/neopixel{suffix}").is_file()
    for rel, data in FRESH_DRIVE.items():
        if rel not in ("code.py",):
            assert (d / rel).read_bytes() == data, rel  # CircuitPython's own files stay


def test_the_assembly_guides_links_into_the_deploy_page_resolve():
    md = (ROOT / "hardware/assembly.md").read_text(encoding="utf-8")
    links = re.findall(r"\(\.\./docs/deploy\.md#([\w-]+)\)", md)
    assert len(links) >= 2
    headings = re.findall(r"^#+ (.+)$", (ROOT / "docs/deploy.md").read_text(), re.M)
    slugs = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}
    assert set(links) <= slugs, set(links) - slugs


def test_the_readmes_quick_path_deploys_onto_a_fresh_drive(tmp_path, no_mpy_cross, capsys):
    """README.md's *Flash a board* commands, in order, on a drive as CircuitPython makes it
    (no mpy-cross, as on a newcomer's computer): the dry run writes nothing, the deploy puts
    the firmware and its libraries there."""
    md = (ROOT / "README.md").read_text(encoding="utf-8")
    section = md[md.index("## Flash a board") :]
    section = section[: section.index("\n## ", 1)]
    commands = [
        line.split("#")[0].strip()
        for lang, text in guide_blocks(section)
        for line in text.splitlines()
        if line.strip()
    ]
    assert len(commands) == 2 and "--dry-run" in commands[0], commands
    d = tmp_path / "CIRCUITPY"
    write_tree(d, FRESH_DRIVE)
    before = sorted(p.relative_to(d).as_posix() for p in d.rglob("*"))
    for i, command in enumerate(commands):
        words = shlex.split(command.replace(GUIDE_DRIVE, str(d)))
        assert words[:4] == [".venv/bin/python", "-m", "host_tools", "deploy"], command
        assert deploy.main(words[4:]) == 0, capsys.readouterr().err
        capsys.readouterr()
        if i == 0:
            assert sorted(p.relative_to(d).as_posix() for p in d.rglob("*")) == before
    assert (d / "code.py").read_bytes() != FRESH_DRIVE["code.py"]
    assert (d / "potager/app.py").is_file() and (d / "lib/neopixel.py").is_file()


MACROPAD_BOOT_OUT = (
    "Adafruit CircuitPython 10.2.1 on 2026-05-12; Adafruit Macropad RP2040 with rp2040\n"
    "Board ID:adafruit_macropad_rp2040\nUID:E6614C311B5A6A2B\n"
)


def test_a_macropad_drive_gets_no_display_driver_and_no_pixelbuf(source, tmp_path, capsys):
    # The MacroPad's CircuitPython makes its display (board.DISPLAY) and has adafruit_pixelbuf
    # built in: deploy reads the board from boot_out.txt and leaves both libraries out.
    drive = tmp_path / "MACROPAD"
    write_tree(drive, {"boot_out.txt": MACROPAD_BOOT_OUT.encode()})
    assert run(drive, source, "--py") == 0
    assert "board adafruit_macropad_rp2040" in capsys.readouterr().out
    libraries = {Path(rel).parts[1] for rel in ours(drive) if rel.startswith("lib/")}
    assert libraries == {"neopixel.py", "adafruit_ticks.py"}
    pico = {Path(rel).parts[1] for rel in LIB_PY}
    assert {"adafruit_displayio_ssd1306.py", "neopixel.py"} <= pico  # the Pico's keep theirs
