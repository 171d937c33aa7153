"""Names as players give them: players.txt read whole within its 4 KB (blank lines and
comments count against nothing; the names past the 12 kept said in one line, with the counts),
no name that shows as another seat's label (P1..P6), and case folded as the board folds it
(ASCII only) on every port."""

import pytest

from host_tools.mpy.pureboard import PureBoard
from potager import roster

ENGLISH = "press DOWN\npress OK\n"  # first boot: the language
FREE = ENGLISH + "press OK\n"  # the free score's setup
FRENCH_FREE = "press OK\npress OK\n"  # Français, the free score


def read(tmp_path, text):
    (tmp_path / "players.txt").write_bytes(text.encode() if isinstance(text, str) else text)
    return roster.read(str(tmp_path / "players.txt"))


@pytest.fixture
def drive(tmp_path, monkeypatch):
    """The drive is tmp_path: where the setup looks for players.txt (as in test_names)."""
    from potager.core import registry
    from potager.ui import setup

    monkeypatch.setattr(setup, "__file__", str(tmp_path / "potager" / "ui" / "setup.py"))
    load = registry.load
    monkeypatch.setattr(
        registry, "load", lambda path: setup if path.endswith(".setup") else load(path)
    )
    return tmp_path


def skipped(drive, text, start=FREE):
    """The rows of the list of skipped names a setup shows for players.txt `text`."""
    (drive / "players.txt").write_text(text, encoding="utf-8")
    board = PureBoard()
    board.script(start)
    assert board.app.snapshot()["screen"] == "ErrorScreen", board.rows()
    return board, [row.rstrip() for row in board.rows()]


# ------------------------------------------------------------------ read whole, said plainly
def test_blank_lines_and_comments_count_against_no_limit(tmp_path):
    # 64 blank and comment lines used to be all the reader took: the names after, never read
    head = "# our group\n" + "\n" * 40 + "# ---\n" * 23
    assert read(tmp_path, head + "Zoé\nMax\n") == (["Zoé", "Max"], [])
    # a file of blank lines to its 4096 bytes, its names at the end
    text = "\n" * (4096 - 10) + "Zoé\nLéa\n"
    assert len(text.encode()) == 4096 and read(tmp_path, text) == (["Zoé", "Léa"], [])


def test_the_names_past_the_12_kept_are_one_line_with_the_counts(tmp_path, drive):
    names = ["Nom%d" % i for i in range(40)]
    found, problems = read(tmp_path, "\n# a comment\n".join(names) + "\n")
    assert found == names[:12]
    assert problems == [[25, 4, 28]]  # from line 25 (names and comments), 28 names more
    board, rows = skipped(drive, "\n".join(names) + "\n")
    assert rows[:3] == ["Names skipped: 28", "▶12 kept, 28 extra", ""]
    board.script("press OK")
    assert board.app.snapshot()["screen"] == "SetupScreen" and board.app.roster == names[:12]
    _, rows = skipped(drive, "\n".join(names) + "\n", FRENCH_FREE)
    assert rows[:2] == ["Noms ignorés : 28", "▶12 pris, 28 en trop"]


def test_the_bad_lines_are_listed_12_at_most_then_counted(tmp_path, drive):
    # a file of bad lines within the 4 KB (1365 of them): 12 listed, the rest counted in one,
    # never a list of 1365 in the board's RAM
    text = "Ω\n" * 1365
    found, problems = read(tmp_path, text)
    assert found == [] and problems == [[i, 2] for i in range(1, 13)] + [[13, 8, 1353]]
    board, rows = skipped(drive, "Anna\n" + "anna\n" * 14 + "".join("N%d\n" % i for i in range(12)))
    assert rows[:2] == ["Names skipped: 15", "▶line 2: twice"]  # 14 twice, 1 extra
    board.script("press DOWN\n" * 13)  # to the end of the list
    rows = [row.rstrip() for row in board.rows()]
    assert rows[2:] == [" line 13: twice", " and 2 more", "▶12 kept, 1 extra"]
    _, rows = skipped(drive, "Anna\n" + "anna\n" * 14, FRENCH_FREE)
    assert rows[0] == "Noms ignorés : 14"
    assert roster.parse([b"anna\n"] * 14)[1][-1] == [14, 8, 1]  # the 13th bad line, counted


def test_a_file_of_10000_names_is_refused_in_one_line_unread(tmp_path, drive):
    text = "".join("N%d\n" % i for i in range(10000))
    assert read(tmp_path, text) == ([], [[0, 6]])
    _, rows = skipped(drive, text)
    assert rows[:3] == ["Names skipped:", "▶file over 4 KB", ""]


# ------------------------------------------------------------------ the seats' own labels
def test_a_name_that_reads_as_a_seat_label_is_refused(tmp_path, drive):
    # "P2" for seat P1 showed two players "P2"; cut to two letters, "P2x" would too
    text = "P2\nZoé\np3\nP6x\nP10\nP\nPa\nPaul\n2P\n"
    found, problems = read(tmp_path, text)
    assert found == ["Zoé", "P", "Pa", "Paul", "2P"]
    assert problems == [[1, 7], [3, 7], [4, 7], [5, 7]]  # reason 7: a seat's label
    _, rows = skipped(drive, text)
    assert rows[:3] == ["Names skipped: 4", "▶line 1: seat label", " line 3: seat label"]
    _, rows = skipped(drive, text, FRENCH_FREE)
    assert rows[1] == "▶l.1 : nom de siège"


def test_no_two_players_show_the_same_label_whatever_players_txt_holds(drive):
    # every name the file gives, on every seat: the labels of the seats stay apart
    (drive / "players.txt").write_text("P2\nP1\nÉa\néa\nÉA\nZoé\n", encoding="utf-8")
    board = PureBoard()
    board.script(FREE + "press OK")  # the skipped lines seen
    names = board.app.roster
    assert names == ["Éa", "éa", "Zoé"]  # "ÉA" is "Éa" twice; É and é are two letters
    for seat in range(len(names)):
        board.script("press DOWN\n" * (2 + seat) + "press OK\n" + "press DOWN\n" * (seat + 1))
        board.script("press OK\n" + "press UP\n" * (2 + seat))
    board.script("press DOWN\n" * 6 + "press OK")  # Start
    state = board.app.engine.state
    labels = [(state["names"][p] or "P%d" % (p + 1)) for p in range(state["n"])]
    assert labels == ["Éa", "éa", "Zoé", "P4"] and len(set(labels)) == len(labels)


def test_a_remembered_setup_with_a_seat_label_for_a_name_is_not_brought_back():
    # a setup saved by a firmware that took "P2" from players.txt: the defaults instead
    board = PureBoard()
    board.script("wait 1000\n" + ENGLISH)
    names = ["P2", "", "", "", "", ""]
    values = {"players": 4, "first": 0, "col": [0, 1, 2, 3, 4, 5], "names": names}
    board.app.records["last_setups"] = {"free": [values, None]}
    board.script("press OK")
    assert board.rows()[1] == "▶Players           4 "  # no "Same as last time"
    board.script("press OK")
    assert "names" not in board.app.engine.state


# ------------------------------------------------------------------ case, as the board folds
@pytest.mark.parametrize(
    ("first", "second", "twice"),
    [
        ("Anna", "anna", True),
        ("ZOE", "zoe", True),
        ("Éa", "éa", False),  # CircuitPython's str.lower() leaves É: two names on the board
        ("Léa", "LÉA", False),
        ("Léa", "LéA", True),
        ("Œil", "œil", False),
    ],
)
def test_case_is_folded_in_ascii_only_as_on_the_board(tmp_path, first, second, twice):
    # the simulator runs on CPython, whose str.lower() folds É to é: it refused "éa" after
    # "Éa", the emulated Pico took both
    found, problems = read(tmp_path, first + "\n" + second + "\n")
    assert (found, problems) == (([first], [[2, 3]]) if twice else ([first, second], []))
