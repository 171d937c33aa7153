# HORTIS counter: the invariants (hortis.check), for the tests and a save restored at boot;
# apart from the reducer so that the board does not keep them in RAM during a game.

from potager.core import table
from potager.core.games.hortis_count import MAX_DICE, problem


def check(state):
    table.check_table(state)
    n, g = state["n"], state["g"]
    assert g in (0, 1) and state["lv"] in (0, 1) and state["rc"] in (0, 1)
    assert 0 <= state["tg"] <= 199
    assert len(state["bo"]) == n and len(state["mu"]) == n
    for p in range(n):
        assert 0 <= state["bo"][p] <= 99 and 1 <= state["mu"][p] <= 9
        if state["lv"]:
            assert not g and len(state["d"][p]) == MAX_DICE and state["pw"][p] in (0, 1)
            for v in state["d"][p]:
                assert v in (0, 6, 14) or (1 <= v & 7 <= 5 and v < 16)
        else:
            assert len(state["q"][p]) == (10 if g else 8)
            assert problem(g, state["q"][p]) is None
    if state["lv"]:
        assert len(state["d"]) == n and len(state["pw"]) == n and state["end"] in (0, 1)
        assert 2 <= state["rnd"] <= 9
