"""Arboretum end-of-game scoring on the device: the reducer (right to score, 1 vs 8, ties,
paths, tie-break), the screens through the real App (setup, hands, paths, totals, refusals,
undo, power cut), the same game under MicroPython with the heap budget, and in the simulator.
Rules: the shared rules/arboretum.md; the host CLI's search is tested in test_score_arboretum."""

import json
from pathlib import Path

import mpy_runner
import pytest

from host_tools.mpy.pureboard import PureBoard
from potager.core.engine import Engine
from potager.core.games import arboretum as ar
from potager.core.games import arboretum_score
from potager.ui import view

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "docs" / "scripts" / "arboretum.txt"

# The rulebook's example (rules/arboretum.md), species in the setup's order for 3 players with
# the 8th slot changed from Magnolia to Maple: P1 Clark, P2 Jonathan, P3 Martha.
SPECIES = ["oak", "willow", "jacaranda", "lilac", "cassia", "poinciana", "dogwood", "maple"]
HANDS = {
    "oak": [[3, 8], [], [2, 7]],
    "willow": [[], [7], [1, 3, 8]],
    "jacaranda": [[7], [2, 5], []],
    "lilac": [[6, 7], [4, 5], []],
    "cassia": [[], [6], [5]],
    "poinciana": [[1, 5], [3], [8]],
    "dogwood": [[], [], []],
    "maple": [[], [], []],
}
# the best paths (cards, all of the species, starts with a 1, ends with an 8) of those who may
# score, as the CLI's golden case finds them in the arboretums; None: no path
PATHS = {
    "oak": {0: (4, 1, 1, 0)},  # oak1 oak4 oak5 oak6: 9
    "willow": {2: (4, 1, 0, 0)},  # willow2 4 5 6: 8
    "jacaranda": {0: (5, 0, 0, 1), 1: (2, 1, 1, 0)},  # jacaranda3 oak4 oak5 oak6 jacaranda8: 7
    "lilac": {0: None},  # Clark has no Lilac path, yet blocks Jonathan
    "cassia": {1: (2, 1, 0, 0)},
    "poinciana": {0: (3, 0, 0, 0)},
    "dogwood": {0: None, 1: (2, 1, 0, 0), 2: None},
    "maple": {0: None, 1: None, 2: (2, 1, 1, 0)},
}

ENGLISH = "press DOWN\npress OK\n"
ARBORETUM = "press DOWN\n" * 4 + "press OK\n"  # the 5th mode on the home screen
START = "press OK\n"  # OK on any field starts
MAPLE = "press DOWN\n" * 12 + "press RIGHT\n"  # species #8 (a field after 2 + 3 colours)


def code(path):
    if path is None:
        return 0
    cards, pure, first, last = path
    return cards + 16 * pure + 32 * first + 64 * last


def mask(values):
    return sum(1 << (v - 1) for v in values)


class Walk:
    """Key presses on the species screen: the column cursor walks to a value (8 values, then
    the why column), UP/DOWN slide its card to its holder (nobody, P1... Pn, full hands passed
    over); then OK enters the paths of those who may score, one after the other, and the next
    species opens by itself."""

    def __init__(self, players=3, col=0, count=None):
        self.players = players
        self.lines = []
        self.col = col
        self.count = count or [0] * players  # cards in each hand (7 at most)

    def go(self, col):
        right = (col - self.col) % 9
        self.lines += (
            ["press RIGHT"] * right if right <= 9 - right else ["press LEFT"] * (9 - right)
        )
        self.col = col

    def give(self, p):
        order = [q for q in range(self.players) if self.count[q] < 7]
        k, m = order.index(p) + 1, len(order)
        self.lines += ["press DOWN"] * k if k <= m + 1 - k else ["press UP"] * (m + 1 - k)
        self.count[p] += 1

    def species(self, hands, paths):
        for col, p in sorted((v - 1, p) for p, values in enumerate(hands) for v in values):
            self.go(col)
            self.give(p)
        if paths:
            self.lines.append("press OK")  # the paths, first who may score first
            start = 2 if any(hands) else 0  # a path starts at 2 cards when somebody holds some
            for p in sorted(paths):
                if not paths[p] and start:
                    self.lines.append("press LEFT")  # 2 cards, none
                if paths[p]:
                    cards, pure, first, last = paths[p]
                    self.lines += ["press RIGHT"] * (cards - max(start, 1))  # none, 2, 3...
                    row = 0
                    for r, flag in ((1, not pure), (2, first), (3, last)):  # "all": yes
                        if flag:
                            self.lines += ["press DOWN"] * (r - row) + ["press RIGHT"]
                            row = r
                self.lines.append("press OK")
            self.col = 0  # the species done: the next one opens, on its first value
        return self

    def text(self):
        return "\n".join(self.lines) + "\n"


def rulebook_script():
    """The whole rulebook game from a blank device, species after species: the totals."""
    walk = Walk()
    for name in SPECIES:
        walk.species(HANDS[name], dict(PATHS[name]))
    return ENGLISH + ARBORETUM + MAPLE + START + "press RIGHT\n" + walk.text()


def rows_of(board):
    return [row.rstrip() for row in board.rows()]


# ============================================================== the reducer
def sheet(players=3, species=None):
    return Engine(ar, ar.new(players, list(range(players)), 0, species))


def apply(engine, *actions):
    for action in actions:
        reason = engine.apply(action)
        assert reason is None, (action, reason)


def rulebook_engine():
    engine = sheet(3, [0, 1, 2, 3, 4, 5, 6, 8])
    for s, name in enumerate(SPECIES):
        for p, values in enumerate(HANDS[name]):
            if values:
                apply(engine, (ar.HAND, s * 4 + p, mask(values)))
        for p, path in PATHS[name].items():
            apply(engine, (ar.PATH, s * 4 + p, code(path)))
    return engine


def test_new_sheet_species_by_players_and_table_fields():
    for players, count in ((2, 6), (3, 8), (4, 10)):
        state = ar.new(players, list(range(players)))
        assert state["sp"] == list(range(count))
        assert state["h"] == [0] * (count * players) and state["pa"] == [-1] * (count * players)
        assert state["ks"] == [0] * players and state["tb"] == 0  # the table's time bank
        ar.check(state)
    assert ar.new(2, [0, 1], 1, [11, 3])["sp"] == [11, 3]


def test_rulebook_example_clark_scores_19_and_wins():
    engine = rulebook_engine()
    state = engine.state
    assert ar.totals(state) == ([19, 7, 11], -1)
    assert ar.winners(state, [19, 7, 11]) == [0]
    expected = {  # hand values after the 1-vs-8 rule, and who may score (rules/arboretum.md)
        "jacaranda": ([7, 7, 0], [True, True, False]),
        "lilac": ([13, 9, 0], [True, False, False]),
        "oak": ([11, 0, 9], [True, False, False]),
        "poinciana": ([6, 3, 0], [True, False, False]),
        "willow": ([0, 7, 12], [False, False, True]),
        "cassia": ([0, 6, 5], [False, True, False]),
        "dogwood": ([0, 0, 0], [True, True, True]),
    }
    for name, (values, rights) in expected.items():
        s = SPECIES.index(name)
        assert ar.hand_values(ar.held(state, s)) == values, name
        assert ar.may_score(ar.held(state, s)) == rights, name
    assert ar.scores(state, SPECIES.index("oak")) == [9, -1, -1]
    assert ar.scores(state, SPECIES.index("jacaranda")) == [7, 3, -1]
    assert ar.scores(state, SPECIES.index("lilac")) == [0, -1, -1]  # no path, but a block
    ar.check(state)


def test_device_and_cli_agree_on_the_rulebook_example():
    cli = json.loads((ROOT / "tests/golden/score/arboretum-rulebook-clark.json").read_text())
    out = arboretum_score.score(cli["input"])
    assert [p["total"] for p in out["players"]] == ar.totals(rulebook_engine().state)[0]


def test_one_against_eight_both_ways_and_holding_both():
    engine = sheet(2)
    apply(engine, (ar.HAND, 0, mask([8])), (ar.HAND, 1, mask([1])))
    assert ar.hand_values(ar.held(engine.state, 0)) == [0, 1]
    assert ar.may_score(ar.held(engine.state, 0)) == [False, True]
    apply(engine, (ar.HAND, 4, mask([1])), (ar.HAND, 5, mask([8])))  # the other way round
    assert ar.may_score(ar.held(engine.state, 1)) == [True, False]
    apply(engine, (ar.HAND, 8, mask([1, 8])), (ar.HAND, 9, mask([7])))  # both: the 8 counts
    assert ar.hand_values(ar.held(engine.state, 2)) == [9, 7]


def test_ties_and_nobody_holding_give_the_right_to_several():
    engine = sheet(3)
    apply(engine, (ar.HAND, 0, mask([4])), (ar.HAND, 1, mask([1, 3])), (ar.HAND, 2, mask([2])))
    assert ar.may_score(ar.held(engine.state, 0)) == [True, True, False]
    assert ar.may_score(ar.held(engine.state, 1)) == [True, True, True]  # nobody holds it
    assert ar.scores(engine.state, 1) == [None, None, None]  # three paths to enter
    assert ar.totals(engine.state)[1] == 0  # the first species still waiting


def test_a_card_is_in_one_hand_and_a_hand_holds_seven_cards():
    engine = sheet(3)
    apply(engine, (ar.HAND, 0, mask([3])))
    assert engine.apply((ar.HAND, 1, mask([3, 4]))) == "card_elsewhere"
    apply(engine, (ar.HAND, 4, mask([1, 2, 3])), (ar.HAND, 8, mask([1, 2, 3])))
    assert engine.apply((ar.HAND, 12, mask([1]))) == "hand_over_seven"
    apply(engine, (ar.HAND, 0, 0))  # P1 gives the Oak 3 back: room for one more
    apply(engine, (ar.HAND, 12, mask([1])))
    assert ar.in_hand(engine.state, 0) == 7


@pytest.mark.parametrize(
    "action",
    [
        (ar.HAND, 0, 256),
        (ar.HAND, 0, -1),
        (ar.HAND, 0, 0),  # no change
        (ar.HAND, 3, 1),  # player 4 of 3
        (ar.HAND, 8 * 4, 1),  # species 9 of 8
        (ar.HAND, -1, 1),
        (ar.PATH, 0, 1),  # a single card is no path
        (ar.PATH, 0, 128),
        (ar.PATH, 0, -1),
        (ar.TIE, 0, 0),
        (ar.TIE, 3, 1),
        (ar.TIE, 0, 9),
        (19, 0, 0),
    ],
)
def test_bad_actions_change_nothing(action):
    engine = sheet(3)
    before = json.dumps(engine.state)
    assert engine.apply(action) == "bad_action"
    assert json.dumps(engine.state) == before


@pytest.mark.parametrize(
    ("path", "points"),
    [
        ((8, 1, 1, 1), 19),  # 1 -> 8 of one species: 8 + 8 + 1 + 2
        ((4, 1, 1, 0), 9),  # Clark's Oak
        ((5, 0, 0, 1), 7),  # Clark's Jacaranda: mixed, ends with an 8
        ((4, 0, 0, 0), 4),  # mixed 4 cards: not doubled
        ((3, 1, 0, 0), 3),  # 3 cards of one species: not doubled
        ((2, 0, 1, 1), 5),  # bonuses never doubled
        ((0, 0, 0, 0), 0),  # no path
        ((0, 1, 1, 1), 0),
    ],
)
def test_path_points(path, points):
    assert ar.path_points(code(path)) == points
    if path[0]:  # the CLI scores the same path the same
        species = ["oak" if path[1] else "elm"] * path[0]
        species[0] = species[-1] = "oak"
        first = 1 if path[2] else 2
        values = list(range(first, first + path[0] - 1)) + [8 if path[3] else 7]
        assert (
            arboretum_score.path_score([s + str(v) for s, v in zip(species, values, strict=True)])
            == points
        )


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ((8, 1, 1, 0), "path_too_long"),  # 8 rising values are 1..8
        ((8, 1, 0, 1), "path_too_long"),
        ((7, 0, 0, 0), "path_too_long"),  # neither a 1 nor an 8: at most 2..7
        ((9, 1, 1, 1), "path_too_long"),
        ((7, 0, 1, 0), None),
        ((6, 0, 0, 0), None),
    ],
)
def test_path_length_fits_rising_values(path, reason):
    engine = sheet(2)  # nobody holds anything: everybody may score
    assert engine.apply((ar.PATH, 0, code(path))) == reason


def test_only_players_with_the_right_enter_a_path():
    engine = sheet(2)
    apply(engine, (ar.HAND, 0, mask([5])), (ar.PATH, 0, code((2, 1, 0, 0))))
    assert engine.apply((ar.PATH, 1, code((2, 1, 0, 0)))) == "may_not_score"
    apply(engine, (ar.HAND, 1, mask([6])))  # now player 2 is higher: player 1's path is idle
    assert ar.scores(engine.state, 0) == [-1, None]
    apply(engine, (ar.HAND, 1, mask([1])))  # 1 < 5 again
    assert ar.scores(engine.state, 0) == [2, -1]


def two_tied():
    engine = sheet(2)  # 6 species, nobody holds any: both score every path they enter
    for s in range(6):
        apply(engine, (ar.PATH, s * 4, 0), (ar.PATH, s * 4 + 1, 0))
    apply(engine, (ar.PATH, 0, code((2, 1, 0, 0))), (ar.PATH, 1, code((2, 1, 0, 0))))
    return engine


def test_tie_break_entered_only_when_needed_then_shared():
    engine = two_tied()
    state = engine.state
    assert ar.totals(state) == ([2, 2], -1)
    assert ar.winners(state, [2, 2]) is None  # the species counts are needed
    apply(engine, (ar.TIE, 0, 4))
    assert ar.winners(state, [2, 2]) is None
    apply(engine, (ar.TIE, 1, 5))
    assert ar.winners(state, [2, 2]) == [1]
    apply(engine, (ar.TIE, 0, 5))
    assert ar.winners(state, [2, 2]) == [0, 1]  # still tied: shared
    apply(engine, (ar.PATH, 0, code((3, 1, 0, 0))))  # no tie any more
    assert engine.apply((ar.TIE, 1, 3)) == "no_tie_to_break"
    assert ar.winners(state, [3, 2]) == [0]


def test_undo_redo_and_replay_are_exact():
    engine = rulebook_engine()
    final = json.dumps(engine.state)
    assert engine.undo() and engine.undo()
    assert ar.totals(engine.state)[1] == 7  # the last species lost its paths
    assert engine.redo() and engine.redo()
    assert json.dumps(engine.state) == final == json.dumps(engine.replay())


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("h", [1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),  # one card in two hands
        ("h", [255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),  # 8 cards in hand
        ("pa", [1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]),
        ("ks", [7, 0]),
        ("sp", [0, 0, 1, 2, 3, 4]),
    ],
)
def test_check_catches_broken_states(field, value):
    state = ar.new(2, [0, 1])
    state[field] = value
    with pytest.raises(AssertionError):
        ar.check(state)


# =========================================================== through the App
def started(extra="", players=""):
    board = PureBoard()
    board.script(ENGLISH + ARBORETUM + players + START + extra)
    return board


def test_setup_offers_2_to_4_players_and_the_species_by_their_edition_names():
    board = PureBoard()
    board.script(ENGLISH + ARBORETUM)
    rows = rows_of(board)
    assert rows[0] == "Arboretum scoring" and rows[1].endswith("3")
    board.script("press LEFT\npress LEFT")
    assert board.rows()[4].startswith("Players: out of range")
    board.script("press RIGHT\npress RIGHT\npress RIGHT")
    assert board.rows()[4].startswith("Players: out of range")
    app = board.app
    screen = app.screen()
    labels = [line[1] for line in screen.lines(app)]
    assert labels[6:16] == [
        "Oak", "Willow", "Jacaranda", "Lilac", "Cassia", "Royal Poinciana", "Dogwood",
        "Magnolia", "Maple", "Tulip Poplar",
    ]  # fmt: skip
    board.script("press LEFT\npress LEFT")  # 2 players: 6 species
    assert len(screen.lines(app)) == 2 + 2 + 6 + 1


def test_a_seat_added_never_takes_a_colour_already_taken():
    board = PureBoard()
    board.script(ENGLISH + ARBORETUM + "press DOWN\n" * 4 + "press RIGHT\n")  # P3: yellow
    board.script("press UP\npress UP\npress UP\npress UP\npress RIGHT\n" + START)  # 4 players
    colours = board.app.engine.state["col"]
    assert colours[2] == 3 and len(set(colours)) == 4


def test_a_species_slot_cycles_through_those_not_in_play():
    board = PureBoard()
    board.script(ENGLISH + ARBORETUM + "press DOWN\n" * 5)  # species #1 (Oak)
    board.script("press RIGHT")
    assert rows_of(board)[4].endswith("Maple")  # the next one not among the 8
    board.script("press LEFT")
    assert rows_of(board)[4].endswith("Oak")  # back: Oak is out of play now
    board.script("press LEFT")
    assert rows_of(board)[4].endswith("Blue Spruce")  # the list wraps round
    board.script(START)
    assert board.app.engine.state["sp"] == [11, 1, 2, 3, 4, 5, 6, 7]


def test_french_screens_name_the_species_as_the_french_edition():
    board = PureBoard()
    board.script("press OK\n" + ARBORETUM + "press DOWN\n" * 10)
    assert "Flamboyant" in board.rows()[4]
    board.script(START)
    assert board.rows()[1].startswith("▶Chêne")
    board.script("press DOWN\n" * 7)
    assert "▶Magnol. ♥ ?● ?♣ ?   " in board.rows()


def test_the_species_list_shows_rights_and_paths_per_player():
    board = started()
    rows = rows_of(board)
    assert rows[0] == "Done 0/8          ♥P1"
    assert rows[1] == "▶Oak     ♥ ?● ?♣ ?"  # nobody holds anything yet: all may score
    assert rows[4] == "→ open    OK menu"
    assert board.app.snapshot()["screen"] == "GameScreen"


def test_hands_rights_and_why_on_the_species_screen():
    board = started("press DOWN\n" * 5 + "press RIGHT\n")  # Royal Poinciana
    rows = rows_of(board)
    assert rows[0] == "Poinc.   ▼"
    assert rows[1] == " ♥P1  0* ········   ?"
    walk = Walk().species(HANDS["poinciana"], {})
    board.script(walk.text())
    rows = rows_of(board)
    assert rows[0] == "Poinc.          ▼"  # the column cursor on the 8
    assert rows[1:4] == [
        " ♥P1  6* 1···5···   ?",
        " ●P2  3  ··3·····   -",
        " ♣P3  0  ·······8   -",  # Martha's 8 counts 0: Clark holds the 1
    ]
    board.script("press RIGHT")  # the why column
    rows = rows_of(board)
    assert rows[0] == "Poinc.              ▼"
    assert rows[1:5] == [
        " ♥P1  6* highest    ?",
        " ●P2  3  lower      -",
        " ♣P3  0  8 is 0     -",
        "↑↓ hand   OK paths",
    ]
    leds = board.pixels.leds
    state = board.app.engine.state
    assert leds[state["seat"][0]] == view.COLOURS[0][0]  # the seat that may score: bright
    assert leds[state["seat"][2]] == view.dim(view.COLOURS[2][0], 24)


def test_a_card_slides_from_hand_to_hand_one_undo_step_each():
    board = started("press RIGHT\n")  # Oak, the 1
    board.script("press DOWN\npress DOWN")  # nobody -> P1 -> P2
    assert board.app.engine.state["h"][:3] == [0, 1, 0]
    assert rows_of(board)[2] == " ●P2  1* 1·······   ?"
    board.script("press UP\npress UP")  # back up: P1, then nobody
    assert board.app.engine.state["h"][:3] == [0, 0, 0]
    board.script("press UP")  # from nobody up: the last player
    assert board.app.engine.state["h"][:3] == [0, 0, 1]
    board.script("press BACK\npress BACK")  # to the list, where BACK undoes
    assert board.app.engine.state["h"][:3] == [0, 0, 0]
    assert rows_of(board)[4] == "Undone: ♣P3 Oak"


def test_a_held_slide_goes_two_hands_at_once_as_one_undo_step():
    board = started("press RIGHT\n")  # Oak, the 1
    undo = board.app.snapshot()["undo"]
    board.script("hold DOWN 600")  # nobody -> P2 in one press
    assert board.app.engine.state["h"][:3] == [0, 1, 0]
    assert board.app.snapshot()["undo"] == undo + 1  # one step, not two
    board.script("hold UP 600")  # P2 -> nobody (past P1)
    assert board.app.engine.state["h"][:3] == [0, 0, 0]
    board.script("hold DOWN 1000")  # held on: two hands, then one more (P3)
    assert board.app.engine.state["h"][:3] == [0, 0, 1]
    board.script("press BACK\npress BACK\npress BACK")  # to the list, where BACK undoes
    assert board.app.engine.state["h"][:3] == [0, 0, 0]  # the two steps of that hold
    assert rows_of(board)[4] == "Undone: ●P2 Oak"  # the last undone: nobody -> P2
    board = started("press RIGHT\n", "press RIGHT\n")  # 4 players
    board.script("hold UP 600")  # nobody -> P4 -> P3
    assert board.app.engine.state["h"][:4] == [0, 0, 1, 0]


def willows_with_p2_full():
    """The Willow species with 7 Willows in P2's hand, and the keys to the cursor on the 8."""
    board = started("press RIGHT\nhold RIGHT 600\n")  # Willow
    walk = Walk(col=0)
    for v in range(7):  # P2: 7 Willows
        walk.go(v)
        walk.give(1)
    walk.go(7)
    return board, walk.text()


def test_a_held_slide_onto_a_full_hand_goes_on_past_it():
    board, keys = willows_with_p2_full()
    board.script(keys + "hold DOWN 600")  # the 8: past P2 (full) to P3
    assert ar.held(board.app.engine.state, 1)[2] == [8]
    assert rows_of(board)[4] == "●P2 has 7 cards"


def test_a_slide_with_every_hand_full_moves_nothing_and_says_why():
    board = started("press RIGHT\n")  # Oak, the 1: nobody holds it
    engine = board.app.engine
    for p in range(engine.state["n"]):  # 7 cards of another species in every hand
        apply(engine, (ar.HAND, (p + 1) * 4 + p, mask(range(1, 8))))
    revision = engine.revision
    for keys in ("hold DOWN 600", "press DOWN", "hold UP 600"):
        board.script(keys)  # round the table back to nobody: no step (an empty one made
        assert engine.revision == revision  # the next undo take back the step before it)
        assert ar.held(engine.state, 0) == [[], [], []]
        assert rows_of(board)[4].endswith("has 7 cards")


def test_the_why_of_ties_and_nobody():
    board = started("press DOWN\npress DOWN\npress RIGHT\n")  # Jacaranda
    board.script("press LEFT")  # straight to the why column
    assert rows_of(board)[1:4] == [
        " ♥P1  0* nobody     ?",
        " ●P2  0* nobody     ?",
        " ♣P3  0* nobody     ?",
    ]
    walk = Walk(col=8).species(HANDS["jacaranda"], {})
    walk.go(8)
    board.script(walk.text())
    assert rows_of(board)[1:4] == [
        " ♥P1  7* tied       ?",
        " ●P2  7* tied       ?",
        " ♣P3  0  lower      -",
    ]


def test_the_path_is_scored_as_it_is_built():
    board = started("press RIGHT\npress OK\n")  # Oak: nobody holds it, P1's path first
    assert board.app.snapshot()["screen"] == "PathScreen"
    assert rows_of(board) == [
        "♥P1 Oak           = 0",
        "▶Cards          none",
        " All one species yes",  # yes unless changed: it counts from 4 cards
        " Starts with a 1  no",
        " Ends with an 8   no",
    ]
    board.script("press RIGHT\npress RIGHT\npress RIGHT")
    assert rows_of(board)[0].endswith("= 8") and rows_of(board)[1].endswith(" 4")  # doubled
    board.script("press DOWN\npress RIGHT")
    assert rows_of(board)[0].endswith("= 4")  # mixed species: not doubled
    board.script("press RIGHT\npress DOWN\npress RIGHT\npress DOWN\npress RIGHT")
    assert rows_of(board)[0].endswith("= 11")  # + 1 for the 1, + 2 for the 8
    assert board.app.engine.state["pa"][0] == -1  # kept on the form until OK
    board.script("press UP\npress UP\npress UP" + "\npress RIGHT" * 4)  # 8 cards
    assert rows_of(board)[0].endswith("= 19")
    board.script("press RIGHT")
    assert rows_of(board)[4] == "Setting at its limit"  # 8 values at most
    board.script("wait 3000\npress DOWN\npress DOWN\npress RIGHT")  # no 1 with 8 cards
    assert rows_of(board)[4] == "Too long: 1..8 rising" and rows_of(board)[0].endswith("= ?")
    undo = board.app.snapshot()["undo"]
    board.script("wait 3000\npress OK")  # refused as it stands, still there to fix
    assert rows_of(board)[4] == "Too long: 1..8 rising"
    assert board.app.snapshot()["screen"] == "PathScreen" and board.app.snapshot()["undo"] == undo
    board.script("wait 3000\npress RIGHT\npress OK")  # saved (one step); the next player's path
    assert board.app.engine.state["pa"][0] == 8 + 16 + 32 + 64
    assert board.app.snapshot()["undo"] == undo + 1  # the whole path: one undoable action
    assert rows_of(board)[0].startswith("●P2 Oak")
    board.script("press BACK")
    assert rows_of(board)[1].endswith("19")
    board.script("press BACK")
    assert rows_of(board)[1] == "▶Oak     ♥19● ?♣ ?"


def test_a_path_starts_at_2_cards_when_somebody_holds_the_species():
    board = started("press RIGHT\npress DOWN\npress OK\n")  # Oak: P1 holds the 1
    assert rows_of(board)[:2] == ["♥P1 Oak           = 2", "▶Cards             2"]
    board.script("press LEFT")  # none: no path
    assert rows_of(board)[:2] == ["♥P1 Oak           = 0", "▶Cards          none"]
    board.script("press RIGHT\npress RIGHT\npress OK")  # 3 cards, saved
    assert board.app.engine.state["pa"][0] == 3 + 16
    board.script("hold LEFT 600\npress OK")  # (Willow opened) back to Oak: the path as entered
    assert rows_of(board)[1] == "▶Cards             3"
    board.script("press LEFT\npress LEFT\npress OK\npress OK")  # none saved; opened again
    assert board.app.engine.state["pa"][0] == 0 and rows_of(board)[1] == "▶Cards          none"


def test_a_long_path_is_entered_top_to_bottom_and_a_half_built_one_is_no_entry():
    board = started("press RIGHT\npress OK\n")  # Oak, P1's path
    board.script("press RIGHT\n" * 7)  # 8 cards first, the 1 and the 8 after
    assert rows_of(board)[1].endswith(" 8") and rows_of(board)[0].endswith("= ?")
    board.script("press DOWN\npress DOWN\npress RIGHT\npress DOWN\npress RIGHT")
    # the 8 cards' "too long" moved to the top row with the cursor on the bottom one
    assert rows_of(board)[0] == "Too long: 1..8 rising"
    board.run(3000)  # gone
    assert rows_of(board)[0].endswith("= 19")  # 8 of one species doubled + 1 + 2
    board.script("press BACK")  # left half-built: still to enter, the totals wait for it
    assert board.app.engine.state["pa"][0] == -1 and rows_of(board)[1].endswith("?")
    board.script("press OK\n" + "press RIGHT\n" * 6 + "press DOWN\npress DOWN\npress RIGHT")
    board.script("press OK")  # 7 cards of one species from a 1
    assert board.app.engine.state["pa"][0] == 7 + 16 + 32


def test_ok_on_an_untouched_path_means_no_path_and_back_leaves_it_to_enter():
    board = started("press RIGHT\npress OK\npress BACK\n")
    assert board.app.engine.state["pa"][0] == -1 and rows_of(board)[1].endswith("?")
    board.script("press OK\npress OK")  # P1: no path; P2's comes
    assert board.app.engine.state["pa"][0] == 0 and rows_of(board)[0].startswith("●P2 Oak")
    board.script("press BACK")
    assert rows_of(board)[1].endswith(" 0")
    board.script("press OK\npress LEFT")  # the first still to enter: P2's
    assert rows_of(board)[0].startswith("●P2") and rows_of(board)[4] == "Setting at its limit"


def test_a_full_hand_is_passed_over_with_the_reason():
    board, keys = willows_with_p2_full()
    board.script(keys + "press DOWN\npress DOWN")  # the 8: P1, then past P2 to P3
    assert ar.in_hand(board.app.engine.state, 1) == 7
    assert ar.held(board.app.engine.state, 1)[2] == [8]
    assert rows_of(board)[4] == "●P2 has 7 cards"


def test_hold_left_right_goes_to_the_other_species():
    board = started("press RIGHT\nhold RIGHT 600\n")
    assert rows_of(board)[0].startswith("Willow")
    board.script("hold LEFT 600\nhold LEFT 600")
    assert rows_of(board)[0].startswith("Magnol.")  # round the list


def test_back_on_the_list_undoes_and_hold_back_redoes():
    board = started("press RIGHT\npress DOWN\npress BACK\n")
    assert board.app.engine.state["h"][0] == 1
    board.script("press BACK")
    assert board.app.engine.state["h"][0] == 0 and rows_of(board)[4] == "Undone: ♥P1 Oak"
    board.script("hold BACK 600")
    assert board.app.engine.state["h"][0] == 1 and rows_of(board)[4] == "Redone: ♥P1 Oak"


def test_whole_rulebook_game_through_the_app_into_the_history():
    board = PureBoard()
    board.script(rulebook_script())
    assert board.app.snapshot()["screen"] == "TotalsScreen"  # every species done
    assert rows_of(board)[:4] == ["Totals            ♥P1", "▶♥P1*  19", " ●P2    7", " ♣P3   11"]
    state = board.app.engine.state
    assert json.dumps(state) == json.dumps(rulebook_engine().state | {"seat": state["seat"]})
    assert board.pixels.leds[0] == view.COLOURS[0][0]  # the winner's seat
    board.script("press BACK")
    assert rows_of(board)[0] == "Done 8/8          ♥P1"
    board.script("press UP\npress RIGHT\npress OK\npress OK")  # the totals, end the game: yes
    assert board.app.history[-1][1:5] == ["arboretum", [0, 1, 2], [19, 7, 11], [0]]
    assert board.app.engine is None and board.app.snapshot()["screen"] == "ResultsScreen"
    assert rows_of(board)[1] == "▶ 1 ♥P1*          19"


def test_end_game_waits_for_every_path_then_for_the_tie_break():
    board = started()
    menu_end = "press OK\n" + "press DOWN\n" * 5 + "press OK\npress OK\n"  # no turn items
    board.script("press RIGHT\npress DOWN\npress BACK\n" + menu_end)  # P1 holds the Oak 1
    assert rows_of(board)[4] == "Paths still to enter"
    assert board.app.snapshot()["screen"] == "GameScreen" and board.app.screen().cursor == 0
    # every path: none for all, but a 2-card path for P1 and P2 in Willow: 2 = 2
    script = "press RIGHT\npress OK\npress LEFT\npress OK\n"  # Oak: P1 only, 2 cards: none
    for s in range(1, 8):
        script += "press OK\n"
        for p in range(3):
            script += ("press RIGHT\n" if s == 1 and p < 2 else "") + "press OK\n"
    board.script("wait 3000\n" + script)
    assert board.app.snapshot()["screen"] == "TotalsScreen"  # every species done
    board.script("press OK\npress OK")
    assert rows_of(board)[4] == "Tie: enter species"
    assert board.app.snapshot()["screen"] == "TotalsScreen"
    assert rows_of(board)[:4] == [
        "Totals              ?",
        "▶♥P1    2   species ?",
        " ●P2    2   species ?",
        " ♣P3    0",
    ]
    board.script("wait 3000\npress DOWN\npress DOWN\npress RIGHT")
    assert rows_of(board)[4] == "No tie to break"
    board.script("wait 3000\npress UP\npress UP" + "\npress RIGHT" * 5 + "\npress DOWN")
    board.script("press RIGHT\n" * 5 + "press OK")  # both counts typed, saved by one OK
    assert rows_of(board)[:3] == [  # 5 = 5: shared
        "Totals        ♥P1 ●P2",
        " ♥P1*   2   species 5",
        "▶●P2*   2   species 5",
    ]
    board.script("press LEFT\npress OK")
    assert rows_of(board)[:3] == [
        "Totals            ♥P1",
        " ♥P1*   2   species 5",
        "▶●P2    2   species 4",
    ]
    assert board.pixels.leds[0] == view.COLOURS[0][0]  # the winner's seat lit
    assert board.pixels.leds[4] == view.dim(view.COLOURS[1][0], 24)
    board.script("press OK\npress OK")
    assert board.app.history[-1][3:5] == [[2, 2, 0], [0]]


def test_a_power_cut_in_the_middle_restores_the_game():
    board = started(
        "press DOWN\n" * 5 + "press RIGHT\n" + Walk().species(HANDS["poinciana"], {}).text()
    )
    state = json.dumps(board.app.engine.state)
    board.script("wait 2500\npower-cut\nwait 500\nboot")
    assert json.dumps(board.app.engine.state) == state
    assert board.app.snapshot()["screen"] == "GameScreen"
    assert board.app.stack[0].cursor == 5  # the cursor back on the species, as it was
    board.script("wait 600\npress RIGHT\npress LEFT")  # (BACK sooner: the safe menu)
    assert rows_of(board)[3] == " ♣P3  0  8 is 0     -"
    board.script("press BACK\npress BACK\npress BACK")  # back to the list, then undo twice
    assert ar.hand_values(ar.held(board.app.engine.state, 5)) == [1, 3, 0]  # no 5, no 8
    # each press one step: the 3 went to P1, then on to P2 (two actions, one step)
    assert board.app.engine.log == [
        (ar.HAND, 20, 1), (ar.HAND, 20, 5), (ar.HAND, 20, 1), (ar.HAND + 128, 21, 4)
    ]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_screen_row_fits_and_help_fits(language):
    board = PureBoard()
    board.script(("press DOWN\npress OK\n" if language == "en" else "press OK\n") + ARBORETUM)
    seen = [board.rows()]
    board.script(START)
    for keys in (
        "",
        "press RIGHT",
        "press LEFT",
        "press OK",
        "press DOWN",
        "hold OK 600",
        "press OK\npress BACK\npress BACK\npress UP\npress RIGHT",
        "hold OK 600",
        "press BACK\npress OK\npress OK",
    ):
        board.script(keys)
        seen.append(board.rows())
    for rows in seen:
        assert len(rows) == 5 and all(len(row) == 21 for row in rows), rows
    from potager import lang

    texts = lang.load(language, "arboretum")
    from potager.ui import arboretum, arboretum_species, arboretum_totals

    screens = (
        arboretum.GameScreen,
        arboretum_species.SpeciesScreen,
        arboretum_species.PathScreen,
        arboretum_totals.TotalsScreen,
    )
    for screen in screens:
        for key, text in screen.HELP:
            assert len(key) <= 5 and (len(texts.get(text)) <= 15 or not text.startswith("a.")), text
    for i in range(12):
        assert len(texts.get("a.tree_short" + str(i))) <= 7
        assert len(texts.get("a.tree_name_" + str(i))) <= 16


# ============================================================== MicroPython
# A whole game kept short (the script itself is held in the 128K heap): 3 players, one holder
# per species, a 1-vs-8, a tie on the totals (3 = 3) broken by the species counts (2 > 1).
COMPACT_HANDS = [
    [[8], [], []], [[], [7], []], [[], [], [5]], [[1], [], [8]],
    [[], [6], []], [[], [], [2]], [[], [3], []], [[4], [], []],
]  # fmt: skip
COMPACT_PATHS = [
    {0: (2, 1, 1, 0)}, {1: None}, {2: (2, 0, 0, 0)}, {0: None},
    {1: (3, 0, 0, 0)}, {2: None}, {1: None}, {0: None},
]  # fmt: skip


def compact_script(end=True):
    walk = Walk()
    walk.lines.append("press RIGHT")
    for s in range(8):
        walk.species(COMPACT_HANDS[s], dict(COMPACT_PATHS[s]))  # then the next by itself
    walk.lines += ["press RIGHT", "press RIGHT", "press DOWN", "press RIGHT"]  # totals: 3 = 3
    walk.lines += ["press OK"]  # the species counts typed (2 and 1), saved
    walk.lines += ["press OK"] + ["press OK"] * end  # end the game? yes
    return ENGLISH + ARBORETUM + START + walk.text()


def test_compact_game_ends_with_the_tie_broken():
    board = PureBoard()
    board.script(compact_script())
    assert board.app.history[-1][1:5] == ["arboretum", [0, 1, 2], [3, 3, 2], [0]]


@pytest.mark.micropython
def test_whole_game_under_micropython_fixed_heap_and_idle_loop_allocates_nothing(tmp_path):
    # Up to "End the game and keep the result?"; the next test goes on to the results.
    out = mpy_runner.run_app(compact_script(end=False), tmp_path)
    board = PureBoard()
    board.script(compact_script(end=False))
    assert board.app.snapshot()["screen"] == "ConfirmScreen"
    assert ar.winners(board.app.engine.state, [3, 3, 2]) == [0]
    assert out["snapshot"] == board.app.snapshot()
    assert out["rows"] == board.rows()
    assert out["idle_growth_bytes"] == 0


@pytest.mark.micropython
def test_whole_game_to_the_results_under_micropython(tmp_path):
    out = mpy_runner.run_app(compact_script(end=True), tmp_path)
    board = PureBoard()
    board.script(compact_script(end=True))
    assert board.app.snapshot()["screen"] == "ResultsScreen"
    assert out["snapshot"] == board.app.snapshot()
    assert out["rows"] == board.rows()


@pytest.mark.micropython
def test_mid_game_idle_loop_allocates_nothing_under_micropython(tmp_path):
    out = mpy_runner.run_app(DEMO.read_text(), tmp_path)  # ends on the species screen
    assert out["idle_growth_bytes"] == 0


# ================================================================ simulator
def test_demo_in_the_simulator():
    from host_tools.sim import SimBoard

    board = SimBoard()
    result = board.run_script(DEMO.read_text())
    assert not result.crashes
    assert result.frames[-1]["screen"] == [
        "Poinc.              ▼",
        " ♥P1  6* highest    3",
        " ●P2  3  lower      -",
        " ♣P3  0  8 is 0     -",
        "↑↓ hand   OK paths   ",
    ]
    leds = board.leds()
    lit = [i for i, c in enumerate(leds) if c != "#000000"]
    assert lit == [0, 4, 8]  # the three seats
    red = int(leds[0][1:3], 16)
    assert red > 4 * int(leds[4][5:7], 16)  # Clark may score: bright; the others dim


def test_whole_rulebook_game_in_the_simulator():
    from host_tools.sim import SimBoard

    script = "wait 3000\n" + rulebook_script() + "press RIGHT\nwait 3000\n"  # start-up
    board = SimBoard()
    result = board.run_script(script)
    assert not result.crashes
    rows = result.frames[-1]["screen"]
    assert [row.rstrip() for row in rows[:4]] == [
        "Totals            ♥P1",
        "▶♥P1*  19",
        " ●P2    7",
        " ♣P3   11",
    ]
    leds = board.leds()
    assert leds[0].startswith("#") and int(leds[0][1:3], 16) > 0x30  # Clark's seat, red
    assert leds[4] != "#000000" and leds[8] != "#000000"
    result = board.run_script("wait 4000\npress OK\npress OK\nwait 1000\n")  # after a reboot
    rows = result.frames[-1]["screen"]
    assert rows[0].startswith("Done 8/8")  # the game came back from the NVM


# ==================================================================== fuzz
@pytest.mark.parametrize("seed", range(3))
def test_random_presses_in_the_mode_keep_every_invariant_and_undo_exact(seed, monkeypatch):
    import random

    import potager.app
    from potager.core.engine import clone

    applied = [0]

    class Counting(Engine):
        def apply(self, action):
            reason = Engine.apply(self, action)
            applied[0] += reason is None
            return reason

    monkeypatch.setattr(potager.app, "Engine", Counting)
    rng = random.Random(seed)
    board = started()
    keys = ["UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN"]
    for _ in range(2500):
        engine = board.app.engine
        if board.app.mode != "arboretum":
            board = started()
            continue
        before, revision, count = clone(engine.state), engine.revision, applied[0]
        if rng.random() < 0.003:
            board.script("power-cut\nwait 200\nboot")
        else:
            key = rng.choices(keys, [3, 4, 5, 5, 6, 2, 1])[0]
            board.key(key, 80 if rng.random() < 0.85 else rng.choice([600, 1000]))
        assert len(board.rows()) == 5 and all(len(row) == 21 for row in board.rows())
        assert all(type(c) is int and 0 <= c <= 0xFFFFFF for c in board.pixels.leds)
        if board.app.engine is not None and board.app.mode == "arboretum":
            ar.check(board.app.engine.state)
        one = board.app.engine is engine and engine.revision == revision + 1
        if one and applied[0] == count + 1:  # one action applied: undo and redo are exact
            after = clone(engine.state)
            assert engine.undo() and engine.state == before
            assert engine.redo() and engine.state == after


def test_the_totals_name_no_winner_while_a_path_is_still_to_enter():
    board = started("press RIGHT\npress LEFT\npress OK\npress RIGHT\npress OK\npress BACK\n")
    board.script("press BACK\npress UP\npress RIGHT")  # the list, its totals row (the last)
    assert board.app.snapshot()["screen"] == "TotalsScreen"
    rows = rows_of(board)
    assert rows[0] == "Totals              ?" and rows[1].startswith("▶♥P1    2")
    assert "*" not in "".join(rows[1:4])  # P1 leads, but the others' paths are to enter
    assert board.app.screen().lit == 0  # and the ring lights no winner


def tied_totals():
    """A 3-player game on its totals: P1 and P2 tied on 2 (a 2-card Willow path each), P3 0."""
    board = started("press RIGHT\npress DOWN\npress BACK\n")  # P1 holds the Oak 1
    script = "press RIGHT\npress OK\npress LEFT\npress OK\n"  # Oak: P1 only, 2 cards: none
    for s in range(1, 8):
        script += "press OK\n"
        for p in range(3):
            script += ("press RIGHT\n" if s == 1 and p < 2 else "") + "press OK\n"
    board.script("wait 3000\n" + script + "wait 3000")
    assert board.app.snapshot()["screen"] == "TotalsScreen"
    return board


def test_the_totals_name_no_winner_while_a_species_count_is_being_typed():
    # issue #36: "♥P1* 3 species 4" while P2's count still read 1. A count is typed on the
    # screen and saved by OK; the ranking waits for every tied player's count, saved.
    board = tied_totals()

    def winner_free(rows):
        return rows[0] == "Totals              ?" and "*" not in "".join(rows[1:4])

    board.script("press RIGHT\n" * 4)  # P1: 4 species, typed
    rows = rows_of(board)
    assert winner_free(rows) and board.app.screen().lit == 0
    assert rows[1:3] == ["▶♥P1    2  species 4?", " ●P2    2   species ?"]
    assert rows[4] == "OK: save the counts"
    assert board.app.engine.state["ks"] == [0, 0, 0]  # nothing saved while it is typed
    board.script("press OK\npress DOWN\npress RIGHT")  # P1's saved; P2 types 1 (of 5)
    rows = rows_of(board)
    assert winner_free(rows) and board.app.screen().lit == 0, rows  # not "♥P1*" yet
    assert rows[1:3] == [" ♥P1    2   species 4", "▶●P2    2  species 1?"]
    board.script("press RIGHT\n" * 4)  # 5
    assert winner_free(rows_of(board)) and board.app.screen().lit == 0
    board.script("press OK")  # saved: now the ranking is final
    rows = rows_of(board)
    assert rows[:3] == ["Totals            ●P2", " ♥P1    2   species 4", "▶●P2*   2   species 5"]
    assert rows[4] == "OK: end the game" and board.app.screen().lit == 2
    assert board.app.engine.log[-2:] == [(ar.TIE, 0, 4), (ar.TIE, 1, 5)]  # a step a count
    board.script("press LEFT\npress BACK")  # 4 typed, BACK: not saved
    assert board.app.engine.state["ks"] == [4, 5, 0]
    board.script("press UP\npress RIGHT")  # the totals again (the list's last row)
    assert rows_of(board)[:3] == [
        "Totals            ●P2", "▶♥P1    2   species 4", " ●P2*   2   species 5"
    ]  # fmt: skip
