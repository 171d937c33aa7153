"""HORTIS counter on the device: the reducer (quick counts of both games, the live count of
HORTIS Automne, the recipe challenge, several players, limits, undo), the screens through the
real App (setup, quick count, live grid and its events, result, records, refusals, power cuts,
both languages), a whole game under MicroPython with the heap budget, and in the simulator.
Rules: the shared rules/hortis.md; the host CLI is tested in test_score_hortis / _cli / _golden."""

import json
import sys
from pathlib import Path

import mpy_runner
import pytest

from host_tools import score as cli
from host_tools.mpy.pureboard import PureBoard
from potager import lang
from potager.core import table
from potager.core.engine import Engine
from potager.core.games import hortis as h
from potager.core.games import hortis_score as hs
from potager.ui import view

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "docs" / "scripts" / "hortis.txt"
LANG = ROOT / "firmware" / "potager" / "lang"

ENGLISH = "press DOWN\npress OK\n"
HORTIS = "press DOWN\n" * 3 + "press OK\n"  # the 4th mode on the home screen
LIVE = "press DOWN\npress RIGHT\n"  # Count: quick -> live
START = "press OK\n"  # OK on any field starts
AGAIN = "press OK\n"  # the setup's first line after a game: "Same as last time"
TO_RESULT_END = ""  # a result opens on End game (without the recipe challenge)

# The demo (docs/scripts/hortis.txt) is the live count up to card 8; then card 9 and the end:
CARD_9 = """
press TURN
press LEFT
press OK
press UP
press OK
press TURN
"""  # brown 6 -> 10, a new brown die (UP: on the brown reserve slot where it goes)


def board_after(script, board=None):
    board = board or PureBoard()
    board.script(script)
    return board


def state_of(board):
    return board.app.engine.state


def act_all(engine, actions):
    for action in actions:
        assert engine.apply(action) is None, action


def worth(score):
    """Quick-count actions for HORTIS Automne dice worth `score` (the highest faces first)."""
    out = []
    for i in (4, 3, 2, 1, 0):
        count, score = divmod(score, h.AUTOMNE_FACES[i])
        if count:
            out.append((h.FIELD, i, count))
    return out


# ------------------------------------------------------------------------------ the rules
def test_new_state_for_each_setup():
    quick = h.new(1, [0])
    assert (quick["g"], quick["lv"], quick["rc"], quick["q"]) == (0, 0, 0, [[0] * 8])
    assert "d" not in quick and quick["rnd"] == 1
    grove = h.new(2, [0, 1], 0, g=1, lv=1, rc=1)  # a live count is for Automne only
    assert (grove["g"], grove["lv"], grove["rc"], grove["q"]) == (1, 0, 1, [[0] * 10] * 2)
    assert grove["bo"] == [0, 0] and grove["mu"] == [1, 1] and grove["tg"] == 0
    live = h.new(3, [0, 1, 2], 0, lv=1)
    assert live["d"] == [[0] * 15] * 3 and live["pw"] == [0, 0, 0]
    assert (live["end"], live["rnd"]) == (0, 2)  # card 1 starts the forest
    for state in (quick, grove, live):
        h.check(state)
        json.dumps(state)


QUICK_AUTOMNE = [(0, 1), (1, 2), (2, 2), (3, 1), (4, 1), (5, 2), (6, 1), (7, 1)]


def test_quick_automne_scores_as_the_cli():
    engine = Engine(h, h.new(1, [0]))
    act_all(engine, [(h.FIELD, f, v) for f, v in QUICK_AUTOMNE])
    state = engine.state
    cli_out = hs.score_automne(
        {
            "dice": {"1": 1, "3": 2, "6": 2, "10": 1, "15": 1},
            "split_zone_dice": 1,
            "mouse_face_dice": 2,
            "mouse_pawn": True,
        }
    )
    assert h.score(state, 0) == cli_out["score"] == 34
    assert h.dice_used(state, 0) == cli_out["dice_used"] == 9


def test_quick_grove_scores_as_the_cli():
    engine = Engine(h, h.new(1, [0], 0, g=1))
    fields = [(0, 1), (2, 2), (3, 1), (4, 1), (5, 2), (6, 3), (7, 1), (8, 1), (9, 2)]
    act_all(engine, [(h.FIELD, f, v) for f, v in fields])
    cli_out = hs.score_grove(
        {
            "dice": {"2": 1, "4": 2, "5": 1, "6": 1, "10": 2},
            "glade_dice": 3,
            "wheelbarrow": True,
            "squirrel": True,
            "squirrel_adjacent_dice": 2,
        }
    )
    assert h.score(engine.state, 0) == cli_out["score"] == 53
    assert h.dice_used(engine.state, 0) == cli_out["dice_used"] == 10


def nine_cards():
    """The golden live game (tests/golden/hortis-live-nine-cards.json), refusals left out."""
    case = json.loads(
        (Path(__file__).parent / "golden" / "hortis-live-nine-cards.json").read_text()
    )
    engine = Engine(h, h.new(**case["setup"]))
    for step in case["steps"]:
        if "do" in step and "refused" not in step:
            name, a, b = step["do"] + [0] * (3 - len(step["do"]))
            op = getattr(table, name.upper(), None) or getattr(h, name.upper())
            assert engine.apply((op, a, b)) is None
    return engine


def test_live_count_scores_the_forest():
    state = nine_cards().state
    # green 15 3 3, yellow 6 3 (off its split zone) mouse 1 1, brown 10; the pawn
    assert h.score(state, 0) == 15 + 3 + 3 + 6 + 3 - 2 + 1 + 1 + 10 - 5 == 35
    assert h.dice_used(state, 0) == 9
    assert state["end"] == 1
    assert h.band(state["g"], 35)["title_fr"] == "Appuyez sur le Champignon."


def test_live_die_on_a_split_zone_and_a_mouse_face_on_one_cost_both():
    engine = Engine(h, h.new(1, [0], 0, lv=1))
    act_all(engine, [(h.NEW, 0, 0), (h.SPLIT, 0, 0), (h.MOUSE_FACE, 0, 5 + 16)])
    assert engine.state["d"][0][:6] == [9, 0, 0, 0, 0, 14]
    assert h.score(engine.state, 0) == 1 - 1 - 2 - 1
    act_all(engine, [(h.UPGRADE, 0, 0)])  # moved onto a matching food zone: off the split zone
    assert engine.state["d"][0][0] == 2 and h.score(engine.state, 0) == 3 - 2 - 1


def test_upgrades_go_1_3_6_10_15_and_the_basket_stays():
    engine = Engine(h, h.new(1, [0], 0, lv=1))
    act_all(engine, [(h.NEW, 0, 0)] + [(h.UPGRADE, 0, 0)] * 5)
    assert engine.state["d"][0][0] == 5 and h.score(engine.state, 0) == 15


def test_the_reserve_of_five_per_colour():
    engine = Engine(h, h.new(1, [0], 0, lv=1))
    act_all(engine, [(h.NEW, 0, 5)] * 4 + [(h.MOUSE_FACE, 0, 9)])  # 5 yellow dice
    assert engine.state["d"][0][5:10] == [1, 1, 1, 1, 6]
    for action in ((h.NEW, 0, 5), (h.MOUSE_FACE, 0, 7), (h.MOUSE_FACE, 0, 7 + 16)):
        assert engine.apply(action) == "hortis_colour_out"
    assert engine.apply((h.PAWN_OUT, 0, 0)) == "hortis_dice_left"  # green dice are left
    act_all(engine, [(h.PAWN_OUT, 0, 1)])  # none of yellow: the mouse pawn instead
    assert engine.apply((h.PAWN, 0, 9)) == "hortis_pawn_used"  # once per game
    act_all(engine, [(h.RESERVE, 0, 6)])  # back to the reserve: a yellow die is free again
    act_all(engine, [(h.NEW, 0, 9)])  # slot 9 is taken: the colour's free one
    assert engine.state["d"][0][5:10] == [1, 1, 1, 1, 6]


@pytest.mark.parametrize(
    ("score", "titles"),
    [
        (29, ("Vous foncez droit dans la Mûre…", "Straight into the brambles…")),
        (30, ("Vous Forêt mieux la prochaine fois.", "You'll forage better next time.")),
        (34, ("Vous Forêt mieux la prochaine fois.", "You'll forage better next time.")),
        (35, ("Appuyez sur le Champignon.", "Step on the mushroom.")),
        (39, ("Appuyez sur le Champignon.", "Step on the mushroom.")),
        (40, ("Vous Châtaignez votre but !", "You nut-ed your goal!")),
        (44, ("Vous Châtaignez votre but !", "You nut-ed your goal!")),
        (45, ("La victoire vous Souris !", "Victory smiles (mice) at you!")),
        (49, ("La victoire vous Souris !", "Victory smiles (mice) at you!")),
        (50, ("Bravo ! Vous êtes im-Baie-ttable !!!", "Bravo! You're un-berry-able!!!")),
    ],
)
def test_every_automne_band_boundary_on_the_result_screen(score, titles):
    board = board_after(ENGLISH + HORTIS + START)
    engine = board.app.engine
    act_all(engine, worth(score))
    assert h.score(engine.state, 0) == score
    board.script("press OK\n" + "press DOWN\n" * 12)  # the result, every row
    rows = " ".join(" ".join(board.app.screen().items(board.app)).split())
    assert titles[1] in rows and titles[0] in rows
    assert rows.index(titles[1]) < rows.index(titles[0])  # the screen's language first


@pytest.mark.parametrize(
    ("score", "title"),
    [(39, "Pith-iful"), (40, "You need a pip talk"), (44, "You need a pip talk"),
     (45, "Juiced enough"), (49, "Juiced enough"), (50, "Jaffa-bulous"), (54, "Jaffa-bulous"),
     (55, "Sub-lime"), (59, "Sub-lime"), (60, "You're the zest!")],
)  # fmt: skip
def test_every_grove_band_boundary(score, title):
    assert h.band(1, score)["title_en"] == title


@pytest.mark.parametrize(
    ("score", "bonus", "multiplier", "target", "final", "won"),
    [(34, 5, 1, 45, 39, False), (40, 5, 1, 45, 45, True), (20, 2, 2, 45, 44, False),
     (20, 3, 2, 45, 46, True)],
)  # fmt: skip
def test_recipe_verdict_on_the_device(score, bonus, multiplier, target, final, won):
    engine = Engine(h, h.new(1, [0], 0, rc=1))
    act_all(engine, worth(score))
    act_all(engine, [(h.FIELD, 16, bonus), (h.FIELD, 17, multiplier), (h.FIELD, 18, target)])
    assert h.final(engine.state, 0) == (final, won)


def test_winner_is_the_best_final_then_the_most_dice_used():
    engine = Engine(h, h.new(3, [0, 1, 2]))
    # 30 each: P1 two baskets, P2 ten 3s, P3 ten 3s; most dice used: P2 and P3 share
    act_all(engine, [(h.FIELD, 4, 2), (h.FIELD, 32 + 1, 10), (h.FIELD, 64 + 1, 10)])
    state = engine.state
    scores = [h.score(state, p) for p in range(3)]
    used = [h.dice_used(state, p) for p in range(3)]
    assert scores == [30, 30, 30] and used == [2, 10, 10]
    assert h.winners([0, 1, 2], scores, used) == [1, 2]


BAD = [
    ("quick", (h.NEW, 0, 0), "bad_action"),  # dice moves are the live count's
    ("quick", (h.FIELD, 32, 1), "bad_action"),  # no player 2
    ("quick", (h.FIELD, 8, 1), "bad_action"),  # Automne has 8 fields
    ("quick", (h.FIELD, 0, 16), "hortis_too_many_dice"),
    ("quick", (h.FIELD, 6, 1), "hortis_split_over"),  # no die to be on a split zone
    ("quick", (h.FIELD, 5, -1), "hortis_below_zero"),
    ("quick", (h.FIELD, 16, 1), "bad_action"),  # no recipe challenge
    ("quick", (table.ROUND, 1, 0), "hortis_no_rounds"),  # a quick count has no rounds
    ("quick", (table.NEXT, 3, 0), "hortis_solo"),
    ("live", (h.FIELD, 0, 1), "bad_action"),  # the quick count's fields
    ("live", (h.UPGRADE, 0, 0), "hortis_no_die"),
    ("live", (h.SPLIT, 0, 3), "hortis_no_die"),
    ("live", (h.RESERVE, 0, 14), "hortis_no_die"),
    ("live", (h.PAWN, 0, 0), "hortis_no_die"),
    ("live", (h.NEW, 1, 0), "bad_action"),
    ("live", (h.NEW, 0, 15), "bad_action"),
    ("live", (h.NEW, 0, 16), "bad_action"),  # + 16 (split zone) is for a mouse face
    ("live", (h.MOUSE_FACE, 0, -1), "bad_action"),
    ("live", (h.PAWN_OUT, 0, 3), "bad_action"),
    ("live", (h.FIELD + 1, 0, 0), "bad_action"),
    ("live", (table.ROUND, -1, 0), "hortis_card_limit"),
    ("live", (h.NEW, 0, 1), "hortis_die_gap"),  # a free slot before it: no gap before a die
    ("live", (h.MOUSE_FACE, 0, 14 + 16), "hortis_die_gap"),
]


@pytest.mark.parametrize(("kind", "action", "reason"), BAD)
def test_bad_actions_change_nothing(kind, action, reason):
    state = h.new(1, [0], 0, lv=1 if kind == "live" else 0)
    before = json.dumps(state, sort_keys=True)
    assert h.reduce(state, action) == reason
    assert json.dumps(state, sort_keys=True) == before


def test_undo_redo_and_replay_are_exact():
    engine = nine_cards()
    final = json.dumps(engine.state, sort_keys=True)
    while engine.undo():
        pass
    assert engine.state == h.new(1, [2], 0, lv=1)
    while engine.redo():
        pass
    assert json.dumps(engine.state, sort_keys=True) == final
    assert engine.replay() == engine.state


@pytest.mark.parametrize(
    ("kind", "field", "value"),
    [("quick", "q", [[16, 0, 0, 0, 0, 0, 0, 0]]), ("quick", "q", [[0] * 7]),
     ("quick", "tg", 200), ("quick", "mu", [0]), ("quick", "bo", [-1]),
     ("live", "d", [[7] + [0] * 14]), ("live", "d", [[8] + [0] * 14]),
     ("live", "pw", [2]), ("live", "rnd", 1), ("live", "rnd", 10), ("live", "end", 2),
     ("quick", "g", 2), ("quick", "lv", 1)],
)  # fmt: skip
def test_check_catches_broken_states(kind, field, value):
    state = h.new(1, [0], 0, lv=1 if kind == "live" else 0)
    h.check(state)
    state[field] = value
    with pytest.raises((AssertionError, KeyError)):
        h.check(state)


def test_score_cli_bad_inputs_name_the_field(tmp_path, capsys):
    bad = [
        ("hortis-automne", {"dice": {"15": 10, "1": 6}, "mouse_pawn": False}, "mouse_face_dice"),
        ("hortis-automne", {"dice": {"2": 1}, "mouse_face_dice": 0, "mouse_pawn": False}, "dice.2"),
        ("hortis-automne", {"dice": {}, "mouse_face_dice": 1, "split_zone_dice": 2,
                            "mouse_pawn": False}, "split_zone_dice"),
        ("hortis", {"dice": {"10": 16}, "wheelbarrow": False, "squirrel": False}, "dice.10"),
        ("hortis", {"dice": {"2": 1}, "wheelbarrow": 1, "squirrel": False}, "wheelbarrow"),
        ("hortis", {"dice": {"2": 1}, "wheelbarrow": False, "squirrel": False,
                    "squirrel_adjacent_dice": 1}, "squirrel_adjacent_dice"),
        ("hortis", {"players": [{"name": "A", "dice": {}, "wheelbarrow": False,
                                 "squirrel": False, "recipes": {"target": 40}},
                                {"name": "B", "dice": {}, "wheelbarrow": False,
                                 "squirrel": False, "recipes": {"target": 41}}]}, "target"),
    ]  # fmt: skip
    for game, data, field in bad:
        f = tmp_path / "in.json"
        f.write_text(json.dumps(data))
        assert cli.main([game, str(f)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and field in err and err.count("\n") == 1, (game, err)


# ----------------------------------------------------------------------- the screens (App)
def test_setup_offers_the_game_the_count_players_recipes_and_colours():
    board = board_after(ENGLISH + HORTIS)
    rows = board.rows()
    assert rows[0].startswith("HORTIS counter")
    assert rows[1] == "▶Game Automne/Forage "
    assert rows[2] == " Count         quick "
    assert rows[3] == " Players           1 "
    assert rows[4] == " Recipes         off "
    board.script("press RIGHT\npress DOWN\npress RIGHT")  # HORTIS (Grove): no live count
    assert board.rows()[1] == " Game   HORTIS/Grove "
    assert board.rows()[4] == "Live count: Automne  "
    assert board.pixels.leds[0] == view.dim(view.RED, 60)  # the refusal's red flash


def test_quick_count_updates_the_score_and_refuses_with_a_message():
    board = board_after(ENGLISH + HORTIS + START)
    assert board.rows()[0].startswith("Score 0") and board.rows()[0].endswith("♥P1")
    board.script("press DOWN\n" * 4 + "press RIGHT\npress RIGHT")  # two baskets
    assert board.rows()[0].startswith("Score 30")
    assert board.rows()[4] == "▶Basket 15         2 "
    board.script("hold RIGHT 6000")  # held: +1 every 400 ms, up to the 15 dice
    assert state_of(board)["q"][0][4] == 15
    assert board.rows()[0] == "15 dice at most      "  # off the cursor's row (the bottom)
    board.script("wait 2600")
    assert board.rows()[0].startswith("Score 225")
    board.script("press DOWN\npress DOWN\npress RIGHT")  # no die can take a split zone more
    assert state_of(board)["q"][0][6] == 1
    board.script("press DOWN\npress RIGHT")  # the mouse pawn
    assert state_of(board)["q"][0][7] == 1 and board.rows()[0].startswith("Score 219")
    board.script("press BACK")  # undo
    assert state_of(board)["q"][0][7] == 0 and board.rows()[0] == "Undone: count        "


def test_the_grove_form_and_its_squirrel():
    board = board_after(ENGLISH + HORTIS + "press RIGHT\n" + START)
    items = board.app.screen().load().rows(board.app.screen(), board.app)
    assert items[1] == "▶Face 2            0 "
    board.script("press UP\npress RIGHT")  # next to the squirrel: not out
    assert board.rows()[0] == "No squirrel out      "  # the cursor is on the bottom row
    board.script("press UP\npress RIGHT\nwait 2600")  # the squirrel; the message gone
    assert board.rows()[4] == "▶Squirrel        yes "
    assert board.rows()[0].startswith("Score -1")


def test_the_live_grid_and_its_ring():
    board = board_after(DEMO.read_text())
    assert board.rows() == [
        "Card 8/9   27 pts ♥P1",
        "G 15   1   1   ·   · ",
        "Y  6   3  -2   1   1 ",
        "B  6 ▶ ·   ·   ·   · ",  # after an event, the next colour, at its reserve
        "Mouse pawn: placed -5",
    ]
    leds = board.pixels.leds
    assert leds[:7] == [view.dim(0xFF0000, table_level("SEAT"))] * 7  # cards 1-7 played
    assert leds[7] in (0xFF0000, view.dim(0xFF0000, table_level("SEAT")))  # card 8 blinks
    assert leds[8:] == [0] * 4


def table_level(name):
    from potager.ui import table as ui_table

    return getattr(ui_table, name + "_LEVEL")


def test_events_of_a_die_and_the_help():
    board = board_after(DEMO.read_text())
    board.script("press DOWN\npress LEFT\nhold RIGHT 600")  # the events of a green 1
    assert board.rows() == [
        "Green 1              ",
        "▶Upgrade 1→3         ",
        " Onto a split zone   ",
        " Back to the reserve ",
        " Result ►            ",
    ]
    board.script("press BACK\npress DOWN\npress OK")  # the yellow mouse face
    assert board.rows()[1:3] == ["▶Mouse pawn on it    ", " New die (1)         "]
    board.script("press OK")  # the pawn is already in the forest
    assert board.rows()[4] == "Mouse pawn used      "
    board.script("press BACK\nhold OK 600")
    rows = board.rows()
    assert rows[0].startswith("Help") and rows[1] == "▶▲▼   dice colour    "


def test_whole_live_game_to_the_result_records_and_history():
    board = board_after(DEMO.read_text() + CARD_9)
    rows = board.rows()
    assert rows[0] == "Result            ♥P1"
    # the result opens on the end of the game, with the score above and the title below
    assert rows[1:] == [
        " Score             32",
        "▶End game ►          ",
        " You'll forage better",
        " next time.          ",
    ]
    assert state_of(board)["end"] == 1
    board.script("press TURN")  # the count is over: TURN shows the same result
    board.script(TO_RESULT_END + "press OK\npress OK\nwait 100")  # End game, yes
    assert board.rows()[:5] == [
        "New best!            ",
        "▶Best Automne      32",
        " Best HORTIS        -",
        " Last results:       ",
        "  Automne          32",
    ]
    assert board.app.engine is None
    assert board.app.history[-1][1:5] == ["hortis-automne", [0], [32], [0]]
    assert board.app.records["hortis"] == {"b": [32, None], "rec": [[0, 32]]}
    board.script("press BACK")
    assert board.rows()[0].startswith("Results") and "32" in board.rows()[1]


def quick_game(board, baskets):
    """From the home screen: a quick count of HORTIS Automne worth 15 x baskets, ended; home."""
    again = board.app.records.get("last_setups")  # a game before: the same in one press
    board.script(HORTIS + (AGAIN if again else START) + "press DOWN\n" * 4)
    board.script("press RIGHT\n" * baskets)
    board.script("press OK\n" + TO_RESULT_END + "press OK\npress OK\nwait 3000\n")
    board.script("press BACK\npress BACK\n")  # the records, the results: home


def test_records_survive_a_reboot_and_keep_the_best_and_the_last_ten():
    board = board_after(ENGLISH)
    quick_game(board, 3)
    board.script("power-cut\nwait 500\nboot\nwait 1000")
    assert board.app.records["hortis"] == {"b": [45, None], "rec": [[0, 45]]}
    for baskets in [1] + [0] * 9:
        quick_game(board, baskets)
    board.script("power-cut\nwait 500\nboot\nwait 1000")
    rec = board.app.records["hortis"]
    assert rec == {"b": [45, None], "rec": [[0, 0]] * 9 + [[0, 15]]}  # the 45 is 11th: gone
    assert len(json.dumps(rec)) < 200
    assert len(board.app.history) == 11
    board.script(HORTIS + START + "press OK\n")  # a new game's result
    for _ in range(8):  # down past the title to the best
        board.script("press DOWN")
        if "▶Best" in "".join(board.rows()):
            break
    assert "▶Best              45" in board.rows()


def test_a_power_cut_in_the_middle_restores_the_game():
    board = board_after(DEMO.read_text())
    before, rows = json.dumps(state_of(board)), board.rows()
    board.script("power-cut\nwait 1000\nboot\nwait 1000")
    assert json.dumps(state_of(board)) == before
    assert board.rows()[0] == rows[0]
    assert [r.replace("▶", " ") for r in board.rows()[1:]] == [
        r.replace("▶", " ") for r in rows[1:]
    ]
    board.script("press BACK")  # the undo history was saved too: card 8's yellow 1 -> 3
    assert state_of(board)["d"][0][6] == 9  # (on a split zone)


TWO_LIVE = ENGLISH + HORTIS + LIVE + "press DOWN\npress RIGHT\n" + START  # two forests


def test_each_forest_has_its_cursor_and_a_new_die_never_leaves_a_gap():
    # the bug: one cursor for every forest; P2's first OK put a die in P1's column: `G · 1`
    board = board_after(TWO_LIVE + "press OK\npress OK\npress OK\npress TURN")  # P1: G Y B
    assert board.rows()[0].endswith("●P2") and board.rows()[1] == "G▶ ·   ·   ·   ·   · "
    board.script("press OK")
    assert state_of(board)["d"][1][:5] == [1, 0, 0, 0, 0] and board.rows()[2].startswith("Y▶")
    board.script("press TURN")  # card 3: P1's forest and P1's cursor, where P1 left it
    assert board.rows()[1] == "G  1 ▶ ·   ·   ·   · "
    board.script("press RIGHT")  # past the last reserve slots: onto the first die
    assert board.rows()[1] == "G▶ 1   ·   ·   ·   · "
    board.script("press LEFT\npress LEFT")  # the first reserve slot, then the die again
    assert board.rows()[1] == "G▶ 1   ·   ·   ·   · "
    board.script("press RIGHT\npress OK")
    assert state_of(board)["d"][0][:5] == [1, 1, 0, 0, 0]
    board.script("press UP\npress RIGHT\npress RIGHT\npress OK")  # reserve slot, 1st, 2nd die
    assert state_of(board)["d"][0][:5] == [1, 2, 0, 0, 0]  # the second die 1 -> 3
    board.script("press TURN\npress UP\npress OK")  # P2, on yellow as P2 left it: green
    assert state_of(board)["d"][1][:5] == [1, 1, 0, 0, 0]
    board.script("press UP\npress BACK")  # on green's reserve slot; that die undone: the
    # cursor goes back onto the slot where a new die goes
    assert board.rows()[1] == "G  1 ▶ ·   ·   ·   · "
    assert not board.app.act((h.NEW, 1, 3))  # the rules refuse a gap, with a message
    board.run(20)
    assert board.rows()[4].startswith("No gap before a die")
    assert state_of(board)["d"][1][:5] == [1, 0, 0, 0, 0]


@pytest.mark.parametrize("restart", ["power-cut\nwait 500\nboot", "reload"])
def test_each_forest_keeps_its_cursor_across_a_power_cut_and_a_reload(restart):
    board = board_after(TWO_LIVE + "press UP\npress OK\npress TURN")  # P1: brown; on green
    board.script("press OK\npress OK\nwait 3000")  # P2: green, yellow; on brown
    before = board.rows()
    assert before[3] == "B▶ ·   ·   ·   ·   · "
    board.script(restart + "\nwait 1000")
    assert board.rows() == before  # P2's cursor where P2's last die move left it
    board.script("press OK\npress TURN")  # P2's brown die; card 3: P1's cursor, P1's forest
    assert board.rows()[1:4] == ["G▶ ·   ·   ·   ·   · ", "Y  ·   ·   ·   ·   · ",
                                 "B  1   ·   ·   ·   · "]  # fmt: skip
    board.script("press TURN\nwait 3000\n" + restart + "\nwait 1000")  # P2: on green
    assert board.rows()[1] == "G  1 ▶ ·   ·   ·   · "
    assert state_of(board)["d"][1] == [1, 0, 0, 0, 0] * 3


def test_result_screen_takes_the_recipe_challenge():
    board = board_after(ENGLISH + HORTIS + "press DOWN\npress DOWN\npress DOWN\npress RIGHT\n")
    board.script(START + "press DOWN\n" * 4 + "press RIGHT\n" * 3 + "press OK")  # 45
    # the result opens on the bonus, the score above it
    assert board.rows()[1:3] == [" Score             45", "▶Bonus            ◄0►"]
    board.script("press RIGHT\npress DOWN\npress RIGHT\npress DOWN\nhold RIGHT 1000")
    state = state_of(board)
    assert (state["bo"], state["mu"], state["tg"]) == ([1], [2], 10)  # target: held, 5 a time
    assert board.rows()[1:5] == [
        " Score             45",
        " Bonus            ◄1►",
        " Multiplier      ◄×2►",
        "▶Recipe target   ◄10►",
    ]
    board.script("press DOWN")
    assert board.rows()[4] == "▶Final 92        won!"  # (45 + 1) x 2 >= 10
    board.script("press UP\nhold RIGHT 19000")  # 5 at a time, up to 199 at most
    assert state_of(board)["tg"] == 195 and board.rows()[0] == "Recipe value limit   "
    board.script("press LEFT\nwait 2600\npress DOWN")
    assert state_of(board)["tg"] == 194 and board.rows()[4] == "▶Final 92        lost"


def test_two_players_one_copy_each_turn_and_the_tie_break():
    setup = ENGLISH + HORTIS + "press DOWN\npress DOWN\npress RIGHT\n" + START
    board = board_after(setup + "press DOWN\n" * 4 + "press RIGHT\npress RIGHT")  # P1: 30
    board.script("press TURN")
    assert state_of(board)["act"] == 1 and board.rows()[0].endswith("●P2")
    board.script("press UP\npress UP\npress UP\n" + "press RIGHT\n" * 10)  # P2: ten 3s
    assert h.score(state_of(board), 1) == 30
    board.script("press OK\npress TURN")  # the result: TURN shows the other player's
    assert board.rows()[0] == "Result            ♥P1"
    board.script(TO_RESULT_END + "press OK\npress OK\npress BACK")
    assert board.app.history[-1][3:5] == [[30, 30], [1]]  # the most dice used wins the tie
    assert board.rows()[1].startswith("▶ 1 ●P2*")


# ---------------------------------------------------------------- fits, in both languages
def strict(monkeypatch):
    """The layout helpers fail instead of cutting a text (screens re-imported see them too)."""
    for name in ("fit", "right", "centre"):
        helper = getattr(view, name)

        def checked(text, width=view.COLS, *args, helper=helper):
            assert len(text) <= width, f"clipped to {width}: {text!r}"
            return helper(text, width, *args)

        monkeypatch.setattr(view, name, checked)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("potager.ui"):
            for name in ("fit", "right", "centre"):
                if hasattr(module, name):
                    monkeypatch.setattr(module, name, getattr(view, name))


WALKS = [
    # (after the first boot, the setup's keys, the keys once started)
    ("", "press OK\npress OK\n" + "press DOWN\n" * 9 + "press OK\n" + "press DOWN\n" * 14),
    ("press RIGHT\npress DOWN\npress DOWN\npress DOWN\npress RIGHT\n",
     "press OK\npress OK\n" + "press DOWN\n" * 11 + "press OK\n" + "press DOWN\n" * 16),
    (LIVE, "press OK\nhold RIGHT 600\npress DOWN\npress OK\npress OK\npress DOWN\n"
     "hold RIGHT 600\npress DOWN\npress OK\nhold RIGHT 600\n" + "press DOWN\n" * 6
     + "press BACK\npress BACK\nhold OK 600\n" + "press DOWN\n" * 10),
]  # fmt: skip


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("walk", range(len(WALKS)))
def test_every_screen_row_fits_both_languages(language, walk, monkeypatch):
    strict(monkeypatch)
    first = "press OK\n" if language == "fr" else ENGLISH
    setup, keys = WALKS[walk]
    board = PureBoard()
    board.script(first + HORTIS)
    for line in (setup + "press OK\n" + keys).splitlines():
        board.script(line)
        rows = board.rows()
        assert len(rows) == 5 and all(len(r) == view.COLS for r in rows), rows
        assert not any("hortis." in r or "r.hortis" in r for r in rows), rows


def test_texts_have_the_same_keys_and_fit_their_places():
    tables = {}
    for code in ("en", "fr"):
        __import__("potager.lang." + code + "_hortis")
        tables[code] = sys.modules["potager.lang." + code + "_hortis"].T
    assert sorted(lang.keys(tables["en"])) == sorted(lang.keys(tables["fr"]))
    for text in tables.values():
        texts = lang.Texts([text])
        for key in lang.keys(text):
            value = texts.get(key)
            assert value and len(value) <= view.COLS, key
            if key.startswith("hortis.help_"):
                assert len(value) <= 15, key  # a help row: 5 for the key, 15 for the text
            if key.startswith("hortis.event"):
                assert len(value) <= (14 if key == "hortis.event2" else 20), key  # + " 10→15"
            if key.startswith(("hortis.automne", "hortis.grove")):
                assert len(value) <= 16, key  # a form row: cursor, label, value ("15 ")
            assert len(key) >= 10 or key.startswith("r."), key  # not interned (qstr)
    fr = lang.Texts([tables["fr"]])
    assert fr.get("hortis.pawn").startswith("Chipie")
    assert fr.get("hortis.automne4").startswith("Panier")
    assert fr.get("hortis.grove7").startswith("Brouette")
    assert fr.get("hortis.grove8") == "Écureuil"


# ------------------------------------------------------------------ MicroPython, simulator
# A whole game kept short (the script itself is held in the 128K heap): the live count of the
# 9 cards, a colour running out and the mouse pawn instead, the result, the end, the records.
TO_CARD_8 = (
    ENGLISH + HORTIS + LIVE + START
    + "press OK\npress OK\npress TURN\n"  # card 2: G, Y (OK: a new die, then the next colour)
    + "press UP\npress LEFT\npress OK\npress UP\npress OK\npress TURN\n"  # 3: Y up, Y
    + "press UP\npress OK\npress UP\npress OK\npress TURN\n"  # 4: two yellow dice
    + "press UP\npress OK\npress TURN\n"  # 5: the fifth yellow die
    + "press UP\nhold RIGHT 600\n" + "press DOWN\n" * 4 + "press OK\n"  # 6: a yellow mouse
    + "press DOWN\npress OK\npress TURN\n"  # face: none left; the mouse pawn instead
    + "press DOWN\npress OK\npress TURN\n"  # 7: a green die
    + "press UP\npress LEFT\npress OK\n"  # 8: that green die up
)  # fmt: skip
COMPACT = (
    TO_CARD_8
    + "press TURN\npress UP\npress OK\npress TURN\n"  # 9: a brown die
    + TO_RESULT_END
    + ("press OK\npress OK\npress BACK\n")
)


def test_compact_game_on_cpython():
    board = board_after(COMPACT)
    assert board.app.history[-1][1:5] == ["hortis-automne", [0], [7], [0]]
    assert board.rows()[0].startswith("Results")


@pytest.mark.micropython
def test_whole_game_under_micropython_fixed_heap_and_idle_loop_allocates_nothing(tmp_path):
    out = mpy_runner.run_app(COMPACT, tmp_path)
    board = board_after(COMPACT)
    assert out["snapshot"]["state"] == board.app.snapshot()["state"]
    assert out["rows"] == board.rows()
    assert out["idle_growth_bytes"] == 0


@pytest.mark.micropython
def test_live_grid_idle_loop_allocates_nothing_under_micropython(tmp_path):
    out = mpy_runner.run_app(TO_CARD_8, tmp_path)  # on the grid
    assert out["rows"][0].startswith("Card 8/9") and out["idle_growth_bytes"] == 0


def test_the_demo_in_the_simulator():
    from host_tools.sim import SimBoard

    result = SimBoard().run_script(DEMO.read_text())
    assert not result.crashes
    frame = result.frames[-1]
    assert frame["screen"] == board_after(DEMO.read_text()).rows()
    assert frame["leds"][8:] == ["#000000"] * 4  # the ring shows the cards: 9 of 12 pixels
    assert frame["leds"][0] != "#000000"
    assert result.state["state"]["d"] == [[5, 1, 1, 0, 0, 3, 2, 6, 1, 1, 3, 0, 0, 0, 0]]


def test_the_whole_live_game_in_the_simulator_with_a_power_cut():
    from host_tools.sim import SimBoard

    board = SimBoard()
    # after the power cut a person plays on once the count is back on the screen: ~5.5 s, the
    # counter's modules load to resume it; the cursor is where it was (brown, at its reserve)
    script = DEMO.read_text() + "power-cut\nwait 500\nboot\nwait 7000\n" + CARD_9
    script += "wait 500\n" + TO_RESULT_END + "press OK\npress OK\nwait 3000\n"
    result = board.run_script(script)
    assert not result.crashes
    screens = [f["screen"] for f in result.frames]
    assert any(s[4] == "Mouse pawn: placed -5" for s in screens)  # the pawn instead
    assert any(s[0] == "Card 9/9   32 pts ♥P1" for s in screens)
    assert any(s[0] == "Result            ♥P1" for s in screens)
    lit = [f["leds"] for f in result.frames if f["screen"][0].startswith("Card 9/9")]
    assert lit and all(leds[9:] == ["#000000"] * 3 for leds in lit)
    assert len({leds[8] for leds in lit}) == 2  # the 9th card blinks on the ring, in red
    assert all(int(leds[7][1:3], 16) and leds[7][3:] == "0000" for leds in lit)
    assert result.frames[-1]["screen"][:2] == ["New best!            ", "▶Best Automne      32"]
    assert result.state["mode"] is None
    # a power cycle: the best is kept, and a new game's result shows it
    # start-up, then the counter's modules are compiled (a second or so, as on the board)
    again = board.run_script(
        "wait 4000\n"
        + HORTIS
        + "wait 2500\n"
        + "press DOWN\npress DOWN\npress RIGHT\n"  # the last setup was live: quick count
        + START
        + "wait 2500\n"
        + "press OK\n"
        + "press UP\n" * 5  # past the score, round to the bottom: the best
    )
    assert again.frames[-1]["screen"][4] == "▶Best              32"  # the first game's


def test_each_forest_keeps_its_cursor_across_a_reload_in_the_simulator():
    from host_tools.sim import SimBoard

    script = "wait 3000\n" + TWO_LIVE + "wait 2500\n"  # the counter's modules load
    script += "press UP\npress OK\npress TURN\npress OK\npress OK\n"  # P1: B; P2: G, Y
    script += "wait 3000\nreload\nwait 7000\npress OK\npress TURN\npress OK\nwait 500\n"
    result = SimBoard().run_script(script)
    assert not result.crashes
    screens = [f["screen"] for f in result.frames]
    assert screens[-1][0].startswith("Card 3/9") and screens[-1][2] == "Y▶ ·   ·   ·   ·   · "
    reloaded = [s for s in screens if s[0] == "Card 2/9    2 pts ●P2"][-1]
    assert reloaded[3] == "B▶ ·   ·   ·   ·   · "  # P2's cursor, where P2's last die left it
    assert result.state["state"]["d"] == [[1] + [0] * 9 + [1, 0, 0, 0, 0], [1, 0, 0, 0, 0] * 3]


def test_the_live_count_keeps_its_timer_apart_from_the_score():
    board = board_after(ENGLISH + HORTIS + LIVE + START)
    assert board.app.act((table.SET, table.S_TT, 60))
    board.run(13_000)
    row = board.rows()[0]
    assert row.startswith("2/9 0:4") and row.endswith(" 0 pts ♥P1")


def test_a_card_is_a_lap_and_the_squirrel_goes_off_after_its_neighbours():
    board = board_after(ENGLISH + HORTIS + LIVE + START)
    assert not board.app.act((table.SET, table.S_LAP, 0))
    board.run(20)
    assert board.rows()[4].startswith("A card is one lap")
    board.script("wait 3000\npress TURN")
    assert state_of(board)["rnd"] == 3  # TURN goes on to card 3
    board = board_after(ENGLISH + HORTIS + "press RIGHT\n" + START)  # Grove
    board.script("press RIGHT\npress UP\npress UP\npress RIGHT")  # a die; the squirrel
    board.script("press DOWN\npress RIGHT")  # a die next to it
    board.script("wait 3000\npress UP\npress LEFT")  # the squirrel off
    rows = board.rows()  # the cursor is on the bottom row: the message shows on the top row
    assert rows[4].startswith("▶Squirrel") and rows[0].startswith("Dice by it to 0 first")
