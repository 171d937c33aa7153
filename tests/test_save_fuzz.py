"""The fuzzer of valid-CRC records (host_tools/savefuzz.py), a short fixed-seed round: every
image boots, nothing raises or hangs, no state breaks an invariant or holds a score that is
not an int, and no damaged delta takes a game away. `make fuzz` runs it at length."""

from host_tools import savefuzz


def test_records_with_nonsense_under_valid_crcs_never_crash_hang_or_lose_a_game():
    out = savefuzz.fuzz(count=250, seed=7)
    assert out["tried"] == 250
    assert out["failures"] == []
    assert (out["crashes"], out["hangs"], out["bad_states"], out["games_lost"]) == (0, 0, 0, 0)
    assert out["salvaged"] > 0  # some images really had actions to drop


def test_the_mutations_reach_every_mode_and_change_real_records():
    images = savefuzz.corpus()
    modes = set()
    for image in images:
        for _kind, payload in savefuzz.records(image):
            meta = savefuzz.persist_meta(payload)
            if isinstance(meta, dict) and meta.get("mode"):
                modes.add(meta["mode"])
    assert modes == {"free", "diced_tomatoes", "horticolor", "hortis", "arboretum"}
