"""Every mode's menus offer only what its rules take (issue #36: the Arboretum menu offered
"Pass (out for round)" in a mode with no turns).

For every mode the registry lists, games are started through the real App (on pure fakes) in a
few setups, and every menu reachable from the game screen is opened: the game menu (OK, or
where OK or hold → opens a screen of the mode first, the items of that screen that open it)
and its Table & timers. An item is offered only if the reducer accepts what it does in some state of
that mode (Pass only where the rules take the pass action, Stats only where they hand over
turns, Pause where there are turns or timers...); choosing any item does something or says
why not, in a text of the language: never a crash, never a silent no-op. A mode not listed
in SETUPS is played in its default setup: the next mode is checked as it comes."""

import pytest

from host_tools.mpy.pureboard import PureBoard
from potager import app as app_module
from potager.core import registry, table
from potager.core.engine import clone
from potager.ui import table_settings, table_setup

pytestmark = pytest.mark.usefixtures("invariants")  # the mode's invariants after every action

# the setups played, as changes to each mode's default setup
SETUPS = {
    "free": [{}, {"players": 1}],
    "diced_tomatoes": [{}, {"players": 1}],
    "horticolor": [{}],
    "hortis": [{}, {"lv": 1}, {"players": 2}, {"players": 2, "lv": 1}, {"g": 1}],
    "arboretum": [{}, {"players": 2}, {"players": 4}],
}
CASES = [(m, i) for m in registry.names() for i in range(len(SETUPS.get(m, [{}])))]
IDS = [m + "-" + str(i) for m, i in CASES]

# The modes whose rules (the shared rules reference) have no turns: the device scores the end
# of the game (rules/arboretum.md), nobody hands over. Their rules module says so (TURNS = 0).
WITHOUT_TURNS = ("arboretum",)

# menu item: the actions that do what it offers; it may be offered only if the reducer accepts
# one of them in some state of the mode
ACTIONS = {
    "pass": [(table.PASS, 0, 0)],
    "skip": [(table.SKIP, 0, 0)],
    "round+": [(table.ROUND, 1, 0)],
    "round-": [(table.ROUND, -1, 0)],
    "stats": [(table.NEXT, 0, 0)],  # turns taken, time played: a game in turns
    "pause": [(table.NEXT, 0, 0)] + [(table.SET, s, 600) for s in (table.S_TT, table.S_RT)],
    "table": [(table.SET, table.S_SEAT, pixel) for pixel in range(table.RING)],
}
# Table & timers: each setting, the values it may take
for setting, _, _, choices in table_settings.SETTINGS:
    values = (-1, 1) if setting == table.S_DIR else (0, 1) if type(choices[0]) is str else choices
    ACTIONS[setting] = [(table.SET, setting, v) for v in values]
TURN_OPS = [(op, 0, 0) for op in (table.NEXT, table.PREV, table.PASS, table.SKIP)]
TURN_OPS += [(table.ROUND, 1, 0), (table.ROUND, -1, 0)]


@pytest.fixture(autouse=True)
def crashes_raise(monkeypatch):
    """An exception in a step is not recovered from (the device's ErrorScreen): it fails."""

    def recover(self, error, now):
        raise error

    monkeypatch.setattr(app_module.App, "recover", recover)


def game(mode, setup):
    board = PureBoard()
    board.app.set_language("en", save=False)
    ui = registry.screens(mode)
    values = table_setup.default_setup(ui.SETUP)
    values.update(SETUPS.get(mode, [{}])[setup])
    board.app.start_game(mode, ui.new_state(values))
    board.run(100)
    return board


def is_menu(screen):
    return any(c.__name__ == "MenuScreen" for c in type(screen).__mro__)


# the gestures that may open a screen from the game screen: OK, and hold →
GESTURES = (("OK", 80), ("RIGHT", 700))


def menu_paths(mode, setup):
    """How the game menus are reached from the game screen: a gesture, then (where it opens
    another screen) the index of the item of that screen that opens the menu, if any."""
    found = []
    for gesture in GESTURES:
        board = open_menu(mode, setup, (gesture,))
        top = board.app.screen()
        if top is board.app.stack[0]:
            continue  # the gesture did something on the game screen itself
        if is_menu(top):
            found.append((gesture,))
            continue
        for i in range(len(top.items(board.app)) if hasattr(top, "items") else 0):
            if is_menu(open_menu(mode, setup, (gesture, i)).app.screen()):
                found.append((gesture, i))
    return found


def open_menu(mode, setup, path):
    board = game(mode, setup)
    board.key(*path[0])
    board.run(100)
    for i in path[1:]:
        board.app.screen().cursor = i
        board.key("OK", 80)
        board.run(100)
    return board


def states(mode):
    """States of the mode: each setup's start, and the states one table action away."""
    out = []
    for setup in range(len(SETUPS.get(mode, [{}]))):
        board = game(mode, setup)
        start = board.app.engine.state
        out.append(start)
        rules = board.app.engine.rules
        for action in [(table.NEXT, 0, 0), (table.ROUND, 1, 0)]:
            state = clone(start)
            if rules.reduce(state, action) is None:
                out.append(state)
    return rules, out


def taken(rules, pool, action):
    return any(rules.reduce(clone(state), action) is None for state in pool)


STATES: dict = {}


def allowed(mode, item):
    """Whether the mode's rules allow what `item` does: the reducer takes it in some state of
    the mode, and it is no turn item (all but the seats) of a mode without turns. None: an
    item of the app, or of the mode's own menu, that does no table action."""
    if item not in ACTIONS:
        return None
    if mode in WITHOUT_TURNS and item != "table":
        return False
    if mode not in STATES:
        STATES[mode] = states(mode)
    rules, pool = STATES[mode]
    return any(taken(rules, pool, action) for action in ACTIONS[item])


def look(board):
    """What a choice may change: the screens, the game, the clocks' pause, the message."""
    app = board.app
    engine = app.engine
    return (
        list(app.stack),  # the screens themselves (kept: an id may be reused)
        engine.revision if engine else None,
        app.clock.paused,
        app.message,
    )


def choose(board, what):
    """OK on the item under the cursor: it does something, or says why not in words."""
    app = board.app
    app.message = None
    before = look(board)
    board.key("OK", 80)
    board.run(100)
    after = look(board)
    assert after != before, f"{what}: a silent no-op"
    if app.message is not None:
        assert not app.message.startswith(("r.", "u.", "h.")), f"{what}: {app.message}"


@pytest.mark.parametrize(("mode", "setup"), CASES, ids=IDS)
def test_every_menu_item_is_one_the_rules_allow_and_does_something(mode, setup):
    paths = menu_paths(mode, setup)
    assert paths, "no game menu reachable from the game screen"
    for path in paths:
        board = open_menu(mode, setup, path)
        menu = board.app.screen()
        menu.items(board.app)
        offered = list(menu.entries)
        for item in offered:
            assert allowed(mode, item) is not False, f"{mode}: the menu offers {item!r}"
        for i, item in enumerate(offered):  # each chosen in a game of its own
            board = open_menu(mode, setup, path)
            board.app.screen().items(board.app)
            board.app.screen().cursor = i
            choose(board, f"{mode}: {item}")
            top = board.app.screen()
            if type(top).__name__ == "ConfirmScreen":
                choose(board, f"{mode}: {item}, yes")
            elif type(top).__name__ == "TableScreen":
                settings = top.settings(board.app)
                for row in settings:
                    assert allowed(mode, row[0]), f"{mode}: Table & timers offers {row[2]}"
                for row in range(len(top.items(board.app))):  # each setting, each seat
                    top.cursor = row
                    board.app.message = None
                    before = look(board)
                    board.key("RIGHT", 80)
                    assert look(board) != before, f"{mode}: Table & timers row {row}: no-op"


@pytest.mark.parametrize("mode", registry.names())
def test_a_mode_says_whether_its_rules_take_turns(mode):
    # A mode without turns refuses every turn action in every state, says so (TURNS = 0: the
    # menus follow), and its menus offer none of the turn items; the others hand over.
    rules, pool = states(mode)
    handover = taken(rules, pool, (table.NEXT, 0, 0))
    assert handover == (mode not in WITHOUT_TURNS)
    assert bool(getattr(rules, "TURNS", 1)) == handover
    if not handover:
        for action in TURN_OPS + ACTIONS[table.S_TT] + ACTIONS[table.S_DIR]:
            assert not taken(rules, pool, action), action
        board = open_menu(mode, 0, menu_paths(mode, 0)[0])
        menu = board.app.screen()
        menu.items(board.app)
        offered = set(menu.entries) & {"pass", "skip", "stats", "pause", "round+", "round-"}
        assert not offered
