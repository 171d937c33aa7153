"""host_tools.bundle: one zip per CircuitPython major of what deploy puts on a CIRCUITPY
drive, checked against deploy itself on temporary folders standing in for the drive."""

import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from host_tools import bundle, cpkit, deploy
from host_tools import drive as drive_files
from host_tools.__main__ import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
HOST_PATH = os.environ.get("PATH", os.defpath)  # for make and git: only_the_kit empties PATH
KIT = {9: cpkit.MPY_CROSS_9, 10: cpkit.MPY_CROSS}
# boot_out.txt as each CircuitPython writes it (its header; 10.2.1's as in its firmware image)
BOOT_OUT = {
    9: b"Adafruit CircuitPython 9.2.9 on 2025-09-07; Raspberry Pi Pico with rp2040\n"
    b"Board ID:raspberry_pi_pico\nUID:E660583883724A2F\n",
    10: b"Adafruit CircuitPython 10.2.1 on 2026-05-12; Raspberry Pi Pico with rp2040\n"
    b"Board ID:raspberry_pi_pico\n",
}


@pytest.fixture(scope="module")
def only_the_kit():
    """mpy-cross from the kit or nowhere: no PATH, $MPY_CROSS nor project mpy-cross/ one."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", "/nonexistent")
        mp.delenv("MPY_CROSS", raising=False)
        mp.setattr(drive_files, "MPY_CROSS_DIR", Path("/nonexistent/mpy-cross"))
        yield mp


@pytest.fixture(scope="module")
def bundles(tmp_path_factory, only_the_kit) -> dict[int, Path]:
    out = tmp_path_factory.mktemp("bundle")
    assert bundle.main(["--out", str(out)]) == 0
    return {major: out / bundle.zip_name(major) for major in bundle.MAJORS}


def contents(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def fresh_drive(root: Path, major: int) -> Path:
    """A CIRCUITPY drive as CircuitPython makes it on its first start."""
    (root / "lib").mkdir(parents=True)
    (root / "boot_out.txt").write_bytes(BOOT_OUT[major])
    (root / "code.py").write_bytes(b'print("Hello World!")\n')
    (root / "settings.toml").write_bytes(b"")
    return root


def kit_mpy(major: int) -> bool:
    return cpkit.missing(KIT[major]) is None


def test_one_zip_per_major_holds_code_py_the_firmware_the_libraries_and_a_readme(bundles):
    firmware = ROOT / "firmware"
    modules = {
        p.relative_to(firmware).as_posix()
        for p in (firmware / "potager").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not p.name.startswith(".")
    }
    libraries = set(drive_files.library_sources("raspberry_pi_pico"))
    assert {"lib/neopixel.py", "lib/adafruit_ticks.py"} <= libraries
    for major, path in bundles.items():
        files = contents(path)
        form = ".mpy" if kit_mpy(major) else ".py"

        def as_deployed(rel: str, form: str = form) -> str:
            return rel[: -len(".py")] + form if rel.endswith(".py") else rel

        assert files["code.py"] == (firmware / "code.py").read_bytes()
        expected = {"code.py", "README.txt", deploy.MANIFEST}
        expected |= {as_deployed(rel) for rel in modules | libraries}
        assert set(files) == expected
        record = json.loads(files[deploy.MANIFEST])["files"]
        assert set(record) == expected - {"README.txt", deploy.MANIFEST}
        readme = files["README.txt"].decode("ascii")
        for needle in (
            f"for CircuitPython {major}.x",
            "CIRCUITPY",
            "Copy everything in this zip onto CIRCUITPY",
            "neopixel",
            "adafruit_ticks",
            "adafruit_displayio_ssd1306",
            ".mpy files compiled for CircuitPython" if form == ".mpy" else ".py sources",
        ):
            assert needle in " ".join(readme.split()), needle
        assert all(len(line) <= 90 for line in readme.splitlines())


def test_the_mpy_files_are_of_each_majors_mpy_cross(bundles):
    absent = cpkit.missing(*KIT.values())
    if absent:
        pytest.skip(f"{absent}: the zips hold .py sources")
    for major, path in bundles.items():
        version = drive_files.check_mpy_cross(cpkit.executable(KIT[major]))
        assert version.startswith(f"CircuitPython {major}.")
        mpy = re.search(r"mpy v(\d+)\.(\d+)", version)
        assert mpy is not None
        files = contents(path)
        compiled = [rel for rel in files if rel.endswith(".mpy")]
        assert len(compiled) > 50
        for rel in compiled:
            # CircuitPython's magic, the bytecode version mpy-cross says, no native code
            assert files[rel][:2] == b"C" + bytes([int(mpy[1])]), rel
            assert files[rel][2] >> 2 == 0, rel
        assert [rel for rel in files if rel.endswith(".py")] == ["code.py"]
        assert f"by mpy-cross {version.split()[1]}" in " ".join(
            files["README.txt"].decode().split()
        )


@pytest.mark.parametrize("major", bundle.MAJORS)
def test_unzipped_onto_a_drive_it_is_what_deploy_writes(
    tmp_path, bundles, monkeypatch, capsys, major
):
    """Deploy with the same mpy-cross (none when the kit lacks it: deploy then writes the
    sources, as the bundle does) writes the same files; a deploy after the zip changes
    nothing: the bundle's files are deploy's own."""
    if kit_mpy(major):
        monkeypatch.setenv("MPY_CROSS", str(cpkit.executable(KIT[major])))
    by_deploy = fresh_drive(tmp_path / "deployed", major)
    assert deploy.main(["--to", str(by_deploy)]) == 0
    by_hand = fresh_drive(tmp_path / "copied", major)
    with zipfile.ZipFile(bundles[major]) as archive:
        archive.extractall(by_hand)
    copied = tree(by_hand)
    assert copied.pop("README.txt")
    assert copied == tree(by_deploy)
    capsys.readouterr()
    assert deploy.main(["--to", str(by_hand)]) == 0
    assert "deployed: 0 added, 0 updated, 0 removed" in capsys.readouterr().out


def test_two_runs_give_the_same_bytes(tmp_path, bundles):
    assert bundle.main(["--out", str(tmp_path)]) == 0
    for major, path in bundles.items():
        again = tmp_path / path.name
        assert again.read_bytes() == path.read_bytes(), major
        with zipfile.ZipFile(again) as archive:
            infos = archive.infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
        assert {i.external_attr >> 16 for i in infos} == {0o644}


def test_the_ten_zip_loads_on_circuitpython(tmp_path, bundles):
    absent = cpkit.missing(cpkit.VM, cpkit.MPY_CROSS)
    if absent:
        pytest.skip(absent)
    drive = tmp_path / "CIRCUITPY"
    with zipfile.ZipFile(bundles[10]) as archive:
        archive.extractall(drive)
    probe = tmp_path / "probe.py"
    probe.write_text("import potager.app, adafruit_ticks\nprint('loaded', potager.app.__file__)\n")
    done = cpkit.run_vm(probe, heap="96K", path=[drive, drive / "lib"])
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().endswith("CIRCUITPY/potager/app.mpy")


def test_without_the_kit_the_zips_hold_sources_and_one_line_says_so(
    tmp_path, capsys, monkeypatch, only_the_kit
):
    monkeypatch.setenv(cpkit.KIT_ENV, str(tmp_path / "no-kit"))
    assert bundle.main(["--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(bundle.MAJORS)
    for major, line in zip(bundle.MAJORS, err, strict=True):
        assert line.startswith(f"bundle: no mpy-cross for CircuitPython {major}")
        assert f"{bundle.zip_name(major)} holds .py sources" in line
        files = contents(tmp_path / "out" / bundle.zip_name(major))
        assert "lib/neopixel.py" in files and "potager/app.py" in files
        assert not [rel for rel in files if rel.endswith(".mpy")]
        assert ".py sources" in files["README.txt"].decode()


def test_make_bundle_runs_the_command_into_a_folder_git_ignores():
    assert "bundle" in COMMANDS
    make, git = (shutil.which(tool, path=HOST_PATH) for tool in ("make", "git"))
    if make is None or git is None:
        pytest.skip("make or git not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")} | {"PATH": HOST_PATH}
    dry = subprocess.run(
        [make, "--no-print-directory", "-n", "bundle"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )  # (under make test, make's own "Entering directory" lines would come too)
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.strip().splitlines()[-1].endswith("-m host_tools bundle")
    default = bundle.OUT.relative_to(ROOT) / bundle.zip_name(10)
    ignored = subprocess.run(
        [git, "check-ignore", "-q", str(default)], cwd=ROOT, env=env, timeout=60
    )
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0, f"{default} is not ignored by git"
