"""The budgets measured on the emulated Pico (CircuitPython 10.2.1, ``.mpy`` and ``.py``),
each beside the simulator's figure for the same session (``make bench`` calls this).

Per demo session (``docs/scripts/``, with a wait for the board to boot, as in the tests):
- heap: the lowest ``gc.mem_free()`` after ``gc.collect()``, sampled every 500 ms in the loop's
  idle moments by a probe ahead of ``code.py`` (``board.heap_probe_files``);
- boot: power-on to the last byte of the first frame with text (a new drive: its first
  boot, which writes boot_out.txt; a reset's boot is the resume's row NO_GAME);
- key to the last I2C byte of its frame: keys matched in order to the frames that follow
  them (the board works through its queue of keys), 400 kHz bus time added (9 bits a byte);
- the longest loop step (the probe: time between two idle moments), and the screen it led to;
- I2C bytes per key press: the bytes of each key's frame, CircuitPython's own displayio.
The MacroPad (``macropad_measure``): the same sessions on its UF2, ``.mpy``, beside the simulated
MacroPad; the display's bytes are SPI there (SH1106, bus time added at SPI1's rate).
The ``.mpy`` run and the simulator's press the session's keys at a player's pace, PACE_MS
apart (``paced``): the demo scripts type a key every 80 ms, faster than any player, and the
latency of a key queued behind the previous one's screen would measure the queue. The ``.py``
run types the session as written; its budget is the heap.
"""

import concurrent.futures
import statistics
from pathlib import Path
from typing import Any, Optional

from host_tools.pico import board as pico
from host_tools.sim.boards import KEY_NAMES

BUS_MS_PER_BYTE = 9 / 400  # 400 kHz, 8 bits and the ACK
SPI_MS_PER_BYTE = 8 / 8_930  # the MacroPad's SH1106: SPI1 at the runtime's 8.93 MHz
PACE_MS = 400  # between one key and the next: a quick player's pace
VARIANTS = (("mpy", False), ("py", True))


def display_bytes(frame: dict[str, Any]) -> int:
    """The bytes a frame sent the display: I2C (the Pico's SSD1306) or SPI (the MacroPad's)."""
    return int(frame["i2c_bytes"] if "i2c_bytes" in frame else frame["spi_bytes"])


def frame_end_ms(frame: dict[str, Any]) -> float:
    if "i2c_bytes" in frame:
        return frame["t_ms"] + frame["i2c_bytes"] * BUS_MS_PER_BYTE
    return frame["t_ms"] + frame["spi_bytes"] * SPI_MS_PER_BYTE


def firmware_text(frame: dict[str, Any]) -> bool:
    """The frame has text in the firmware's font: most of what it shows reads (on the
    MacroPad the runtime's terminal comes first, its font unreadable: "?")."""
    shown = "".join(frame["screen"]).replace(" ", "")
    return bool(shown) and shown.count("?") * 2 < len(shown)


def boot_ms(frames: list[dict[str, Any]]) -> Optional[float]:
    for frame in frames:
        if firmware_text(frame):
            return round(frame_end_ms(frame), 1)
    return None


# Resume: each mode's game saved mid-way (its whole-game script cut at half its keys, played in
# the simulator), then on a board that starts from that save: a power cut and power back. The
# first power-on is a first boot (the emulated drive is new: CircuitPython writes its
# boot_out.txt); power back is what a device that has run before does.
RESUME_GAMES = {
    "free": "free-6p-tie",
    "diced_tomatoes": "diced_tomatoes-3p",
    "horticolor": "horticolor-3p",
    "hortis": "hortis-live",
    "arboretum": "arboretum-3p",
}
POWER_BACK_MS = 5000
RESUME_SCRIPT = f"wait 4000\npower-cut\nwait 1000\nboot  # at {POWER_BACK_MS} ms\nwait 4000\n"
RESUME_BUDGET_MS = 2500
# A reset of a board that has run before with no game saved: the boot budget's own case (the
# demo sessions' boot is the first boot of a new drive, slower by its boot_out.txt).
NO_GAME = "no game saved"
BOOT_BUDGET_MS = 3000
NEW_DRIVE_BUDGET = f"a reset ≤ {BOOT_BUDGET_MS} ms (row {NO_GAME})"


def half_game(text: str) -> str:
    """A whole-game script up to half its keys (or its first power cut, boot or reload)."""
    lines = text.splitlines()
    keys = [i for i, line in enumerate(lines) if _verb(line) in ("press", "hold")]
    end = keys[len(keys) // 2]
    stops = [i for i in range(end) if _verb(lines[i]) in ("power-cut", "boot", "reload")]
    return "\n".join(lines[: stops[0] if stops else end]) + "\nwait 3000  # saved\n"


def _verb(line: str) -> str:
    words = line.partition("#")[0].split()
    return words[0] if words else ""


def resume_save(mode: str) -> bytes:
    """The NVM of `mode`'s game saved mid-way, played in the simulator (NO_GAME: erased)."""
    from host_tools.sim import SimBoard
    from host_tools.sim.machine import ERASED_NVM

    if mode == NO_GAME:
        return ERASED_NVM
    path = Path(__file__).resolve().parents[2] / "tests" / "fullgames" / RESUME_GAMES[mode]
    board = SimBoard()
    board.run_script(half_game(path.with_suffix(".txt").read_text(encoding="utf-8")))
    return board.nvm


def resume_ms(frames: list[dict[str, Any]], power_on_ms: int) -> Optional[float]:
    """Power back to the last I2C byte of the first frame with text after it."""
    shown = boot_ms([f for f in frames if f["t_ms"] >= power_on_ms])
    return None if shown is None else round(shown - power_on_ms, 1)


def sim_resume(
    nvm: bytes, script: str = RESUME_SCRIPT, board_id: Optional[str] = None
) -> dict[str, Any]:
    from host_tools.sim import SimBoard

    board = SimBoard(nvm=nvm, board_id=board_id) if board_id else SimBoard(nvm=nvm)
    return _resumed(board.run_script(script).frames, POWER_BACK_MS)


def pico_resume(
    nvm: bytes, script: str = RESUME_SCRIPT, board: type = pico.PicoBoard
) -> dict[str, Any]:
    result = board(nvm=nvm).run_script(script)
    back = [t for t, event in result.power if event == "power-on"][-1] // 1000
    return {**_resumed(result.frames, back), "errors": len(result.errors) + len(result.caught)}


def _resumed(frames: list[dict[str, Any]], power_on_ms: int) -> dict[str, Any]:
    shown = [f for f in frames if f["t_ms"] >= power_on_ms and any(r.strip() for r in f["screen"])]
    return {
        "resume_ms": resume_ms(frames, power_on_ms),
        "screen": shown[0]["screen"][0].strip() if shown else None,
    }


def resume(workers: int = 1) -> dict[str, Any]:
    """{mode: {"sim": {...}, "pico": {...} or None}}: the resume of each mode's saved game,
    and under NO_GAME a reset with nothing saved."""
    saves = {mode: resume_save(mode) for mode in [*RESUME_GAMES, NO_GAME]}
    out: dict[str, Any] = {mode: {"sim": sim_resume(nvm)} for mode, nvm in saves.items()}
    problem = pico.missing()
    if problem is not None:
        print(f"bench: emulated Pico skipped: {problem}")
        for mode in out:
            out[mode]["pico"] = None
        return out
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = {mode: pool.submit(pico_resume, nvm) for mode, nvm in saves.items()}
        for mode, job in jobs.items():
            out[mode]["pico"] = job.result()
    return out


def resume_table(resumed: dict[str, Any], boots: Optional[dict[str, Any]] = None) -> str:
    """Resume beside boot, per mode; `boots`: the demo sessions' figures (measure())."""
    lines = [
        "| mode | first boot of a new drive, Pico / sim | power back to the game, Pico | "
        "simulator | sim / Pico | budget |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for mode, r in resumed.items():
        session = (boots or {}).get(mode)
        boot = (
            f"{_fmt(session['mpy']['boot_ms'], ' ms')} / {_fmt(session['sim']['boot_ms'], ' ms')}"
            if session
            else "—"
        )
        board = (r.get("pico") or {}).get("resume_ms")
        sim = r["sim"]["resume_ms"]
        ratio = f"{sim / board:.2f}" if board and sim else "—"
        lines.append(
            f"| {mode} | {boot} | {_fmt(board, ' ms')} | {_fmt(sim, ' ms')} | {ratio} | "
            f"≤ {_budget(mode)} ms |"
        )
    return "\n".join(lines)


def _budget(mode: str) -> int:
    return BOOT_BUDGET_MS if mode == NO_GAME else RESUME_BUDGET_MS


def key_downs(script: str) -> list[tuple[int, int]]:
    """(t_ms, key) of every key press of a script."""
    from host_tools.sim.script import RELEASE_MS, parse_script

    now, downs = 0, []
    for command in parse_script(script):
        if command.name == "hold":
            assert command.key is not None
            downs.append((now, command.key))
            now += RELEASE_MS
        if command.name in ("hold", "wait"):
            now += command.number
    return downs


def paced(script: str) -> str:
    """The script with a wait of PACE_MS after each key (press or hold)."""
    out = []
    for line in script.splitlines():
        out.append(line)
        if line.split("#")[0].split()[:1] in (["press"], ["hold"]):
            out.append(f"wait {PACE_MS}")
    return "\n".join(out) + "\n"


def key_releases(script: str) -> list[tuple[int, int]]:
    """(t_ms, key) of the release of every short press of a script: the key event a press
    acts on (until then it may become a hold). Holds act while held: not timed."""
    from host_tools.sim.script import PRESS_MS, RELEASE_MS, parse_script

    now, out = 0, []
    for command in parse_script(script):
        if command.name == "hold":
            assert command.key is not None
            if command.number + RELEASE_MS == PRESS_MS:
                out.append((now + command.number, command.key))
            now += RELEASE_MS
        if command.name in ("hold", "wait"):
            now += command.number
    return out


def key_frames(
    downs: list[tuple[int, int]], frames: list[dict[str, Any]]
) -> list[tuple[int, int, Optional[dict[str, Any]], bool]]:
    """(t_ms, key, frame, screen change) for each key: its frame is the first with I2C traffic
    after it, if that frame starts before the next key (else None: the key drew nothing, or
    its frame came after the next key was pressed, and no frame can be told to be its own)."""
    drawn = [f for f in frames if display_bytes(f) > 0]
    out: list[tuple[int, int, Optional[dict[str, Any]], bool]] = []
    j = 0
    title = None
    for i, (t, key) in enumerate(downs):
        while j < len(drawn) and drawn[j]["t_ms"] <= t:
            title = drawn[j]["screen"][0]
            j += 1
        following = downs[i + 1][0] if i + 1 < len(downs) else None
        if j >= len(drawn) or (following is not None and drawn[j]["t_ms"] > following):
            out.append((t, key, None, False))
            continue
        frame = drawn[j]
        out.append((t, key, frame, frame["screen"][0] != title or display_bytes(frame) >= 900))
    return out


def latencies(script: str, frames: list[dict[str, Any]]) -> dict[str, Any]:
    matched = [m for m in key_frames(key_releases(script), frames) if m[2] is not None]
    if not matched:
        return {}
    lat = [frame_end_ms(f) - t for t, _, f, _ in matched if f is not None]
    changes = [frame_end_ms(f) - t for t, _, f, change in matched if f is not None and change]
    return {
        "median_ms": round(statistics.median(lat), 1),
        "max_ms": round(max(lat), 1),
        "screen_change_max_ms": round(max(changes), 1) if changes else None,
        "keys_matched": len(matched),
        "keys": len(key_releases(script)),
        "bytes_per_press_median": statistics.median(
            display_bytes(f) for _, _, f, _ in matched if f is not None
        ),
    }


def longest_step(result: Any, script: str) -> dict[str, Any]:
    if not result.steps:
        return {}
    t_us, ms = max(result.steps, key=lambda s: s[1])
    after = [f for f in result.frames if f["t_ms"] * 1000 >= t_us - ms * 1000]
    before = [k for t, k in key_downs(script) if t * 1000 <= t_us]
    what = after[0]["screen"][0].strip() if after else ""
    key = KEY_NAMES[before[-1]] if before else "boot"
    return {"ms": ms, "what": f"after {key}: {what!r}"}


def _one(name: str, text: str, py: bool, board: type = pico.PicoBoard) -> dict[str, Any]:
    script = pico.after_each_boot(text if py else paced(text))
    result = board(py=py, heap_probe=True).run_script(script)
    heaps = [value for _, value in result.heap]
    return {
        "heap_min_bytes": min(heaps) if heaps else None,
        "boot_ms": boot_ms(result.frames),
        "keys": latencies(script, result.frames),
        "longest_step": longest_step(result, script),
        "flash": result.flash,
        "errors": len(result.errors) + len(result.caught),
        "end_ms": result.end_ms,
    }


def _sim(text: str, board_id: Optional[str] = None) -> dict[str, Any]:
    from host_tools.sim import SimBoard

    script = pico.after_each_boot(paced(text))
    result = (SimBoard(board_id=board_id) if board_id else SimBoard()).run_script(script)
    return {"boot_ms": boot_ms(result.frames), "keys": latencies(script, result.frames)}


def measure(scripts: dict[str, str], workers: int = 2) -> Optional[dict[str, Any]]:
    """None (and a line on why) when the emulated Pico cannot run here."""
    problem = pico.missing()
    if problem is not None:
        print(f"bench: emulated Pico skipped: {problem}")
        return None
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for name, text in scripts.items():
            for variant, py in VARIANTS:
                jobs[name, variant] = pool.submit(_one, name, text, py)
        sims = {name: _sim(text) for name, text in scripts.items()}
        out: dict[str, Any] = {"uf2": pico.uf2_path().name, "sessions": {}}
        for name in scripts:
            out["sessions"][name] = {
                "mpy": jobs[name, "mpy"].result(),
                "py": jobs[name, "py"].result(),
                "sim": sims[name],
            }
    return out


def macropad_measure(scripts: dict[str, str], workers: int = 2) -> Optional[dict[str, Any]]:
    """The sessions on the emulated MacroPad (``.mpy``, at a player's pace) beside the
    simulated MacroPad; None (and a line on why) when it cannot run here."""
    from host_tools.sim.boards import MACROPAD

    problem = pico.missing(board=pico.MACROPAD_UF2)
    if problem is not None:
        print(f"bench: emulated MacroPad skipped: {problem}")
        return None
    saves = {mode: resume_save(mode) for mode in [*RESUME_GAMES, NO_GAME]}
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = {
            name: pool.submit(_one, name, text, False, pico.MacroPadBoard)
            for name, text in scripts.items()
        }
        resumes = {
            mode: pool.submit(pico_resume, nvm, RESUME_SCRIPT, pico.MacroPadBoard)
            for mode, nvm in saves.items()
        }
        sims = {name: _sim(text, MACROPAD.board_id) for name, text in scripts.items()}
        sessions = {name: {"mpy": jobs[name].result(), "sim": sims[name]} for name in scripts}
        resumed = {
            mode: {
                "macropad": job.result(),
                "sim": sim_resume(saves[mode], RESUME_SCRIPT, MACROPAD.board_id),
            }
            for mode, job in resumes.items()
        }
    uf2 = pico.uf2_path(board=pico.MACROPAD_UF2).name
    return {"uf2": uf2, "sessions": sessions, "resume": resumed}


def macropad_table(results: dict[str, Any]) -> str:
    lines = [
        "| session | measure | MacroPad .mpy | simulated MacroPad | budget |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name, s in results["sessions"].items():
        m, sim = s["mpy"], s["sim"]
        mk, sk = m["keys"], sim["keys"]
        heap = m["heap_min_bytes"]
        rows = [
            (
                "lowest gc.mem_free()",
                "—" if heap is None else f"{heap / 1000:.1f} KB",
                "",
                "≥ 48 KB",
            ),
            (
                "first boot of a new drive, to first frame",
                _fmt(m["boot_ms"], " ms"),
                _fmt(sim["boot_ms"], " ms"),
                NEW_DRIVE_BUDGET,
            ),
            ("key → last SPI byte, median", _median(mk), _median(sk), "≤ 50 ms"),
            (
                "key → last SPI byte, screen change max",
                _fmt(mk.get("screen_change_max_ms"), " ms"),
                _fmt(sk.get("screen_change_max_ms"), " ms"),
                "≤ 150 ms",
            ),
            (
                "key → last SPI byte, max",
                _fmt(mk.get("max_ms"), " ms"),
                _fmt(sk.get("max_ms"), " ms"),
                "≤ 250 ms",
            ),
            ("longest loop step", _step(m), "0 ms (time stands still)", "≤ 250 ms"),
            (
                "SPI bytes per key press, median",
                _fmt(mk.get("bytes_per_press_median")),
                _fmt(sk.get("bytes_per_press_median")),
                "",
            ),
            ("NVM erases / programs", _flash(m), "", ""),
        ]
        for measure, *cells in rows:
            lines.append(f"| {name} | {measure} | " + " | ".join(cells) + " |")
    for mode, r in results.get("resume", {}).items():
        board, sim = r["macropad"], r["sim"]
        what = (
            "reset: power back to the first screen"
            if mode == NO_GAME
            else "resume: power back to the game"
        )
        lines.append(
            f"| {mode} | {what} | {_fmt(board['resume_ms'], ' ms')} | "
            f"{_fmt(sim['resume_ms'], ' ms')} | ≤ {_budget(mode)} ms |"
        )
    return "\n".join(lines)


def _fmt(value: Any, unit: str = "") -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        value = f"{value:.0f}" if value >= 100 else f"{value:g}"
    return f"{value}{unit}"


def table(results: dict[str, Any], sim_heap_kib: dict[str, Any]) -> str:
    lines = [
        "| session | measure | Pico .mpy | Pico .py | simulator | budget |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, s in results["sessions"].items():
        m, p, sim = s["mpy"], s["py"], s["sim"]
        mk, sk = m["keys"], sim["keys"]
        pk: dict[str, Any] = {}  # typed at the script's own pace: see the module's notes

        def kb(v: Optional[int]) -> str:
            return "—" if v is None else f"{v / 1000:.1f} KB"

        rows = [
            (
                "lowest gc.mem_free()",
                kb(m["heap_min_bytes"]),
                kb(p["heap_min_bytes"]),
                f"{_fmt(sim_heap_kib.get(name))} KiB heap needed (MicroPython 64-bit)",
                "≥ 48 KB (.py ≥ 32)",
            ),
            (
                "first boot of a new drive, to first frame",
                _fmt(m["boot_ms"], " ms"),
                _fmt(p["boot_ms"], " ms"),
                _fmt(sim["boot_ms"], " ms"),
                NEW_DRIVE_BUDGET,
            ),
            (
                "key → last I2C byte, median (keys whose frame came before the next key)",
                _median(mk),
                _median(pk),
                _median(sk),
                "≤ 50 ms",
            ),
            (
                "key → last I2C byte, screen change max",
                _fmt(mk.get("screen_change_max_ms"), " ms"),
                _fmt(pk.get("screen_change_max_ms"), " ms"),
                _fmt(sk.get("screen_change_max_ms"), " ms"),
                "≤ 150 ms",
            ),
            (
                "key → last I2C byte, max",
                _fmt(mk.get("max_ms"), " ms"),
                _fmt(pk.get("max_ms"), " ms"),
                _fmt(sk.get("max_ms"), " ms"),
                "≤ 250 ms",
            ),
            ("longest loop step", _step(m), _step(p), "0 ms (time stands still)", "≤ 250 ms"),
            (
                "I2C bytes per key press, median",
                _fmt(mk.get("bytes_per_press_median")),
                _fmt(pk.get("bytes_per_press_median")),
                _fmt(sk.get("bytes_per_press_median")),
                "≤ 100",
            ),
            ("NVM erases / programs", _flash(m), _flash(p), "", ""),
        ]
        for measure, *cells in rows:
            lines.append(f"| {name} | {measure} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _median(keys: dict[str, Any]) -> str:
    if not keys:
        return "—"
    return f"{_fmt(keys['median_ms'], ' ms')} ({keys['keys_matched']} of {keys['keys']})"


def _step(variant: dict[str, Any]) -> str:
    step = variant["longest_step"]
    return f"{step['ms']} ms {step['what']}" if step else "—"


def _flash(variant: dict[str, Any]) -> str:
    f = variant["flash"]
    return f"{f.get('nvm_erases', 0)} / {f.get('nvm_programs', 0)}" if f else "—"


def main() -> int:
    import json

    from host_tools.common import ROOT, sessions

    results = measure(sessions())
    if results is not None:
        path = Path(ROOT, "bench", "pico.json")
        path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(table(results, {}))
    return 0
