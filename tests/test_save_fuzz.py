"""The fuzzer of valid-CRC records (host_tools/savefuzz.py), a short fixed-seed round: every
image boots, nothing raises or hangs, no state breaks an invariant or holds a score that is
not an int, and no damaged delta takes a game away. `make fuzz` runs it at length."""

from soak import SCALE

from host_tools import savefuzz
from potager.core import persist


def test_records_with_nonsense_under_valid_crcs_never_crash_hang_or_lose_a_game():
    count = 100 * SCALE  # (tests/soak.py)
    out = savefuzz.fuzz(count=count, seed=7)
    assert out["tried"] == count
    assert out["failures"] == []
    assert (out["crashes"], out["hangs"], out["bad_states"], out["games_lost"]) == (0, 0, 0, 0)
    assert out["salvaged"] > 0  # some images really had actions to drop


def test_the_mutations_reach_every_mode_and_change_real_records():
    images = savefuzz.corpus()
    modes, names = set(), set()
    for image in images:
        for _kind, payload in savefuzz.records(image):
            meta = savefuzz.persist_meta(payload)
            if isinstance(meta, dict) and meta.get("mode"):
                modes.add(meta["mode"])
                names.update(meta["base"].get("names") or [])
    assert modes == {"free", "diced_tomatoes", "horticolor", "hortis", "arboretum"}
    # the "# drive:" sessions play with their players.txt: saves with names are fuzzed too
    assert {"Zoé", "Léa", "Inès"} <= names


def test_a_damaged_delta_may_take_only_the_game_it_started():
    images = [savefuzz.records(image) for image in savefuzz.corpus()]
    recs = next(r for r in images if len(r) > 2 and savefuzz.new_game(r[1][1]))
    assert not savefuzz.new_game(recs[2][1])  # a delta of actions in the game
    for i in (1, 2):
        damaged = list(recs)
        damaged[i] = (1, b"\x00\x01")  # bytes that do not decode
        assert savefuzz.may_take_game(recs, damaged, i) == (i == 1)
    damaged = list(recs)  # the delta of actions now says a new game starts: it may end this one
    damaged[2] = (1, bytes(persist.encode_payload({"mode": "zz"}, [], 0)))
    assert savefuzz.may_take_game(recs, damaged, 2)
    assert savefuzz.may_take_game(recs, recs, 0)  # the snapshot: the chain's start
