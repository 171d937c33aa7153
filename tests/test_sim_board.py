"""The simulated board running a stub firmware built on the real display and LED stack."""

import json
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from host_tools.sim import ERASED_NVM, SimBoard
from host_tools.sim.cli import main
from host_tools.sim.machine import Flash, flash_write
from host_tools.sim.render import PNG_SIZE

INIT_BYTES = 46
FULL_FRAME_BYTES = 1037
UP, DOWN, LEFT, RIGHT, OK, BACK, TURN = range(7)

# A tiny firmware: OK counts (saved to NVM as 4 equal bytes, so a torn write shows), UP moves
# the lit LED only, TURN raises inside the loop's recovery, LEFT raises past it, DOWN starts a
# watchdog that is never fed.
STUB_APP = """
import time

import board
import busio
import displayio
import i2cdisplaybus
import keypad
import microcontroller
import neopixel
import terminalio
import watchdog
from adafruit_display_text import bitmap_label
from adafruit_displayio_ssd1306 import SSD1306

current = None
PINS = ("GP10", "GP11", "GP12", "GP13", "GP14", "GP15", "GP16")


class App:
    def __init__(self):
        displayio.release_displays()
        i2c = busio.I2C(board.GP5, board.GP4, frequency=400_000)
        bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C)
        self.display = SSD1306(bus, width=128, height=64, auto_refresh=False)
        self.label = bitmap_label.Label(terminalio.FONT, text="", x=4, y=8)
        group = displayio.Group()
        group.append(self.label)
        self.display.root_group = group
        pins = [getattr(board, name) for name in PINS]
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.pixels = neopixel.NeoPixel(board.GP22, 12, brightness=0.2, auto_write=False)
        saved = microcontroller.nvm[0]
        self.count = 0 if saved == 0xFF else saved
        self.lit = 0
        self.events = []
        self.fatal = False
        self.render()

    @property
    def screen_rows(self):
        return ["count " + str(self.count)]

    def snapshot(self):
        return {"count": self.count, "events": self.events}

    def render(self):
        self.label.text = self.screen_rows[0]
        self.display.refresh()
        self.pixels.fill(0)
        self.pixels[self.lit] = (255, 0, 0)
        self.pixels.show()

    def step(self):
        event = keypad.Event()
        changed = False
        while self.keys.events.get_into(event):
            self.events.append([event.key_number, event.pressed, event.timestamp])
            if not event.pressed:
                continue
            changed = True
            if event.key_number == 4:
                self.count += 1
                microcontroller.nvm[0:4] = bytes([self.count]) * 4
            elif event.key_number == 0:
                self.lit = (self.lit + 1) % 12
            elif event.key_number == 6:
                raise ValueError("stub crash")
            elif event.key_number == 2:
                self.fatal = True
            elif event.key_number == 1:
                microcontroller.watchdog.timeout = 2
                microcontroller.watchdog.mode = watchdog.WatchDogMode.RESET
        if changed:
            self.render()


def main():
    global current
    current = App()
    while True:
        try:
            current.step()
        except Exception as exc:
            report = getattr(microcontroller, "on_crash", None)
            if report:
                report(exc)
        if current.fatal:
            raise RuntimeError("stub fatal")
        time.sleep(0.01)
"""


@pytest.fixture
def firmware(tmp_path):
    root = tmp_path / "firmware"
    (root / "potager").mkdir(parents=True)
    (root / "code.py").write_text("from potager.app import main\nmain()\n")
    (root / "potager" / "__init__.py").write_text("")
    (root / "potager" / "app.py").write_text(STUB_APP)
    return root


def ticks(ms):
    """supervisor.ticks_ms() ms after boot: it starts 65.536 s before its wrap at 2**29."""
    return (2**29 - 65_536 + ms) % 2**29


def test_key_presses_reach_the_firmware_with_key_numbers_and_timestamps(firmware):
    result = SimBoard(firmware).run_script("wait 1000\npress OK\nhold RIGHT 300\npress BACK")
    events = result.state["events"]
    # press: 60 ms down, 20 up; hold: MS down, 20 up
    changes = [(OK, True, 1000), (OK, False, 1060), (RIGHT, True, 1080), (RIGHT, False, 1380)]
    changes += [(BACK, True, 1400), (BACK, False, 1460)]
    assert [(key, pressed) for key, pressed, _ in events] == [(k, p) for k, p, _ in changes]
    # each stamped by the first 20 ms scan at or after the change
    assert all(
        0 <= ts - ticks(t) < 20 for (_, _, ts), (_, _, t) in zip(events, changes, strict=True)
    )
    assert len({ts % 20 for _, _, ts in events}) == 1  # one scan grid
    assert result.crashes == [] and result.warnings == []


def test_a_press_between_two_scans_is_never_seen(firmware):
    """keypad scans every 20 ms from the moment Keys is made (the scans' phase is the start-up's
    length): a press let go before the next scan is never seen, even one of 18 ms, and one a
    scan falls in is seen, however short, stamped with that scan's time."""
    [(_, _, stamp), _] = SimBoard(firmware).run_script("wait 1000\npress OK").state["events"]
    scan = stamp - ticks(0)  # a scan (to the ms: the runs are deterministic), then every 20 ms
    blips = "".join(f"hold OK {ms}\nwait {80 - ms}\n" for ms in (5, 10, 18))  # 100 ms apart
    between = SimBoard(firmware).run_script(f"wait {scan + 101}\n{blips}")  # 1 ms after scans
    assert between.state["events"] == []
    across = SimBoard(firmware).run_script(f"wait {scan + 99}\nhold OK 3").state["events"]
    assert [(key, pressed, ts - ticks(0)) for key, pressed, ts in across] == [
        (OK, True, scan + 100),
        (OK, False, scan + 120),
    ]


def test_every_key_has_its_number(firmware):
    script = "wait 1000\n" + "".join(f"press {key}\n" for key in ("UP", "RIGHT", "OK", "BACK"))
    events = SimBoard(firmware).run_script(script).state["events"]
    assert [number for number, pressed, _ in events if pressed] == [UP, RIGHT, OK, BACK]


def test_frames_carry_screen_leds_and_display_traffic(firmware):
    frames = SimBoard(firmware).run_script("wait 1000\npress OK\nwait 100\npress UP").frames
    first, counted, moved = frames
    assert first["screen"] == ["count 0"]
    assert first["i2c_bytes"] == INIT_BYTES + FULL_FRAME_BYTES
    assert first["leds"] == ["#330000"] + ["#000000"] * 11  # brightness 0.2 applied
    # seen at the next scan, shown after the NVM write (a page over erased bytes: 0.4 ms)
    # and the I2C bytes
    assert counted["screen"] == ["count 1"] and 1000 <= counted["t_ms"] < 1060
    assert 0 < counted["i2c_bytes"] < 320
    assert 1180 <= moved["t_ms"] < 1210 and moved["i2c_bytes"] == 0  # only the LEDs changed
    assert moved["leds"][:2] == ["#000000", "#330000"]


def test_runs_are_deterministic(firmware):
    script = "wait 300\npress OK\nhold UP 500\npower-cut\nwait 50\nboot\nwait 400\npress OK"
    first, second = SimBoard(firmware).run_script(script), SimBoard(firmware).run_script(script)
    assert first == second


def test_power_cut_loses_ram_and_keeps_nvm(firmware):
    script = "wait 1000\npress OK\npress OK\npower-cut\nwait 1000\nboot\nwait 1000"
    result = SimBoard(firmware).run_script(script)
    assert result.state == {"count": 2, "events": []}
    times = [write.t_ms for write in result.nvm_writes]
    # each at the press seen at a scan: a page over erased bytes, then an erase (~51 ms)
    assert len(times) == 2 and 1000 <= times[0] < 1060 and 1080 <= times[1] < 1140
    assert [w.erased for w in result.nvm_writes] == [False, True]
    assert result.nvm[:4] == bytes([2]) * 4 and result.nvm[4:] == ERASED_NVM[4:]
    off = [frame for frame in result.frames if 1180 <= frame["t_ms"] < 2160]
    assert off == []
    assert result.frames[-1]["i2c_bytes"] == INIT_BYTES + FULL_FRAME_BYTES  # a new display


def test_keys_pressed_while_off_do_nothing(firmware):
    result = SimBoard(firmware).run_script("power-cut\nwait 100\npress OK\nboot\nwait 1000")
    assert result.state == {"count": 0, "events": []}
    assert result.nvm_writes == [] and result.warnings == []


def test_a_key_pressed_before_the_firmware_watches_it_is_reported(firmware):
    result = SimBoard(firmware).run_script("press OK\nwait 1000")
    assert result.state["count"] == 0
    assert result.warnings == [
        "t=0 ms: OK pressed and released while no keypad.Keys watched GP14: the press is lost,"
        " as on the device"
    ]


def test_a_key_held_while_the_keys_start_gives_only_its_release(firmware):
    # as CircuitPython's keypad: the first scan only learns that the key is down
    result = SimBoard(firmware).run_script("hold OK 1500\nwait 500")
    assert result.state["count"] == 0 and result.warnings == []
    assert [(number, pressed) for number, pressed, _ in result.state["events"]] == [(OK, False)]


def test_tear_next_write_leaves_a_partial_write_and_the_board_off(firmware):
    # the second write goes over written bytes: the sector is erased, then programmed from
    # its start, and the cut comes after 2 bytes of that program
    script = "wait 1000\npress OK\ntear-next-write 2\npress OK\nwait 1000"
    board = SimBoard(firmware)
    result = board.run_script(script)
    assert result.nvm[:4] == bytes([2, 2, 0xFF, 0xFF]) and result.nvm[4:] == ERASED_NVM[4:]
    assert [(w.length, w.torn, w.erased, w.landed) for w in result.nvm_writes] == [
        (4, False, False, 256),  # over erased bytes: its page only
        (4, True, True, 2),
    ]
    assert result.state is None  # off
    assert result.frames[-1]["t_ms"] < 1160  # nothing shown after the torn write
    assert result.leds == ["#000000"] * 12 and not any(map(any, result.pixels))

    resumed = board.run_script("wait 1000")  # power comes back with what the flash holds
    assert resumed.state["count"] == 2


def test_a_write_over_erased_bytes_programs_pages_and_any_other_erases_the_sector():
    flash = Flash()
    flash[300:304] = b"abcd"  # erased target: one page programmed, nothing erased
    flash[600:1200] = b"x" * 600  # three pages (512..1279)
    assert (flash.erases, flash.pages) == (0, 4)
    flash[302:303] = b"Z"  # a byte already written: read, erase, program all 16 pages
    assert (flash.erases, flash.pages) == (1, 20)
    assert bytes(flash[300:304]) == b"abZd" and bytes(flash[600:1200]) == b"x" * 600
    flash[2000:2001] = b"\xff"  # an 0xFF byte over an erased one: pages only
    assert flash.erases == 1


@pytest.mark.parametrize("cut", [0, 1, 255, 256, 257, 4095])
def test_a_cut_inside_an_erase_or_a_program_leaves_what_was_done(cut):
    nvm = bytearray(ERASED_NVM)
    nvm[0:8] = b"previous"
    erased, pages, landed = flash_write(nvm, 4, b"NEWS", cut_after=cut)
    assert erased and landed == cut and pages == -(-cut // 256)
    assert nvm[:cut] == (b"prevNEWS" + ERASED_NVM[8:])[:cut]  # programmed from the start
    assert nvm[cut:] == ERASED_NVM[cut:]  # erased: 0 cuts inside the erase, all reads 0xFF


def test_a_power_cut_during_a_sector_erase_leaves_it_erased(firmware):
    # the second write erases (45 ms): a power cut inside it finds the sector blank
    board = SimBoard(firmware)
    result = board.run_script("wait 1000\npress OK\nwait 420\nhold OK 30\npower-cut\nwait 100")
    first, second = result.nvm_writes
    assert not first.erased and second.erased and second.torn and second.landed == 0
    assert result.nvm == ERASED_NVM


def test_boot_while_on_is_a_reset_and_boots_twice_in_one_process(firmware):
    board = SimBoard(firmware)
    # the reset's CircuitPython start (1.22 s) and code.py's (0.34 s): "count 1" at 2.64 s
    first = board.run_script("wait 1000\npress OK\nboot\nwait 2000\npress OK")
    boots = [f for f in first.frames if f["i2c_bytes"] == INIT_BYTES + FULL_FRAME_BYTES]
    assert len(boots) == 2
    assert first.state["count"] == 2
    second = board.run_script("wait 1000")
    assert second.state["count"] == 2 and second.crashes == []
    assert second.pixels == first.pixels  # "count 2" drawn by a display built a third time


def test_crash_caught_by_the_firmware_is_reported(firmware):
    result = SimBoard(firmware).run_script("wait 1000\npress TURN\npress OK")
    assert result.state["count"] == 1  # the firmware carried on
    [crash] = result.crashes
    assert crash.caught and 1000 <= crash.t_ms < 1030
    assert "ValueError: stub crash" in crash.traceback


def test_uncaught_exception_stops_the_firmware(firmware):
    result = SimBoard(firmware).run_script("wait 1000\npress LEFT\npress OK")
    [crash] = result.crashes
    assert not crash.caught and "RuntimeError: stub fatal" in crash.traceback
    assert crash.traceback.splitlines()[1].startswith(f'  File "{firmware / "code.py"}"')
    assert result.state is None and result.nvm_writes == []


def test_watchdog_not_fed_resets_the_board(firmware):
    result = SimBoard(firmware).run_script("wait 1000\npress DOWN\nwait 3000")
    [crash] = result.crashes
    assert 3000 <= crash.t_ms < 3030 and "watchdog" in crash.traceback  # 2 s after arming
    assert result.frames[-1]["i2c_bytes"] == INIT_BYTES + FULL_FRAME_BYTES  # rebooted


def test_the_process_is_left_as_it_was(firmware):
    sleep, path = time.sleep, list(sys.path)
    modules = {name for name in sys.modules if name.split(".")[0] in ("potager", "neopixel")}
    SimBoard(firmware).run_script("wait 200")
    assert time.sleep is sleep and sys.path == path
    assert {name for name in sys.modules if name.split(".")[0] in ("potager", "neopixel")} == (
        modules
    )


def _cli(firmware, tmp_path, script, *extra):
    script_file = tmp_path / "script.txt"
    script_file.write_text(script)
    args = ["--headless", "--script", str(script_file), "--firmware", str(firmware), *extra]
    return main(args)


def test_cli_outputs_and_nvm_round_trip(firmware, tmp_path, capsys):
    nvm, state, frames, png = (
        tmp_path / name for name in ("nvm.bin", "s.json", "f.jsonl", "b.png")
    )
    outputs = ["--nvm", str(nvm), "--state", str(state), "--frames", str(frames), "--png", str(png)]
    assert _cli(firmware, tmp_path, "wait 1000\npress OK", *outputs) == 0
    assert nvm.read_bytes()[:4] == bytes([1]) * 4 and len(nvm.read_bytes()) == 4096
    assert json.loads(state.read_text())["count"] == 1
    lines = [json.loads(line) for line in frames.read_text().splitlines()]
    assert [frame["screen"] for frame in lines] == [["count 0"], ["count 1"]]
    with Image.open(png) as image:
        assert image.size == PNG_SIZE

    assert _cli(firmware, tmp_path, "wait 1000\npress OK", *outputs) == 0  # the next power-on
    assert json.loads(state.read_text())["count"] == 2
    assert capsys.readouterr().err == ""


def test_cli_refuses_an_nvm_file_of_the_wrong_size(firmware, tmp_path, capsys):
    nvm = tmp_path / "nvm.bin"
    nvm.write_bytes(b"\0" * 100)
    assert _cli(firmware, tmp_path, "wait 10", "--nvm", str(nvm)) == 2
    assert capsys.readouterr().err == f"sim: {nvm} has 100 bytes; an NVM image has 4096\n"


def test_cli_crash_exits_1_unless_allowed(firmware, tmp_path, capsys):
    assert _cli(firmware, tmp_path, "wait 1000\npress TURN") == 1
    err = capsys.readouterr().err
    assert "caught by the firmware's recovery" in err and "ValueError: stub crash" in err
    assert _cli(firmware, tmp_path, "wait 1000\npress TURN", "--allow-crashes") == 0
    assert _cli(firmware, tmp_path, "wait 1000\npress LEFT", "--allow-crashes") == 1


def test_missing_firmware_is_a_usage_error(tmp_path, capsys):
    assert _cli(Path(tmp_path / "nowhere"), tmp_path, "wait 10") == 2
    assert capsys.readouterr().err.startswith("sim: no code.py in ")


def test_power_cut_during_the_display_init_then_boot(firmware):
    # the display's constructor sleeps 10 ms per init command: cut it short, then boot again
    # (the libraries load in about 0.14 s, the init's sleeps last until 0.27 s)
    script = "wait 200\npower-cut\nwait 10\nboot\nwait 2000\npress OK"
    result = SimBoard(firmware).run_script(script)
    assert result.crashes == []
    assert result.state["count"] == 1
    assert result.frames[0]["t_ms"] >= 210 + 1220  # nothing before the cut; then CP's start


class ScriptedClock:
    """Virtual time with live input at given times, as the terminal UI's clock gives it."""

    def __init__(self, inputs):
        self.inputs = sorted(inputs, key=lambda item: item[0])

    def wait_until(self, board, at_us):
        next_input = self.inputs[0][0] * 1000 if self.inputs else None
        board.machine.now_us = max(
            board.machine.now_us, min(t for t in (at_us, next_input) if t is not None)
        )
        while self.inputs and self.inputs[0][0] * 1000 <= board.machine.now_us:
            self.inputs.pop(0)[1](board)


def test_live_controls(firmware):
    clock = ScriptedClock(
        [
            (1000, lambda board: board.press(OK, 80)),
            (1200, lambda board: board.toggle_power()),  # off
            (1300, lambda board: board.press(OK, 80)),  # nothing: the board is off
            (1400, lambda board: board.toggle_power()),  # on again
            (3000, lambda board: board.quit()),
        ]
    )
    result = SimBoard(firmware).run_live(clock)
    assert result.state == {"count": 1, "events": []}
    boot, counted, again = [frame["t_ms"] for frame in result.frames]
    assert boot < 1000 <= counted < 1100 and 1400 + boot <= again < 3000
    assert result.end_ms == 3000
