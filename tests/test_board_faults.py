"""What the real board does that a kinder simulator hid: a soft reload keeps the display and
its pins, the display counts as a console, slow steps, keypad's 20 ms scan, days of uptime.
Each test here failed on the firmware (or the simulator) before it was made board-proof."""

import sys

import pytest

from host_tools.mpy.pureboard import Event, PureBoard
from host_tools.sim import DEFAULT_FIRMWARE, SimBoard, costs
from potager.core import keys
from potager.core.gestures import LONG, REPEAT, SHORT, Gestures, since, ticks_diff

WRAP = 1 << 29
START = "wait 3000\n"  # the board starts up: imports, the display, the first screen
FREE_4 = "press DOWN\npress OK\npress OK\npress OK\n"  # English, free score, OK starts it (4)
GAME = START + FREE_4 + "wait 2500\npress RIGHT\npress TURN\nwait 3000\n"  # P1 = 1, P2 plays


def game_board(**options):
    board = SimBoard(**options)
    board.run_script(GAME)
    return board


# ------------------------------------------------------------------ soft reload
def test_a_reload_mid_game_comes_back_to_the_game():
    """Autoreload or Ctrl-D: the last run's display still holds GP4/GP5 when code.py starts
    again; the firmware releases it before making its bus, and the game comes back."""
    board = SimBoard()
    result = board.run_script(GAME + "press RIGHT\nwait 2500\nreload\nwait 4000\npress RIGHT\n")
    assert result.crashes == [] and result.warnings == []
    assert result.state["screen"] == "GameScreen"
    assert result.state["state"]["sc"][:2] == [1, 2]  # saved before the reload, and one more


def test_a_reload_keeps_the_display_and_its_pins_claimed(tmp_path):
    """The simulator as the board: code that makes its I2C bus without releasing displays
    first dies with CircuitPython's "GP5 in use" after a reload, not before."""
    root = tmp_path / "firmware"
    root.mkdir()
    (root / "code.py").write_text(
        "import board, busio, i2cdisplaybus, time, supervisor\n"
        "from adafruit_displayio_ssd1306 import SSD1306\n"
        "print(supervisor.ticks_ms())\n"
        "i2c = busio.I2C(board.GP5, board.GP4)\n"
        "display = SSD1306(i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C),"
        " width=128, height=64)\n"
        "while True:\n    time.sleep(0.01)\n"
    )
    result = SimBoard(root).run_script("wait 1000\nreload\nwait 1000\n")
    [crash] = result.crashes
    assert "ValueError: GP5 in use" in crash.traceback and crash.t_ms >= 1000
    result = SimBoard(root).run_script("wait 1000\npower-cut\nwait 10\nboot\nwait 1000\n")
    assert result.crashes == []  # a power cut frees everything


def test_ticks_go_on_across_a_reload_and_restart_at_power_on(tmp_path):
    root = tmp_path / "firmware"
    root.mkdir()
    (root / "code.py").write_text(
        "import microcontroller, supervisor, time\n"
        "seen = microcontroller.nvm[0:8]\n"
        "microcontroller.nvm[0:4] = bytes(seen[4:8])\n"
        "t = supervisor.ticks_ms() // 1000\n"
        "microcontroller.nvm[4:8] = t.to_bytes(4, 'little')\n"
        "while True:\n    time.sleep(0.1)\n"
    )
    board = SimBoard(root)
    board.run_script("wait 1000\nreload\nwait 1000\n")
    before, after = (int.from_bytes(board.nvm[i : i + 4], "little") for i in (0, 4))
    assert after - before == 1  # one second later: the ticks were not reset
    board.run_script("wait 1000\npower-cut\nwait 5000\nboot\nwait 2000\n")
    before, after = (int.from_bytes(board.nvm[i : i + 4], "little") for i in (0, 4))
    # power-on: 65.5 s before the wrap; the run's first code.py starts then, the one after the
    # boot 1.22 s later (CircuitPython's own start): the 5 s off did not count
    assert before == (WRAP - 65_536) // 1000
    assert after == (WRAP - 65_536 + costs.SUPERVISOR_US // 1000) // 1000


# ------------------------------------------------------------------ the watchdog
def test_serial_connected_is_true_once_a_display_exists(tmp_path):
    root = tmp_path / "firmware"
    root.mkdir()
    (root / "code.py").write_text(
        "import board, busio, displayio, i2cdisplaybus, microcontroller, supervisor, time\n"
        "from adafruit_displayio_ssd1306 import SSD1306\n"
        "displayio.release_displays()\n"
        "before = supervisor.runtime.serial_connected\n"
        "i2c = busio.I2C(board.GP5, board.GP4)\n"
        "SSD1306(i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C), width=128, height=64)\n"
        "microcontroller.nvm[0:2] = bytes([before, supervisor.runtime.serial_connected])\n"
        "while True:\n    time.sleep(0.1)\n"
    )
    assert SimBoard(root).run_script("wait 1000").nvm[:2] == bytes([0, 1])
    assert SimBoard(root, console=True).run_script("wait 1000").nvm[:2] == bytes([1, 1])


HUNG = """
from potager.hw.buttons import scan_now
scan_now()
from potager.ui import free

def on_key(self, app, key, kind):
    n = 0
    while True:  # a loop that never sleeps: only the work it does moves time
        n += 1
        app.display.show(["x" * (n % 7)] * 5)

free.GameScreen.on_key = on_key
from potager.app import main
main()
"""


def test_the_watchdog_resets_a_loop_that_never_sleeps(tmp_path):
    import shutil

    firmware = tmp_path / "firmware"
    shutil.copytree(DEFAULT_FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    board = SimBoard(firmware)
    board.run_script(GAME)  # saved: P1 = 1, P2 active (the game's keys are not hooked yet)
    (firmware / "code.py").write_text(HUNG)
    result = board.run_script(START + "wait 1000\npress RIGHT\nwait 12000\n")
    assert any("watchdog" in crash.traceback for crash in result.crashes)
    assert result.state["state"]["sc"][:2] == [1, 0]  # back from the save after the reset
    # with a terminal on the console, the watchdog stays off (it would cut the REPL)
    board = SimBoard(firmware, console=True, nvm=board.nvm)
    result = board.run_script(START + "wait 1000\npress RIGHT\nwait 12000\n")
    assert not any("watchdog" in crash.traceback for crash in result.crashes)


# ------------------------------------------------------------------ slow steps
def test_a_hold_made_while_the_board_starts_up_is_a_hold():
    """The app's first step comes late (imports, the display): OK held from 0.1 s to 0.7 s,
    queued by code.py's early scan, is judged by its keys' own times: a hold (the help), not
    a press read at the first step (the mode chosen). On a drive that has booted before with
    no game saved: a resumed game drops the keys typed before its first frame (test_resume)."""
    board = SimBoard()
    board.run_script(START + "press DOWN\npress OK\nwait 3000\n")  # English, saved: home
    result = board.run_script("wait 100\nhold OK 600\nwait 3000\n")
    # the first frame comes so late that, timed from the first step instead of its own
    # down, the hold would have lasted under 500 ms: a press
    assert result.frames[0]["t_ms"] > 100 + 600 - 500
    assert result.state["screen"] == "HelpScreen"
    pressed = board.run_script("wait 100\npress OK\nwait 3000\n")
    assert pressed.state["screen"] == "SetupScreen"  # a press is a press: Free score's setup


def test_the_safe_menu_opens_with_a_saved_game_to_restore():
    board = game_board()
    result = board.run_script("hold BACK 1000\nwait 4000\n")
    assert result.state["screen"] == "SafeScreen"


def test_back_held_from_power_on_until_the_screen_lights_opens_the_safe_menu():
    # held when the keys are first scanned, keypad gives no press: the pins say it is down
    result = game_board().run_script("hold BACK 6000\nwait 2000\n")
    assert result.state["screen"] == "SafeScreen"


def _buttons(monkeypatch):
    import importlib
    import types

    monkeypatch.setitem(sys.modules, "keypad", types.ModuleType("keypad"))
    monkeypatch.delitem(sys.modules, "potager.hw.buttons", raising=False)
    module = importlib.import_module("potager.hw.buttons")
    monkeypatch.delitem(sys.modules, "potager.hw.buttons")
    return module


def test_the_early_keys_are_set_right_by_the_pins_when_opened_again(monkeypatch):
    settle = _buttons(monkeypatch).settle
    BACK_, OK_ = 5, 4
    # BACK's pad put back by the runtime: a press with no release, and the pin is up
    assert settle([(BACK_, True, 112)], [], 100, 900) == []
    # a press let go after the early keys' last scan: its release is dated now
    assert settle([(OK_, True, 850)], [], 100, 900) == [(OK_, True, 850), (OK_, False, 900)]
    assert settle([(OK_, True, 150)], [], 100, 900) == [(OK_, True, 150), (OK_, False, 900)]
    # held from power-on and still down: a press at the first scan (the safe menu's window)
    assert settle([], [BACK_], 100, 900) == [(BACK_, True, 100)]
    # held from power-on, let go during start-up: its press comes before its release
    assert settle([(BACK_, False, 300)], [], 100, 900) == [(BACK_, True, 100), (BACK_, False, 300)]
    # ordinary presses pass as they were; a press the early keys missed is dated now
    seen = [(OK_, True, 200), (OK_, False, 300)]
    assert settle(seen, [], 100, 900) == seen
    assert settle(seen, [OK_], 100, 900) == seen + [(OK_, True, 900)]
    assert settle(seen + [(OK_, True, 400)], [OK_], 100, 900) == seen + [(OK_, True, 400)]


def test_a_press_let_go_just_before_the_keys_are_opened_again_is_a_press(monkeypatch):
    """keypad reports a release at its next scan: a press let go in the last scans before the
    app opens the keys again must keep its press (not be taken for BACK's pad put back)."""
    from host_tools.sim.fakes import keypad

    opened = []
    init = keypad.Keys.__init__

    def record(self, *args, **kwargs):
        opened.append(keypad.machine().now_us)
        init(self, *args, **kwargs)

    monkeypatch.setattr(keypad.Keys, "__init__", record)
    SimBoard().run_script(START)
    assert len(opened) == 2  # code.py's early scan, then the app's keys
    handover_ms = opened[1] // 1000
    for before_ms in range(1, 25):
        # OK on the first screen picks the language: down 60 ms, up `before_ms` before
        script = "wait %d\npress OK\nwait 3000\n" % (handover_ms - before_ms - 60)
        result = SimBoard().run_script(script)
        assert result.state["screen"] == "HomeScreen", before_ms


def test_detents_and_keys_of_one_busy_step_keep_the_order_they_were_made_in(monkeypatch):
    """On the emulated MacroPad a screen change (0.3 s) let a turn and a key meet in one poll:
    the detent came after the key made after it (RIGHT changed the row above), or inside a
    key's press and release (the gestures made DOWN's key and a detent one press). A detent is
    dated by the encoder's reads around it: it goes before a key made later, never inside a
    press, and after a key made before the read that last saw the encoder still."""
    import types

    class Event:
        def __init__(self, key_number=0, pressed=False, timestamp=0):
            self.key_number, self.pressed, self.timestamp = key_number, pressed, timestamp

    queue = []

    class Events:
        def get_into(self, event):
            if not queue:
                return False
            event.key_number, event.pressed, event.timestamp = queue.pop(0)
            return True

    class Keys:
        def __init__(self, pins, **options):
            self.events = Events()

    buttons = _buttons(monkeypatch)
    monkeypatch.setattr(buttons, "keypad", types.SimpleNamespace(Event=Event, Keys=Keys))
    clock = [1000]
    ticks = types.SimpleNamespace(ticks_ms=lambda: clock[0], ticks_diff=ticks_diff)
    monkeypatch.setitem(sys.modules, "adafruit_ticks", ticks)
    dial = types.SimpleNamespace(position=0)
    pad = buttons.Buttons([0, 1], keymap=bytes([keys.DOWN, keys.RIGHT]), encoder=dial)
    gestures, shorts = Gestures(len(keys.NAMES)), []

    def step(ms):
        """A step of the app at `ms`: its keys read, then a frame (the encoder read after)."""
        clock[0] = ms
        event = pad.poll()
        while event is not None:
            if gestures.feed(event.key_number, event.pressed, event.timestamp):
                shorts.append(keys.NAMES[event.key_number])
            event = pad.poll()
        pad.sample()

    step(1000)
    dial.position = 1  # a detent clockwise, then RIGHT, in one busy step
    queue.extend([(1, True, 1060), (1, False, 1120)])
    step(1300)
    assert shorts == ["DOWN", "RIGHT"]
    queue.append((1, True, 1310))  # RIGHT made before the detent: the step's read dates it
    step(1320)
    dial.position = 2
    queue.append((1, False, 1380))
    step(1600)
    assert shorts[2:] == ["RIGHT", "DOWN"]
    queue.append((0, True, 1610))  # DOWN's key pressed and read...
    step(1620)
    dial.position = 3  # ...then a detent clockwise while it is down
    step(1700)
    assert shorts[4:] == []  # the key is still down: the detent waits for its release
    queue.append((0, False, 1750))
    step(1800)
    assert shorts[4:] == ["DOWN", "DOWN"]
    dial.position = 1  # two detents back: UP twice
    step(1900)
    assert shorts[6:] == ["UP", "UP"]
    assert pad.poll() is None and pad.turns == []


def test_back_later_in_the_start_up_is_an_undo_not_the_safe_menu():
    board = game_board()
    result = board.run_script("wait 900\npress BACK\nwait 4000\n")
    assert result.state["screen"] == "GameScreen" and result.state["state"]["act"] == 0


def test_a_busy_step_judges_holds_by_the_keys_own_times():
    board = PureBoard()
    board.script(FREE_4)
    app, now = board.app, board.now
    # a step that took 1.3 s: the press and release wait in the queue with their times
    board.buttons.queue += [Event(keys.RIGHT, True, now + 10), Event(keys.RIGHT, False, now + 1310)]
    app.step(now + 1320)
    assert app.engine.state["sc"][0] == 10 + 10 + 10  # LONG at 500, REPEAT at 900 and 1300
    board.buttons.queue += [
        Event(keys.RIGHT, True, now + 1400),
        Event(keys.RIGHT, False, now + 1450),
    ]
    app.step(now + 2500)
    assert app.engine.state["sc"][0] == 31  # a short press, however late it is read


def test_gestures_come_from_the_timestamps():
    g = Gestures(2)
    assert g.feed(0, True, 100) is None
    assert g.poll(700) == (0, LONG)  # polled with the release's time: the hold is a hold
    assert g.feed(0, False, 700) is None
    g.feed(1, True, WRAP - 100)  # across the tick wrap
    due = [g.poll(1300) for _ in range(4)]  # held 1.4 s: LONG at 0.5 s, REPEAT at 0.9, 1.3
    assert due == [(1, LONG), (1, REPEAT), (1, REPEAT), None]
    assert g.feed(1, False, 1300) is None
    g.feed(0, True, 5)
    assert g.feed(0, False, 504) == SHORT


# ------------------------------------------------------------------ days of uptime
def test_fresh_keeps_a_stored_time_within_measurable_range():
    now = 12_345
    assert since(now, now - 1000) == now - 1000
    old = since(now, (now - (1 << 27) - 5) % WRAP)
    assert ticks_diff(now, old) == 1 << 27
    later = now + 60_000  # refreshed at every step, it stays 2**27 old: never looks ahead
    assert ticks_diff(later, since(later, old)) == 1 << 27


def test_days_of_uptime_still_save_and_back_still_undoes():
    """After 2**28 ms (74.6 h) the stored times of an idle device left ticks_diff's range:
    nothing was saved any more and BACK opened the safe menu instead of undoing."""
    board = PureBoard(now=WRAP - 65_536)  # the board's tick origin
    board.script(FREE_4 + "press RIGHT\nwait 3000\n")
    writes = len(board.writes)
    app = board.app
    for _ in range(80 * 60):  # 80 hours, a step a minute (asleep: nothing to draw)
        board.now = (board.now + 60_000) % WRAP
        app.step(board.now)
    board.script("press RIGHT\npress RIGHT\nwait 3000\n")  # the first wakes the device
    assert len(board.writes) == writes + 1 and app.engine.state["sc"][0] == 2
    board.script("press BACK\nwait 100\n")
    assert app.snapshot()["screen"] == "GameScreen" and app.engine.state["sc"][0] == 1


@pytest.mark.parametrize(
    "uptime_ms",
    [
        (1 << 28) + 65_536 - 8_000,  # 74.6 h on: the ticks pass 2**28 during the game
        (1 << 29) + 65_536 - 8_000,  # 149 h on: they wrap at 2**29 during the game
    ],
)
def test_a_game_across_the_tick_boundaries_after_days_on(uptime_ms):
    """A reload after days on: the ticks are far along (a reload does not reset them)."""
    script = GAME + "hold RIGHT 1000\npress BACK\npress BACK\nhold BACK 600\nwait 3000\n"
    result = SimBoard(uptime_ms=uptime_ms).run_script(script)
    assert result.crashes == [] and result.state["screen"] == "GameScreen"
    state = result.state["state"]
    # LONG +10 and REPEAT +10 are two actions: both undone, then the LONG redone
    assert state["sc"][:2] == [1, 10] and state["act"] == 1
    assert len(result.nvm_writes) >= 2
