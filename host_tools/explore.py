"""``python -m host_tools explore``: walk the UI like someone who does not know the keys.

From a few starts (a new device, each mode's saved game mid-game, at a round end and at the
results, a drive with players.txt, ticks about to wrap), the explorer presses every key, short
and held, breadth-first and in seeded random walks, on the simulated board running the real
firmware. On every screen it reaches it checks that BACK leaves (or undoes), that Home is a few
presses away, that hold OK gives that screen's help, that a power cut or a reload brings back
the same game (and never undoes a confirmed discard or end), that nothing raised, nothing is
clipped, no frame is over the display budget; and the clocks at their edges (32,767 s).

Each walk is one live run of the firmware (``SimBoard.run_live``) in a thread of its own, its
Clock handing control back here whenever the board has settled (nothing scheduled, the frame
drawn): the state is read from ``potager.app.current`` and the next key scheduled. A BFS node's
keys are replayed from its start image only when the walk cannot come back to it cheaply.
Exit 1 when something is found.
"""

import argparse
import ast
import collections
import contextlib
import dataclasses
import io
import json
import queue
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Optional

from host_tools.sim.boards import KEY_NAMES
from host_tools.sim.machine import ERASED_NVM
from host_tools.sim.runner import DEFAULT_FIRMWARE, SimBoard
from host_tools.sim.script import PRESS_MS, RELEASE_MS

REPO = Path(__file__).resolve().parents[1]
MODES = ("free", "diced_tomatoes", "horticolor", "hortis", "arboretum")
ACTIONS = tuple((key, held) for key in KEY_NAMES for held in (False, True))
SHORT_MS = PRESS_MS - RELEASE_MS  # what the script's ``press`` holds a key down
BOOT_PRESS_MS = 100  # within app.BOOT_KEY_MS (600 ms) of the keys' first scan
HOLD_MS = 600  # past gestures.LONG_MS (500 ms), short of its first REPEAT (900 ms)
# Home from any screen: a game screen takes 3 (OK menu, UP to its last item Home, OK); a
# screen opened from the menu (Table & timers, Stats) 2 more to leave it; one more for a
# confirmation or a help over it. More than that and a lost player gives up.
HOME_WITHIN = 6
ASLEEP = 2  # potager.power's state of a dark device (the host tool does not import it)
HOME_KEYS = (("BACK", False), ("OK", False), ("UP", False), ("DOWN", False), ("RIGHT", True))
HOME_SEARCH_REPLAYS = 120
COLS, ROWS = 21, 5  # potager.ui.view's grid (the host tool does not import the firmware)
FULL_FRAME_BYTES = 1037  # the display budget (spec: no frame above a full frame)
SAVE_WAIT_MS = 4000  # saving.py: quiet 1 s, writes 2 s apart: a change is saved by then
SAVE_GIVE_UP_MS = 20_000
CONFIRM_CUT_MS = 200  # a cut this soon after a confirmation: the players' decision must stand
MAX_SECONDS = 32_767  # the longest time an action carries (core.table)
CLOCK_WAITS_S = (0, MAX_SECONDS, MAX_SECONDS + 1, 40_000)
# the ticks wrap at 2**29 ms, 65.536 s after a power-on: this uptime puts the wrap 3 s ahead
WRAP_UPTIME_MS = (1 << 29) + 65_536 - 3000


# ---------------------------------------------------------------------------- the starts
@dataclasses.dataclass(frozen=True)
class Start:
    name: str
    script: str  # the keys from a new device that build its NVM image ("" for a new device)
    drive: Optional[dict[str, str]] = None  # files put on CIRCUITPY beside code.py
    uptime_ms: int = 0
    boot_press: Optional[str] = None  # a key pressed as the device starts (BACK: the safe menu)
    then: tuple[tuple[str, bool], ...] = ()  # keys after each boot: a screen no save keeps


ENGLISH = "wait 300\npress DOWN\npress OK\n"
# whole-game scripts (kept in step with the firmware by tests/test_fullgames.py): the game is
# cut after the first line holding the marker for a round end, at 40 % of it for mid-game
GAMES = {
    "free": ("tests/fullgames/free-6p-tie.txt", "# round 2"),
    "diced_tomatoes": ("tests/fullgames/diced_tomatoes-3p.txt", "# final scoring"),
    "horticolor": ("tests/fullgames/horticolor-3p.txt", "each card left to discard"),
    "hortis": ("tests/fullgames/hortis-live.txt", "the 9th card is done"),
    "arboretum": ("tests/fullgames/arboretum-3p.txt", "# species 8"),
}
PLAYERS_TXT = "# the regular group\nAnna\nBen\nChloé\nDan\nP2\n"


def starts(repo: Path = REPO) -> list[Start]:
    out = [Start("new-device", "")]
    for mode, (path, marker) in GAMES.items():
        index = MODES.index(mode)
        out.append(Start(f"{mode}-4p-start", ENGLISH + "press DOWN\n" * index + "press OK\n" * 2))
        file = repo / path
        if not file.is_file():
            continue
        lines = file.read_text().splitlines()
        commands = [i for i, line in enumerate(lines) if line.partition("#")[0].strip()]
        mid = commands[len(commands) * 2 // 5]
        out.append(Start(f"{mode}-mid", "\n".join(lines[: mid + 1]) + "\n"))
        cut = next((i for i, line in enumerate(lines) if marker in line), None)
        if cut is not None:
            out.append(Start(f"{mode}-round-end", "\n".join(lines[: cut + 1]) + "\n"))
        out.append(Start(f"{mode}-results", "\n".join(lines) + "\n"))
    for index, mode in enumerate(MODES):  # each mode's setup with the names of the drive
        then = (("DOWN", False),) * index + (("OK", False),)
        drive = {"players.txt": PLAYERS_TXT}
        out.append(Start(f"players-txt-{mode}", ENGLISH, drive=drive, then=then))
    out.append(Start("safe-menu", ENGLISH, boot_press="BACK"))
    free_mid = next((s for s in out if s.name == "free-mid"), out[1])
    out.append(Start("ticks-wrap", free_mid.script, uptime_ms=WRAP_UPTIME_MS))
    return out


def build_image(start: Start, firmware: Path, drive: Optional[Path]) -> bytes:
    if not start.script:
        return ERASED_NVM
    # whatever the script changed is saved before the image is taken (keys pressed during
    # the ~3.5 s boot are acted on after it)
    board = SimBoard(firmware, drive=drive, uptime_ms=start.uptime_ms)
    result = board.run_script(start.script + f"wait {SAVE_WAIT_MS + 4000}\n")
    return result.nvm


# ---------------------------------------------------------------------------- findings
@dataclasses.dataclass
class Finding:
    check: str  # back, home, help, cut, reload, confirm, crash, error-screen, clip, budget...
    screen: str
    what: str
    start: str
    script: str  # the keys from the start image that show it
    detail: str = ""

    def key(self) -> tuple[str, str, str]:
        return (self.check, self.screen, self.what)


# ---------------------------------------------------------------------------- the device
class Ended(Exception):
    """The firmware's run ended (or hung) while a command was waiting for it."""


class Device:
    """One live run of the firmware, in its own thread, stepped from the caller's thread.

    It is also the run's Clock: ``wait_until`` (the firmware thread, at each of its sleeps)
    lets virtual time pass until the command under way is done, then hands control back and
    waits for the next command. Between commands the firmware is asleep, so the caller may
    read ``potager.app.current`` freely."""

    def __init__(
        self,
        firmware: Path,
        nvm: bytes,
        *,
        drive: Optional[Path] = None,
        uptime_ms: int = 0,
        console: bool = False,
        boot_press: Optional[str] = None,
    ) -> None:
        # console: no watchdog (as with a terminal open), so that a long wait is one leap
        self.board = SimBoard(firmware, nvm=nvm, drive=drive, uptime_ms=uptime_ms, console=console)
        self._commands: queue.Queue[Callable[[], None]] = queue.Queue()
        self._idle: queue.Queue[Optional[BaseException]] = queue.Queue()
        self._done: Optional[Callable[[], bool]] = None
        self._jump_to: Optional[int] = None  # a long wait: time may leap to here
        self._quitting = False
        self._last_key_us = 0
        self.log: list[tuple[int, str, int]] = []  # (t_ms, script command, its length ms)
        self.frames_seen = 0
        self.boots = [0]  # when the board booted, each first frame not yet seen
        self._boot_keys: list[tuple[int, int, int]] = []
        if boot_press is not None:  # pressed as the keys are first scanned (the safe menu's)
            self._boot_keys.append((BOOT_PRESS_MS, KEY_NAMES.index(boot_press), SHORT_MS))
            self.log.append((BOOT_PRESS_MS, f"press {boot_press}", PRESS_MS))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._wait_idle()  # the board boots: the first command waits for its first frame
        self._command(lambda: None, self._settled)

    # --- the firmware's side ---
    def _run(self) -> None:
        try:
            self.board.run_live(self, self._boot_keys)
            self._idle.put(Ended("the run ended"))
        except BaseException as exc:  # handed to the caller's thread
            self._idle.put(exc)

    def wait_until(self, board: SimBoard, at_us: Optional[int]) -> None:
        machine = board.machine
        while True:
            done = self._done
            if done is not None and not done():
                jump = self._jump_to
                if at_us is None:  # the board is off: what the command scheduled, or the wait
                    at_us = machine.next_event_us() or jump
                if at_us is None:  # off, nothing scheduled: nothing can happen any more
                    self._done = None
                    continue
                target = at_us
                if jump is not None and machine.next_event_us() is None:
                    deadline = machine.watchdog.deadline_us  # fed at each step: never leapt over
                    if deadline is not None:  # (a second short: the step itself takes time)
                        jump = min(jump, deadline - 1_000_000)
                    target = max(at_us, jump)
                machine.now_us = max(machine.now_us, target)
                return
            self._done = self._jump_to = None
            self._idle.put(None)
            command = self._commands.get()
            command()
            if self._quitting:
                return

    def _settled(self) -> bool:
        machine = self.board.machine
        if not machine.live:
            return not machine.boot_pending and machine.next_event_us() is None
        if machine.next_event_us() is not None or machine.now_us < self._last_key_us + 60_000:
            return False
        app = self.app
        if app is None or True in app.gestures.is_down:
            return False
        if app.dirty and app.power.state != ASLEEP:  # (asleep, nothing is drawn)
            return False
        return getattr(app, "blind", None) is None  # (keys typed before the game shows: dropped)

    # --- the caller's side ---
    def _wait_idle(self) -> None:
        try:
            problem = self._idle.get(timeout=300)
        except queue.Empty:
            raise Ended("the firmware hung") from None
        if problem is not None:
            raise problem if isinstance(problem, Ended) else Ended(repr(problem))

    def _command(self, action: Callable[[], None], done: Callable[[], bool]) -> None:
        def run() -> None:
            self._done = done
            action()

        self._commands.put(run)
        self._wait_idle()

    @property
    def now_ms(self) -> int:
        return self.board.machine.now_ms

    @property
    def app(self) -> Any:
        return getattr(sys.modules.get("potager.app"), "current", None)

    def press(self, key: str, held: bool = False) -> None:
        if self.app is not None and self.app.power.state == ASLEEP:  # the key only wakes it
            self._press(key, SHORT_MS)
        self._press(key, HOLD_MS if held else SHORT_MS)

    def _press(self, key: str, ms: int) -> None:
        number = KEY_NAMES.index(key)
        line = f"hold {key} {ms}" if ms != SHORT_MS else f"press {key}"
        self.log.append((self.now_ms, line, ms + RELEASE_MS))

        def action() -> None:
            self._last_key_us = self.board.machine.now_us + ms * 1000
            self.board.press(number, ms)

        self._command(action, self._settled)

    def wait(self, ms: int) -> None:
        self.log.append((self.now_ms, f"wait {ms}", ms))
        end_us = self.board.machine.now_us + ms * 1000

        def action() -> None:
            self._jump_to = end_us

        self._command(action, lambda: self.board.machine.now_us >= end_us and self._settled())

    def wait_saved(self) -> bool:
        """Until the app has nothing unsaved (False if it never gets there)."""
        start = self.now_ms
        self.wait(SAVE_WAIT_MS)
        while self.app is not None and self.app.saving.unsaved:
            if self.now_ms - start > SAVE_GIVE_UP_MS:
                return False
            self.wait(500)
        return True

    def cut(self) -> None:
        self.log.append((self.now_ms, "power-cut", 0))
        self._command(self.board.toggle_power, self._settled)

    def boot(self) -> None:
        self.boots.append(self.now_ms)
        self.log.append((self.now_ms, "boot", 0))
        self._command(self.board.toggle_power, self._settled)

    def reload(self) -> None:
        self.boots.append(self.now_ms)
        self.log.append((self.now_ms, "reload", 0))
        self._command(self.board.reload, self._settled)

    def close(self) -> None:
        if not self._thread.is_alive():
            return

        def stop() -> None:
            self._quitting = True
            self.board.quit()

        self._commands.put(stop)
        self._thread.join(timeout=60)

    def script(self) -> str:
        """The commands so far as a board script, timed as they were."""
        out, at = [], 0
        for t_ms, line, length in self.log:
            if t_ms > at:
                out.append(f"wait {t_ms - at}")
            out.append(line)
            at = max(at, t_ms) + length
        return "\n".join(out) + "\n"

    # --- what it shows ---
    def stack(self) -> tuple[str, ...]:
        app = self.app
        return tuple(screen_name(s) for s in app.stack) if app is not None else ("(off)",)

    def mode(self) -> Optional[str]:
        app = self.app
        if app is None:
            return None
        for screen in reversed(app.stack):  # a setup is of its mode before any game is
            if isinstance(getattr(screen, "mode", None), str):
                return str(screen.mode)
        return app.mode

    def snapshot(self) -> Optional[dict[str, Any]]:
        app = self.app
        if app is None:
            return None
        snap = app.snapshot()
        # (not the redo list: RAM only, what was undone stays undone after a cut, as documented)
        return {key: snap[key] for key in ("mode", "state", "undo")}

    def lasting(self) -> Optional[dict[str, Any]]:
        """What a power cut must keep, games aside: the history, the records, the settings."""
        app = self.app
        if app is None:
            return None
        # (not the checksum of players.txt: saved when the next game starts, by design)
        records = {k: v for k, v in app.records.items() if k != "players.txt"}
        return json.loads(
            json.dumps(
                {
                    "history": app.history,
                    "records": records,
                    "settings": app.power.settings,
                    "language": app.language,
                }
            )
        )

    def node(self) -> tuple[Any, ...]:
        app = self.app
        cursor = getattr(app.screen(), "cursor", None) if app is not None else None
        return (self.stack(), self.mode(), cursor if isinstance(cursor, int) else None)


def screen_name(screen: Any) -> str:
    return f"{type(screen).__module__.rpartition('.')[2]}.{type(screen).__name__}"


def action_name(action: tuple[str, bool]) -> str:
    return f"hold {action[0]}" if action[1] else action[0]


# ---------------------------------------------------------------------------- the checks
class Explorer:
    def __init__(self, firmware: Path, *, seed: int, budget: int, walk_steps: int) -> None:
        self.firmware = firmware
        self.rng = random.Random(seed)
        self.budget = budget  # key presses per start for the BFS
        self.walk_steps = walk_steps
        self.findings: dict[tuple[str, str, str], Finding] = {}
        self.visited: set[tuple[str, Optional[str]]] = set()
        self.edges: dict[tuple[Any, ...], set[tuple[Any, ...]]] = collections.defaultdict(set)
        self.paths: dict[tuple[Any, ...], tuple[str, list[tuple[str, bool]]]] = {}
        self.presses = 0
        self.replays = 0
        self.images: dict[str, bytes] = {}
        self._drives: list[tempfile.TemporaryDirectory[str]] = []
        self.start: Start = Start("", "")
        self._path_now: list[tuple[str, bool]] = []  # the keys of the replay under way
        self._confirming = False  # (a confirmation's own replays do not check it again)
        self.pending: list[tuple[list[tuple[str, bool]], str]] = []  # confirmations to probe

    # --- runs ---
    def drive_for(self, start: Start) -> Optional[Path]:
        if not start.drive:
            return None
        folder = tempfile.TemporaryDirectory(prefix="potager-explore-drive-")
        self._drives.append(folder)
        for name, text in start.drive.items():
            (Path(folder.name) / name).write_text(text)
        return Path(folder.name)

    def device(self, start: Start, console: bool = False) -> Device:
        drive = self.drive_for(start)
        if start.name not in self.images:
            self.images[start.name] = build_image(start, self.firmware, drive)
        image = self.images[start.name]
        dev = Device(
            self.firmware,
            image,
            drive=drive,
            uptime_ms=start.uptime_ms,
            console=console,
            boot_press=start.boot_press,
        )
        for key, held in start.then:
            dev.press(key, held)
        self.observe(dev, "boot")
        return dev

    def replay(self, start: Start, path: Sequence[tuple[str, bool]]) -> Device:
        self.replays += 1
        dev = self.device(start)
        for action in path:
            self.act(dev, action)
        return dev

    def report(self, dev: Device, check: str, what: str, detail: str = "") -> None:
        screen = dev.stack()[-1] if dev.app is not None else "(off)"
        finding = Finding(check, screen, what, self.start.name, dev.script(), detail)
        self.findings.setdefault(finding.key(), finding)

    # --- after every key ---
    def act(self, dev: Device, action: tuple[str, bool]) -> None:
        before = self.context(dev)
        dev.press(*action)
        self.presses += 1
        self.observe(dev, action_name(action))
        self.check_key(dev, action, before)

    def context(self, dev: Device) -> dict[str, Any]:
        app = dev.app
        top = app.screen() if app is not None else None
        return {
            "top": top,
            "name": dev.stack()[-1],
            "stack": dev.stack(),
            "snapshot": dev.snapshot(),
            "help": tuple(getattr(top, "HELP", ())),
            "question": getattr(top, "question", None),
            "depth": len(app.stack) if app is not None else 0,
            "ids": {id(s) for s in app.stack} if app is not None else set(),
        }

    def observe(self, dev: Device, after: str) -> None:
        """What every screen must hold: no traceback, no error screen, nothing clipped, frames
        within the display budget; and it counts for the coverage."""
        machine = dev.board.machine
        for crash in machine.crashes:
            kind = "caught" if crash.caught else "uncaught"
            last = crash.traceback.strip().splitlines()[-1]
            self.report(dev, "crash", f"{kind} exception after {after}: {last}", crash.traceback)
        machine.crashes.clear()
        app = dev.app
        frames = dev.board._frames  # (the runner's record of the frames, one per change)
        for frame in frames[dev.frames_seen :]:
            whole = frame["i2c_bytes"] >= FULL_FRAME_BYTES
            if dev.boots and frame["t_ms"] >= dev.boots[0] and whole:
                dev.boots.pop(0)  # a boot's first whole frame: the display's set-up goes with it
                continue
            if frame["i2c_bytes"] > FULL_FRAME_BYTES:
                what = f"a frame of {frame['i2c_bytes']} bytes (budget {FULL_FRAME_BYTES})"
                self.report(dev, "budget", what, "\n".join(frame["screen"]))
        dev.frames_seen = len(frames)
        if app is None:
            return
        name = dev.stack()[-1]
        self.visited.add((name, dev.mode()))
        if name == "screens.ErrorScreen":
            self.report(dev, "error-screen", f"an error screen ({app.screen().code}) after {after}")
        rows = [str(row) for row in app.screen_rows]
        if len(rows) != ROWS or any(len(row) > COLS for row in rows):
            self.report(dev, "clip", f"rows past the {ROWS}x{COLS} grid", "\n".join(rows))
        self.check_players_shown(dev, rows)

    def check_players_shown(self, dev: Device, rows: list[str]) -> None:
        # a game screen that lists players by their tags lists them all (a message aside)
        app = dev.app
        if app.engine is None or len(app.stack) != 1 or app.message is not None:
            return
        state = app.engine.state
        tags = [player_tag(state, p) for p in range(state["n"])]
        shown = [tag for tag in tags if any(tag in row for row in rows[1:])]
        # (more players than the 4 rows below the header hold two a row, or scroll)
        if 2 <= len(shown) < len(tags) <= ROWS - 1:
            missing = ", ".join(tag for tag in tags if tag not in shown)
            self.report(
                dev, "players", f"{len(tags)} players, {missing} not shown", "\n".join(rows)
            )

    def check_key(self, dev: Device, action: tuple[str, bool], before: dict[str, Any]) -> None:
        app = dev.app
        if app is None:
            return
        after = self.context(dev)
        key, held = action
        name = before["name"]
        # a key tester (the self-test) takes every key as input: its way out is hold BACK, as
        # its bottom row and its help say, and hold OK is one more key to test
        tester = getattr(before["top"], "RAW_KEYS", False)
        if key == "BACK" and held == tester:
            left = after["top"] is not before["top"] or after["depth"] != before["depth"]
            undid = after["snapshot"] != before["snapshot"]
            # the game screen at the bottom: BACK undoes, "nothing to undo" is its answer
            game_root = before["depth"] == 1 and hasattr(before["top"], "selection")
            root = before["stack"] in (
                ("screens.HomeScreen",),
                ("screens.HomeScreen", "screens.LanguageScreen"),
            )
            if not (left or undid or game_root or root):
                self.report(dev, "back", "BACK does nothing: neither leaves nor undoes")
        if key == "OK" and held and name != "screens.ErrorScreen" and not tester:
            top = after["top"]
            wanted = tuple(getattr(before["top"], "HELP", ()))  # (some pick it on the key)
            if screen_name(top) != "menu.HelpScreen" or tuple(top.entries) != wanted:
                self.report(dev, "help", "hold OK does not give this screen's help")
            elif not wanted:
                self.report(dev, "help", "the help of this screen lists nothing")
        confirmed = screen_name(before["top"]) == "screens.ConfirmScreen"
        opened = after["top"] is not before["top"]
        # probed on replays once this run is over (one run at a time)
        if key == "OK" and not held and confirmed and opened and not self._confirming:
            self.pending.append((list(self._path_now), before["question"]))
        if id(after["top"]) not in before["ids"]:  # a screen just opened
            self.check_opens_at_top(dev, after["top"])

    def check_opens_at_top(self, dev: Device, top: Any) -> None:
        # a list opens showing its first rows: its title, its first items (the cursor may sit
        # lower, but not scrolled out of the opening view)
        cursor = getattr(top, "cursor", None)
        if isinstance(cursor, int) and cursor > ROWS - 2 and hasattr(top, "items"):
            self.report(
                dev,
                "opens-scrolled",
                f"opens scrolled to item {cursor}: its first rows out of view",
            )

    def run_pending(self) -> None:
        while self.pending:
            path, question = self.pending.pop(0)
            self.check_confirmed(path, question)

    def check_confirmed(self, path: list[tuple[str, bool]], question: str) -> None:
        """A confirmed decision stands: a power cut soon after, or a reload, neither undoes nor
        repeats it (the confirming keys replayed, then the cut)."""
        self._confirming = True
        try:
            for how in ("cut", "reload"):
                probe = self.replay(self.start, path)
                try:
                    self.probe_confirmed(probe, how, question)
                finally:
                    probe.close()
        finally:
            self._confirming = False

    def probe_confirmed(self, probe: Device, how: str, question: str) -> None:
        """What the confirmation did (a game dropped, filed or moved on to its scoring, a
        wipe) stands after a cut or a reload CONFIRM_CUT_MS later: the same game, the same
        history, once."""
        if probe.app is None:
            return
        probe.wait(CONFIRM_CUT_MS)  # (what the screens do a step or two after the OK)
        expected, lasting = probe.snapshot(), probe.lasting()
        self.interrupt(probe, how)
        if probe.app is None:
            return
        after = probe.snapshot()
        if expected is not None and after is not None and after != expected:
            diff = describe_difference(expected, after)
            self.report(probe, "confirm", f"a {how} after confirming {question} undoes it: {diff}")
        now = probe.lasting()
        if lasting is not None and now is not None and now["history"] != lasting["history"]:
            self.report(
                probe, "confirm", f"a {how} after confirming {question} changes the history"
            )

    def interrupt(self, dev: Device, how: str) -> Optional[str]:
        if how == "cut":
            dev.cut()
            dev.wait(500)
            dev.boot()
        else:
            dev.reload()
        self.observe(dev, how)
        return dev.mode()

    def check_survives(self, start: Start, path: list[tuple[str, bool]]) -> None:
        """A power cut, and a reload, on this screen bring back the same game once saved."""
        for how in ("cut", "reload"):
            dev = self.replay(start, path)
            try:
                if not dev.wait_saved():
                    self.report(dev, how, "the save never comes (still unsaved after 20 s)")
                before = dev.snapshot()
                before_lasting = dev.lasting()
                self.interrupt(dev, how)
                after = dev.snapshot()
                if before is not None and after is not None and after != before:
                    diff = describe_difference(before, after)
                    self.report(
                        dev, how, f"a {how} once saved does not bring back the same game: {diff}"
                    )
                lasting = dev.lasting()
                if before_lasting is not None and lasting != before_lasting:
                    self.report(
                        dev, how, f"a {how} once saved changes the history, records or settings"
                    )
            finally:
                dev.close()

    # --- the walks ---
    def bfs(self, start: Start) -> None:
        self.start = start
        root = self.device(start)
        first = root.node()
        root.close()
        frontier: collections.deque[tuple[Any, list[tuple[str, bool]]]] = collections.deque(
            [(first, [])]
        )
        self.paths.setdefault(first, (start.name, []))
        seen = {first}
        spent = 0
        while frontier and spent < self.budget:
            node, path = frontier.popleft()
            self._path_now = list(path)
            self.check_survives(start, path)
            opened = self.replay(start, path)
            node = opened.node()  # (the same keys may lead elsewhere, by timing: on from there)
            moves: list[tuple[tuple[str, bool], ...]] = [(action,) for action in ACTIONS]
            self.rng.shuffle(moves)
            moves += self.choices(opened)  # then each item of a list, as a reader tries them
            dev: Optional[Device] = opened
            for move in moves:
                if dev is None:
                    dev = self.replay(start, path)
                here = dev.snapshot(), dev.node()
                for action in move:
                    self._path_now = [*self._path_now, action]
                    self.act(dev, action)
                self._path_now = list(path)
                spent += len(move)
                child = dev.node()
                self.edges[node].add(child)
                if child not in seen:
                    seen.add(child)
                    self.paths.setdefault(child, (start.name, [*path, *move]))
                    frontier.append((child, [*path, *move]))
                if (dev.snapshot(), dev.node()) == here:
                    continue  # nothing moved: the next key from the same place
                if len(move) == 1 and self.come_back(dev, move[0], here):
                    continue
                dev.close()
                dev = None
                self.run_pending()
            if dev is not None:
                dev.close()
            self.run_pending()

    def choices(self, dev: Device) -> list[tuple[tuple[str, bool], ...]]:
        """On a list (a menu, a form of lines): each item chosen, the cursor moved onto it
        the short way round, then OK."""
        app = dev.app
        top = app.screen() if app is not None else None
        cursor = getattr(top, "cursor", None)
        listed = getattr(top, "items", None) or getattr(top, "lines", None)
        if not isinstance(cursor, int) or listed is None:
            return []
        try:
            count = len(listed(app))
        except Exception:  # (a screen whose items need more than the app: not a list)
            return []
        out = []
        for i in range(count):
            down = (i - cursor) % count
            up = count - down
            way = [("DOWN", False)] * down if down <= up else [("UP", False)] * up
            if way:  # (OK where the cursor is: one of the single keys already)
                out.append((*way, ("OK", False)))
        return out

    def come_back(self, dev: Device, action: tuple[str, bool], here: tuple[Any, Any]) -> bool:
        """Back to where the key was pressed without a replay: the opposite move of a cursor,
        BACK from a screen it opened."""
        opposite = {"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}
        key, held = action
        snapshot, node = here
        if held or dev.app is None:
            return False
        if key in opposite and dev.snapshot() == snapshot:
            back = (opposite[key], False)
        elif len(dev.stack()) == len(node[0]) + 1 and dev.snapshot() == snapshot:
            back = ("BACK", False)
        else:
            return False
        self.act(dev, back)
        return (dev.snapshot(), dev.node()) == here

    def walk(self, start: Start, steps: int) -> None:
        """A random walk in one live run, with the odd long wait, power cut or reload."""
        self.start = start
        dev = self.device(start)
        weights = [3 if not held else 1 for _, held in ACTIONS]
        try:
            for _ in range(steps):
                roll = self.rng.random()
                if roll < 0.01:
                    self.interrupt(dev, self.rng.choice(["cut", "reload"]))
                elif roll < 0.02:
                    dev.wait(self.rng.choice([3000, 60_000, 600_000]))
                    self.observe(dev, "a wait")
                else:
                    self.act(dev, self.rng.choices(ACTIONS, weights)[0])
                    while self.pending:  # a confirmation: cut or reload right after it
                        _, question = self.pending.pop()
                        self.probe_confirmed(dev, self.rng.choice(["cut", "reload"]), question)
        finally:
            dev.close()

    def clock_edges(self, start: Start) -> None:
        """Turns, passes, skips and pauses after 0 s, 32,767 s and longer, with and without a
        time bank: what goes through after 0 s must go through after any wait (what a mode
        refuses at 0 s, e.g. a solo TURN, is its rule, not a clock's edge)."""
        self.start = start
        for item in ("TURN", "pass", "skip", "pause"):
            for timer in (None, "tb"):
                through = None  # after 0 s (CLOCK_WAITS_S[0])
                for wait_s in CLOCK_WAITS_S:
                    dev = self.device(start, console=True)  # hours in one leap
                    try:
                        went = self.clock_edge(dev, wait_s, item, timer, through is True)
                    finally:
                        dev.close()
                    if through is None:
                        through = went
                    if not through:
                        break

    def clock_edge(
        self, dev: Device, wait_s: int, item: str, timer: Optional[str], expected: bool
    ) -> Optional[bool]:
        """Whether `item` went through on a turn of wait_s (None: not offered here); when it
        is `expected` to and does not, a finding."""
        app = dev.app
        if app is None or app.engine is None or len(app.stack) != 1:
            return None
        if not getattr(app.engine.rules, "TURNS", 1):
            return None
        if timer is not None and not self.set_table(dev, 4, 1):  # 4: the bank, 5 min
            return None
        # the turn is wait_s long when the key comes (it has run since the game started)
        dev.wait(max(0, wait_s * 1000 - app.clock.turn_ms(app.now) - SHORT_MS))
        self.observe(dev, f"a wait of {wait_s} s")
        before = dev.snapshot()
        paused = dev.app.clock.paused if dev.app is not None else False
        if item == "TURN":
            self.act(dev, ("TURN", False))
        elif not self.menu_item(dev, item):
            return None
        after = dev.snapshot()
        app = dev.app
        if app is None or before is None or after is None:
            return None
        what = f"{item} on a turn of {wait_s} s" + (" with a bank" if timer else "")
        if item == "pause":
            went = app.clock.paused != paused
        else:
            went = after["undo"] != before["undo"]
        if expected and not went:
            message = app.message or ""
            self.report(dev, "clock", f"{what} is refused, as it is not after 0 s: {message!r}")
        return went

    def menu_item(self, dev: Device, item: str) -> bool:
        """Open the game menu and choose `item` by its name; False if the menu lacks it."""
        self.act(dev, ("OK", False))
        app = dev.app
        entries = getattr(app.screen(), "entries", None) if app is not None else None
        if not isinstance(entries, list) or item not in entries:
            if app is not None and len(app.stack) > 1:
                self.act(dev, ("BACK", False))
            return False
        for _ in range(entries.index(item) - app.screen().cursor):
            self.act(dev, ("DOWN", False))
        self.act(dev, ("OK", False))
        return True

    def set_table(self, dev: Device, row: int, steps: int) -> bool:
        """Table & timers: `steps` RIGHT on setting `row`, then back to the game."""
        if not self.menu_item(dev, "table"):
            return False
        for _ in range(row):
            self.act(dev, ("DOWN", False))
        for _ in range(steps):
            self.act(dev, ("RIGHT", False))
        self.act(dev, ("BACK", False))
        self.act(dev, ("BACK", False))
        return dev.app is not None and len(dev.app.stack) == 1

    # --- after the walks ---
    def check_home(self) -> None:
        """Home within HOME_WITHIN presses of every screen seen (over the keys tried)."""
        home = {
            node
            for node in set(self.edges) | {c for cs in self.edges.values() for c in cs}
            if node[0][-1] == "screens.HomeScreen"
        }
        reverse: dict[Any, set[Any]] = collections.defaultdict(set)
        for node, children in self.edges.items():
            for child in children:
                reverse[child].add(node)
        distance = {node: 0 for node in home}
        frontier = collections.deque(home)
        while frontier:
            node = frontier.popleft()
            for parent in reverse[node]:
                if parent not in distance:
                    distance[parent] = distance[node] + 1
                    frontier.append(parent)
        by_name = {start.name: start for start in starts()}
        for node in self.edges:  # the nodes whose every key was tried
            if distance.get(node, HOME_WITHIN + 1) <= HOME_WITHIN:
                continue
            # not seen in the keys tried: the way a player would look for it, on a replay
            start_name, path = self.paths.get(node, ("?", []))
            if start_name not in by_name:
                continue
            self.start = by_name[start_name]
            dev = self.replay(self.start, path)
            try:
                found = self.go_home(dev) <= HOME_WITHIN
            finally:
                dev.close()
            if not found and not self.search_home(path):
                dev = self.replay(self.start, path)
                self.report(dev, "home", f"Home not within {HOME_WITHIN} presses")
                dev.close()

    def search_home(self, path: list[tuple[str, bool]]) -> bool:
        """Breadth-first over the keys a lost player tries, HOME_WITHIN deep, a replay a step."""
        frontier: collections.deque[list[tuple[str, bool]]] = collections.deque([[]])
        seen = set()
        for _ in range(HOME_SEARCH_REPLAYS):
            if not frontier:
                return False
            tail = frontier.popleft()
            dev = self.replay(self.start, [*path, *tail])
            try:
                if dev.stack()[-1] == "screens.HomeScreen":
                    return True
                if dev.node() in seen or len(tail) >= HOME_WITHIN:
                    continue
                seen.add(dev.node())
            finally:
                dev.close()
            frontier.extend([*tail, action] for action in HOME_KEYS)
        return True  # not settled within the search's budget: no finding

    def go_home(self, dev: Device) -> int:
        """Presses to Home the obvious way: BACK out of what was opened, the game menu's Home
        from the game screen; more than HOME_WITHIN when that does not get there."""
        presses = 0
        while presses <= HOME_WITHIN and dev.app is not None:
            app = dev.app
            top = app.screen()
            if screen_name(top) == "screens.HomeScreen":
                return presses
            entries = getattr(top, "entries", None)
            if isinstance(entries, list) and "home" in entries:  # the game menu: to its Home
                up = (top.cursor - entries.index("home")) % len(entries)
                down = len(entries) - up
                for _ in range(min(up, down)):
                    self.act(dev, ("UP" if up <= down else "DOWN", False))
                self.act(dev, ("OK", False))
                presses += min(up, down) + 1
            elif getattr(top, "RAW_KEYS", False):  # a key tester: hold BACK leaves it
                self.act(dev, ("BACK", True))
                presses += 1
            elif len(app.stack) == 1 and hasattr(top, "selection"):  # the game: its menu
                self.act(dev, ("OK", False))
                presses += 1
            else:
                self.act(dev, ("BACK", False))
                presses += 1
        return HOME_WITHIN + 1


def script_of(path: Sequence[tuple[str, bool]]) -> str:
    lines = [f"hold {key} {HOLD_MS}" if held else f"press {key}" for key, held in path]
    return "\n".join(lines) + "\n"


def player_tag(state: dict[str, Any], player: int) -> str:
    # potager.ui.view.player_tag at its width of 3: the symbol and two letters
    symbols = "♥●♣▲◆■○♦"
    names = state.get("names")
    found = (names[player] if names else "") or "P" + str(player + 1)
    return symbols[state["col"][player]] + found[:2]


def describe_difference(before: dict[str, Any], after: dict[str, Any]) -> str:
    parts = []
    for key in ("mode", "undo"):
        if before[key] != after[key]:
            parts.append(f"{key} {before[key]!r} -> {after[key]!r}")
    if before["state"] != after["state"] and before["mode"] == after["mode"]:
        fields = sorted(
            k
            for k in set(before["state"] or {}) | set(after["state"] or {})
            if (before["state"] or {}).get(k) != (after["state"] or {}).get(k)
        )
        parts.append("state fields " + ", ".join(fields))
    return "; ".join(parts) or "?"


# ---------------------------------------------------------------------------- coverage
def screens_that_exist(firmware: Path) -> dict[str, tuple[Optional[str], ...]]:
    """Every Screen subclass in potager/ui (found with ast), and the modes it applies to."""
    ui = firmware / "potager" / "ui"
    bases: dict[str, list[str]] = {}
    for file in sorted(ui.glob("*.py")):
        module = file.stem
        tree = ast.parse(file.read_text())
        imported: dict[str, str] = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    source = node.module.rpartition(".")[2]
                    if node.module == "potager.ui":  # a module: `table.GameScreen`
                        imported[alias.asname or alias.name] = alias.name
                    else:
                        imported[alias.asname or alias.name] = f"{source}.{alias.name}"
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found = []
                for base in node.bases:
                    if isinstance(base, ast.Name):
                        found.append(imported.get(base.id, f"{module}.{base.id}"))
                    elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
                        found.append(f"{imported.get(base.value.id, base.value.id)}.{base.attr}")
                bases[f"{module}.{node.name}"] = found

    def is_screen(name: str) -> bool:
        return name == "screens.Screen" or any(is_screen(b) for b in bases.get(name, ()))

    abstract = {
        "screens.Screen",
        "screens.ListScreen",
        "table.GameScreen",
        "table_settings.SettingsScreen",
    }
    out: dict[str, tuple[Optional[str], ...]] = {}
    for name in bases:
        if name in abstract or name in AFTER_A_FAULT or not is_screen(name):
            continue
        out[name] = modes_of(name, firmware)
    return out


IN_GAME = {
    "menu.MenuScreen",
    "table_settings.TableScreen",
    "stats.StatsScreen",
    "setup.SetupScreen",
    "setup_names.Form",
    "setup_names.ErrorScreen",
}
ANYWHERE = {"menu.HelpScreen", "screens.ConfirmScreen"}  # in a game and out of one
# shown only after an exception (no key leads there): the crash check's, not the coverage's
AFTER_A_FAULT = {"screens.ErrorScreen"}


def modes_of(name: str, firmware: Path) -> tuple[Optional[str], ...]:
    module = name.partition(".")[0]
    for mode in MODES:
        if module == mode or module.startswith(mode + "_"):
            return (mode,)
    if name == "stats.StatsScreen":  # not offered where nobody takes turns
        return tuple(
            m
            for m in MODES
            if "TURNS = 0" not in (firmware / "potager/core/games" / f"{m}.py").read_text()
        )
    if name == "menu.MenuScreen":  # a mode with a menu of its own (<mode>_menu) shows that
        return tuple(m for m in MODES if not (firmware / "potager/ui" / f"{m}_menu.py").is_file())
    if name in IN_GAME:
        return MODES
    if name in ANYWHERE:
        return (None, *MODES)
    return (None,)


def coverage(
    visited: set[tuple[str, Optional[str]]], exist: dict[str, tuple[Optional[str], ...]]
) -> tuple[int, int, list[str]]:
    wanted = [(name, mode) for name, modes in exist.items() for mode in modes]
    seen = {(name, mode if mode in exist.get(name, ()) else None) for name, mode in visited}
    missing = [f"{name} [{mode or 'no game'}]" for name, mode in wanted if (name, mode) not in seen]
    return len(wanted) - len(missing), len(wanted), missing


# ---------------------------------------------------------------------------- the command
def explore(
    firmware: Path = DEFAULT_FIRMWARE,
    *,
    seed: int = 1,
    budget: int = 300,
    walk_steps: int = 300,
    only: Sequence[str] = (),
    clocks: bool = True,
    progress: Optional[Callable[[str], None]] = None,
) -> dict[str, Any]:
    began = time.process_time()
    explorer = Explorer(Path(firmware), seed=seed, budget=budget, walk_steps=walk_steps)
    chosen = [s for s in starts() if not only or any(s.name.startswith(o) for o in only)]
    for start in chosen:
        if progress:
            progress(f"{start.name}: bfs")
        explorer.bfs(start)
        if walk_steps:
            explorer.walk(start, walk_steps)
        if clocks and (start.name.endswith("-start") or start.name == "ticks-wrap"):
            explorer.clock_edges(start)
    explorer.check_home()
    exist = screens_that_exist(Path(firmware))
    covered, total, missing = coverage(explorer.visited, exist)
    return {
        "starts": [s.name for s in chosen],
        "findings": [dataclasses.asdict(f) for f in explorer.findings.values()],
        "coverage": {"visited": covered, "total": total, "unvisited": missing},
        "presses": explorer.presses,
        "replays": explorer.replays,
        "cpu_s": round(time.process_time() - began, 1),
    }


def human(report: dict[str, Any]) -> Iterator[str]:
    cov = report["coverage"]
    yield f"starts: {', '.join(report['starts'])}"
    yield f"{report['presses']} key presses, {report['replays']} replays, {report['cpu_s']} s CPU"
    yield f"coverage: {cov['visited']}/{cov['total']} screens (screen x mode) visited"
    for name in cov["unvisited"]:
        yield f"  not visited: {name}"
    yield f"{len(report['findings'])} finding(s)"
    for f in report["findings"]:
        yield ""
        yield f"[{f['check']}] {f['screen']}: {f['what']}  (start {f['start']})"
        for line in f["detail"].strip().splitlines()[-6:]:
            yield f"    | {line}"
        yield "    keys from the start:"
        for line in f["script"].strip().splitlines()[-30:]:
            yield f"      {line}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m host_tools explore", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--firmware", type=Path, default=DEFAULT_FIRMWARE)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=300, help="BFS key presses per start")
    parser.add_argument("--steps", type=int, default=300, help="random-walk presses per start")
    parser.add_argument(
        "--start", action="append", default=[], help="only the starts named so (prefix; repeatable)"
    )
    parser.add_argument("--no-clocks", action="store_true", help="skip the clock edges")
    parser.add_argument("--list-starts", action="store_true")
    parser.add_argument("--json", action="store_true", help="the report as JSON")
    args = parser.parse_args(argv)
    if args.list_starts:
        for start in starts():
            print(start.name)
        return 0
    # what the firmware prints (an export's lines) goes to its serial console, not the report
    with contextlib.redirect_stdout(io.StringIO()):
        report = explore(
            args.firmware,
            seed=args.seed,
            budget=args.budget,
            walk_steps=args.steps,
            only=args.start,
            clocks=not args.no_clocks,
            progress=None if args.json else lambda text: print(text, file=sys.stderr, flush=True),
        )
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        for line in human(report):
            print(line)
    return 1 if report["findings"] else 0
