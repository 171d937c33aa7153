"""The invariants of the table's fields (see potager.core.table), checked when a save is
restored and by the tests; loaded only then. It imports nothing back from core.table: the
table's check_table, which loads it, passes the limits."""


def check(state, max_players, max_round):
    """The table's invariants (core.table.check_table): raises AssertionError."""
    n = state["n"]
    assert 1 <= n <= max_players
    assert 0 <= state["act"] < n and 0 <= state["first"] < n
    assert 1 <= state["rnd"] <= max_round
    assert len(state["col"]) == n and len(set(state["col"])) == n
    assert len(state["seat"]) == n and len(set(state["seat"])) == n
    assert 0 <= state["out"] <= max(0, (1 << n) - 2)  # everyone out starts the next round
    assert not state["out"] >> state["act"] & 1
    assert state["dir"] in (1, -1)
    names = state.get("names")
    if names is not None:  # chosen at setup: "" keeps the seat number
        assert len(names) == n
        for name in names:
            assert type(name) is str and len(name) <= 10
            assert not name or names.count(name) == 1
    for key in ("bk", "used", "turns", "long"):
        assert len(state[key]) == n
    log = state.get("log", [])
    assert len(log) <= max_players
    for p, a, b, _, out, _ in log:
        assert 0 <= p < n and 0 <= a <= state["used"][p] and 0 <= b <= state["long"][p]
        assert out in (0, 1) and (not out or state["out"] >> p & 1)
