"""`make fuzz`: boot the real App on NVM images whose records hold nonsense under valid CRCs.

Structure-aware: the saves of every mode's demo session (docs/scripts) are taken apart into
their records; one record has a field of its JSON, an action, its undo pointer or its bytes
mutated (or a delta of random fields is added), and the journal is written again with every
CRC valid, so the firmware's checks, not its CRCs, must catch it. Each image boots on pure
fakes, then a few keys are played. Counted: crashes (anything raised), hangs (a boot or key
that runs past a fixed budget of function calls), bad states (an invariant broken, a score
that is not an int), games lost (a damaged delta that took away a game it did not start
or end, judged by the record both before the damage and after it: a delta that held a new
game's base may take that game with it).

    python -m host_tools.savefuzz [--count N] [--seed S]
"""

import argparse
import json
import random
import sys
import traceback
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "docs" / "scripts"
CALL_BUDGET = 3_000_000  # function calls per boot and per key: far above any real one
KEYS = "wait 700\npress RIGHT\npress TURN\npress OK\npress BACK\npress BACK\nhold BACK 900\n"
VALUES: list[Any] = [0, 1, -1, 2, 7, 255, 65535, -(10**9), 10**12, 1.5, True, False, None, ""]
VALUES += ["free", "hortis", "x" * 40, [], {}, [0, 1], [[[[[[[[1]]]]]]]], {"n": 2}]


class Hang(BaseException):
    """Not an Exception: the firmware's recovery must not swallow it."""


def _paths() -> None:
    if str(ROOT / "firmware") not in sys.path:
        sys.path.append(str(ROOT / "firmware"))


def corpus() -> list[bytes]:
    """The NVM image after every save of every demo session."""
    _paths()
    from host_tools.mpy.pureboard import PureBoard
    from potager import roster

    images = []
    for script in sorted(SCRIPTS.glob("*.txt")):
        text = script.read_text(encoding="utf-8")
        names = None  # a "# drive: DIR" session plays with the players.txt of DIR, as in sim
        if text.startswith("# drive:"):
            names = roster.read(str(ROOT / text.split()[2] / "players.txt"))[0]
        board = PureBoard()
        writes = 0
        for line in text.splitlines():
            if names and board.app is not None and board.app.roster is None:
                board.app.roster = list(names)  # as the first setup reads it from the drive
            board.script(line)
            if board.app is not None and board.app.store.writes != writes:
                writes = board.app.store.writes
                images.append(bytes(board.nvm))
        board.script("wait 3000")
        images.append(bytes(board.nvm))
    return images


def records(image: bytes) -> list[tuple[int, bytes]]:
    from potager.core import persist, scan

    store = persist.Store(bytearray(image))
    scan.load(store)
    return [(r[0], store.payload(i)) for i, r in enumerate(store.records)]


def rebuild(recs: list[tuple[int, bytes]]) -> Optional[bytearray]:
    from potager.core import persist

    nvm = bytearray(b"\xff" * 4096)
    store = persist.Store(nvm)
    for kind, payload in recs:
        if not store.room(payload):
            return None
        store.save(payload, kind)
    return nvm


def mutate_json(rng: random.Random, value: Any) -> Any:
    """One random change somewhere in a JSON value (replace, drop, add a key, grow a list)."""
    if isinstance(value, (dict, list)) and value and rng.random() < 0.75:
        keys = list(value) if isinstance(value, dict) else list(range(len(value)))
        key = rng.choice(keys)
        roll = rng.random()
        if roll < 0.1:
            del value[key]
        elif roll < 0.15 and isinstance(value, list):
            value.append(value[key])
        else:
            value[key] = mutate_json(rng, value[key])
        return value
    if isinstance(value, dict) and rng.random() < 0.5:
        value[rng.choice(["lang", "set", "mode", "base", "hist", "rec", "games", "gone", "zz"])] = (
            rng.choice(VALUES)
        )
        return value
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-100, -2, -1, 1, 2, 100, 10**6])
    return json.loads(json.dumps(rng.choice(VALUES)))


def mutate(rng: random.Random, recs: list[tuple[int, bytes]]) -> tuple[int, list[Any]]:
    """(index of the record changed, records)."""
    from potager.core import persist

    recs = list(recs)
    i = rng.randrange(len(recs))
    kind, payload = recs[i]
    roll = rng.random()
    if roll < 0.1:  # random bytes
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    elif roll < 0.2:  # flipped bytes
        data = bytearray(payload)
        for _ in range(rng.randrange(1, 4)):
            if data:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        payload = bytes(data)
    elif roll < 0.3:  # a new delta of random fields and actions
        i, kind = len(recs), 1  # a delta
        patch = mutate_json(rng, {})
        log = [(rng.randrange(40), rng.randrange(-9, 20), rng.randrange(-9, 20)) for _ in "abc"]
        payload = bytes(persist.encode_payload(patch, log, rng.randrange(60)))
    else:
        keep, meta, log = persist.decode_payload(payload)
        roll = rng.random()
        if roll < 0.5 and meta is not None:
            meta = mutate_json(rng, meta)
        elif roll < 0.8 or not log:
            ops = [rng.randrange(256), rng.randrange(-40000, 40000) % 65536 - 32768]
            log = log + [(ops[0] % 40, rng.randrange(-3, 40), ops[1] % 32)]
            j = rng.randrange(len(log))
            field = rng.randrange(3)
            pool = [0, 1, 2, 5, 6, 7, 16, 17, 20, 32767, -32768, -1]
            value = rng.choice(pool) if field else rng.randrange(256)
            action = list(log[j])
            action[field] = value % 256 if field == 0 else value
            log[j] = tuple(action)
        else:
            keep = rng.choice([0, 1, keep + 1, keep - 1 if keep else 0, 65535])
        payload = bytes(persist.encode_payload(meta, log, keep))
    if i == len(recs):
        recs.append((kind, payload))
    else:
        recs[i] = (kind, payload)
    return i, recs


def guarded(run: Any) -> Any:
    """run() with a budget of function calls: past it, Hang."""
    calls = [0]

    def count(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            calls[0] += 1
            if calls[0] > CALL_BUDGET:
                raise Hang

    sys.setprofile(count)
    try:
        return run()
    finally:
        sys.setprofile(None)


def verdict(board: Any) -> Optional[str]:
    """What is wrong with the booted board, or None."""
    from potager.core import registry
    from potager.restore_check import state

    app = board.app
    if app is None:
        return None
    if not all(type(row) is str for row in board.rows()):
        return "a row is not text"
    if app.engine is not None:
        if not state(app.engine.state):  # texts only in the players' names
            return "a state value is not an int or a text"
        try:
            registry.rules(app.mode).check(app.engine.state)
        except Exception as error:
            return "invariant: %r" % error
    return None


def persist_meta(payload: bytes) -> Any:
    """The JSON of a record, or None if it does not decode."""
    from potager.core import persist

    try:
        return persist.decode_payload(payload)[1]
    except Exception:
        return None


def new_game(payload: bytes) -> bool:
    """A delta that starts (or ends) a game: damaged, it may take the game with it."""
    meta = persist_meta(payload)
    return isinstance(meta, dict) and ("mode" in meta or "base" in meta)


def may_take_game(before: list[tuple[int, bytes]], recs: list[tuple[int, bytes]], i: int) -> bool:
    """Whether record i of `recs` (`before`, with that record damaged or a delta added at i)
    may take the game away: a snapshot, or a delta that started or ended a game before the
    damage (its bytes held the game's base) or says so after it."""
    if recs[i][0] != 1 or new_game(recs[i][1]):
        return True
    return i < len(before) and new_game(before[i][1])


def fuzz(count: int, seed: int) -> dict[str, Any]:
    _paths()
    from host_tools.mpy.pureboard import PureBoard

    rng = random.Random(seed)
    images = [records(image) for image in corpus()]
    images = [recs for recs in images if recs]
    had_game = []
    for recs in images:
        nvm = rebuild(recs)
        board: Any = None if nvm is None else PureBoard(nvm)  # booted: its app is there
        had_game.append(board is not None and board.app.engine is not None)
    out: dict[str, Any] = {"tried": 0, "crashes": 0, "hangs": 0, "bad_states": 0}
    out.update({"games_lost": 0, "salvaged": 0, "failures": []})
    while out["tried"] < count:
        k = rng.randrange(len(images))
        try:
            i, recs = mutate(rng, images[k])
        except Exception:
            continue  # a record that was itself not decodable: nothing to mutate
        nvm = rebuild(recs)
        if nvm is None:
            continue
        out["tried"] += 1
        board, game = None, False
        try:
            board = guarded(lambda nvm=nvm: PureBoard(nvm))
            game = board.app.engine is not None
            # what the boot said (the keys after it may leave its screen, and its message)
            said = board.app.message or ""
            out["salvaged"] += "dropped" in said or "retirées" in said
            problem = verdict(board)
            if problem is None:
                guarded(lambda board=board: board.script(KEYS))
                problem = verdict(board)
            if problem:
                out["bad_states"] += 1
                out["failures"].append((k, i, problem))
        except Hang:
            out["hangs"] += 1
            out["failures"].append((k, i, "hang"))
        except Exception as error:
            out["crashes"] += 1
            where = traceback.extract_tb(error.__traceback__)[-1]
            out["failures"].append((k, i, "%r at %s:%s" % (error, where.filename, where.lineno)))
        if had_game[k] and not game and not may_take_game(images[k], recs, i):
            out["games_lost"] += 1  # a damaged delta must leave the game of the records before
            out["failures"].append((k, i, "game lost"))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_tools.savefuzz", description=__doc__)
    parser.add_argument("--count", type=int, default=5000, help="images to boot (5000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    out = fuzz(args.count, args.seed)
    print(
        "records tried %(tried)d, crashes %(crashes)d, hangs %(hangs)d, bad states "
        "%(bad_states)d, games lost %(games_lost)d (salvaged with actions dropped: "
        "%(salvaged)d)" % out
    )
    for failure in out["failures"][:20]:
        print("  session image %d, record %d: %s" % failure)
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
