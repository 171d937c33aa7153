"""Names from players.txt, the last setup remembered per mode, a random first player, and the
results that explain: through the real App on pure fakes, and in the simulator with --drive."""

import builtins
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.mpy.pureboard import PureBoard
from host_tools.sim import SimBoard
from potager import roster
from potager.core import table
from potager.ui import view

ROOT = Path(__file__).resolve().parent.parent
DRIVE = ROOT / "docs" / "drive"
ENGLISH = "press DOWN\npress OK\n"  # first boot: the language
FREE = ENGLISH + "press OK\n"  # the free score's setup


def read(tmp_path, data):
    (tmp_path / "players.txt").write_bytes(data)
    return roster.read(str(tmp_path / "players.txt"))


# ------------------------------------------------------------------ players.txt
def test_players_txt_names_comments_and_blank_lines(tmp_path):
    text = "\ufeff# our group\nZoé\n\n  Max  # the host\r\nLéa\n   # indented comment\n"
    text += "# a comment longer than any line the reader takes at once" * 3 + "\n"
    assert read(tmp_path, text.encode()) == (["Zoé", "Max", "Léa"], [])


def test_every_bad_line_is_reported_by_number_and_skipped(tmp_path):
    lines = ["Anna", "A" * 11, "   ", "Ωmega", "anna", "Bob", "x" * 200, "Eve"]
    names, problems = read(tmp_path, "\n".join(lines).encode() + b"\n\xff\xfe\n")
    assert names == ["Anna", "Bob", "Eve"]
    # reasons: 0 too long, 1 empty, 2 a letter the font lacks, 3 twice, 4 too many, 5 not UTF-8
    assert problems == [
        [2, 0],
        [3, 1],
        [4, 2],
        [5, 3],
        [7, 0],  # a line longer than the reader takes is never held whole
        [9, 5],
    ]


def test_too_many_names_and_a_missing_file(tmp_path):
    names, problems = read(tmp_path, "\n".join("N" + str(i) for i in range(14)).encode())
    # the names past the 12 kept: one problem, [first line, 4, how many] ("12 kept, 2 extra")
    assert len(names) == 12 and problems == [[13, 4, 2]]
    assert roster.read(str(tmp_path / "none.txt")) == ([], [])


def opens_of_players_txt(monkeypatch):
    """The opens of any players.txt from now on (the firmware's open is the builtin)."""
    opened = []
    real_open = builtins.open

    def spy(file, *args, **kwargs):
        if str(file).endswith("players.txt"):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy)
    return opened


def test_a_file_over_4096_bytes_is_refused_from_its_size_never_opened(tmp_path, monkeypatch):
    names = "".join("Name%d\n" % i for i in range(12))
    full = (names + "#" * (4095 - len(names)) + "\n").encode()  # 4096 bytes: the bound
    opened = opens_of_players_txt(monkeypatch)
    assert read(tmp_path, full) == (["Name%d" % i for i in range(12)], [])
    assert len(opened) == 1
    # reasons: 6 the file is over 4096 bytes, line 0 the whole file
    assert read(tmp_path, full + b"\n") == ([], [[0, 6]])
    with open(tmp_path / "players.txt", "r+b") as f:
        f.truncate(10 << 20)  # a line of 10 MiB
    assert roster.read(str(tmp_path / "players.txt")) == ([], [[0, 6]])
    assert len(opened) == 1 + 1  # the test's own truncate: the reader never opened them


def test_a_name_may_hold_every_letter_of_the_oled_font_and_no_other():
    from host_tools.make_font import CHARSET, FRENCH  # what the OLED font is built from

    letters = [chr(c) for c in range(0x21, 0x7F)] + [c for c in FRENCH if c.isalpha() or c == "’"]
    for char in letters:
        assert roster.check(char.encode(), []) is None, char
        assert char in CHARSET, char
    for char in "Ω\t«»€♥":
        assert roster.check(("a" + char).encode(), []) == 2, char


# ------------------------------------------------------------------ setup with names
def named_board(names=("Zoé", "Maximilien", "Léa", "Hugo")):
    board = PureBoard()
    board.app.roster = list(names)  # as read from players.txt
    board.script(FREE)
    return board


def pick(board, seat, index):
    # from the top of the form (cursor on Players): down to the seat, OK, down to the name
    board.script("press DOWN\n" * (2 + seat) + "press OK\n" + "press DOWN\n" * index + "press OK")
    board.script("press UP\n" * (2 + seat))


def test_a_name_per_seat_shows_in_the_game_cut_to_fit_with_the_symbol():
    board = named_board()
    pick(board, 0, 1)
    pick(board, 1, 2)
    rows = board.rows()
    assert rows[3].startswith(" P1 Zoé") and rows[3].endswith("♥ red ")
    board.script("press DOWN\n" * 6 + "press OK")  # Start
    state = board.app.engine.state
    assert state["names"] == ["Zoé", "Maximilien", "", ""]
    table.check_table(state)
    rows = board.rows()
    assert rows[0].endswith("♥Zoé") and rows[1] == "▶♥Zoé*   0  ●Max    0"
    assert rows[2] == " ♣P3     0  ▲P4     0"
    assert view.player_tag(state, 1, 10) == "●Maximilie"


def test_a_name_taken_by_another_seat_moves_and_none_gives_the_seat_back():
    board = named_board()
    pick(board, 0, 1)
    pick(board, 1, 1)  # Zoé again, for P2
    setup = board.app.screen()
    assert setup.values["names"][:2] == ["", "Zoé"]
    board.script("press DOWN\n" * 3 + "press OK")  # the list opens on the seat's name
    assert board.rows()[2] == "▶Zoé                 "
    board.script("press UP\npress OK")
    assert setup.values["names"][:2] == ["", ""]


def test_without_players_txt_ok_on_a_seat_starts_the_game_as_from_any_field():
    board = PureBoard()
    board.script(FREE + "press DOWN\npress DOWN\npress OK")
    assert board.app.roster == [] and board.app.snapshot()["screen"] == "GameScreen"
    assert board.app.engine.state["n"] == 4 and "names" not in board.app.engine.state


def test_the_bad_lines_of_players_txt_are_listed_once(tmp_path, monkeypatch):
    (tmp_path / "players.txt").write_text("Anna\n" + "B" * 12 + "\nanna\n", encoding="utf-8")
    from potager.ui import setup

    # the drive is tmp_path: where the setup looks for the file, and where the reader reads
    monkeypatch.setitem(sys.modules, "potager.ui.setup", setup)
    monkeypatch.setattr(setup, "__file__", str(tmp_path / "potager" / "ui" / "setup.py"))
    board = PureBoard()
    board.script(FREE)
    assert board.rows()[0] == "Names skipped: 2     "
    assert board.rows()[1:3] == ["▶line 2: too long    ", " line 3: twice       "]
    board.script("press OK")
    assert board.app.snapshot()["screen"] == "SetupScreen" and board.app.roster == ["Anna"]
    board.script("press BACK\npress OK")  # the setup again: the file is not read twice
    assert board.app.snapshot()["screen"] == "SetupScreen"


@pytest.fixture
def drive(tmp_path, monkeypatch):
    """The drive is tmp_path for every setup: the setup module, forgotten as a game starts,
    is loaded again as the one looking there."""
    from potager.core import registry
    from potager.ui import setup

    monkeypatch.setattr(setup, "__file__", str(tmp_path / "potager" / "ui" / "setup.py"))
    load = registry.load
    monkeypatch.setattr(
        registry, "load", lambda path: setup if path.endswith(".setup") else load(path)
    )
    return tmp_path


def test_the_skipped_names_are_listed_once_per_change_of_the_file_not_every_power_up(drive):
    (drive / "players.txt").write_text("Anna\n" + "B" * 12 + "\n", encoding="utf-8")
    board = PureBoard()
    board.script(FREE)
    assert board.rows()[0] == "Names skipped: 1     "
    board.script("press OK\npress OK")  # seen; the game starts, and is saved
    game_over(board)
    for _ in range(2):  # power-ups with the same file: the setup at once
        board.script("wait 3000\npower-cut\nwait 500\nboot\npress OK")
        assert board.app.snapshot()["screen"] == "SetupScreen", board.rows()
        assert board.rows()[1] == "▶Same as last time ▶ " and board.app.roster == ["Anna"]
        board.script("press OK")
        game_over(board)
    (drive / "players.txt").write_text("Anna\n" + "B" * 12 + "\nanna\n", encoding="utf-8")
    board.script("wait 3000\npower-cut\nwait 500\nboot\npress OK")  # the file changed
    assert board.rows()[0] == "Names skipped: 2     "


def test_a_key_the_skipped_names_do_not_use_closes_them_and_goes_on_to_the_setup(drive):
    (drive / "players.txt").write_text("Anna\n" + "B" * 12 + "\nanna\n", encoding="utf-8")
    board = PureBoard()
    board.script(FREE)
    assert board.rows()[0] == "Names skipped: 2     "
    players = board.app.stack[-2].values["players"]
    board.script("press RIGHT")  # the list goes, and the setup takes the key: one player more
    assert board.app.snapshot()["screen"] == "SetupScreen"
    assert board.app.screen().values["players"] == players + 1
    board.script("press BACK\npress OK\npress DOWN")  # (read once per power-up)
    assert board.app.snapshot()["screen"] == "SetupScreen" and board.app.screen().cursor == 1
    # a list longer than the screen: ↑↓ scroll it, OK closes it and is only that
    text = "".join(str(i) * 11 + "\n" for i in range(6))
    (drive / "players.txt").write_text(text, encoding="utf-8")
    board.script("wait 3000\npower-cut\nwait 500\nboot\npress OK\npress DOWN\npress DOWN")
    assert board.rows()[0] == "Names skipped: 6     " and board.app.screen().cursor == 2
    board.script("press OK")
    assert board.app.snapshot()["screen"] == "SetupScreen" and board.app.screen().cursor == 0


def test_a_players_txt_over_the_bound_says_so_in_one_line_then_the_setup(drive, monkeypatch):
    (drive / "players.txt").write_bytes(b"x" * (700 * 1024) + b"\n")  # froze the board 3.7 s
    opened = opens_of_players_txt(monkeypatch)
    board = PureBoard()
    board.script(FREE)
    assert board.rows()[:3] == ["Names skipped:       ", "▶file over 4 KB      ", " " * 21]
    assert opened == []  # refused from its size: never opened, not a byte read
    board.script("press OK")
    assert board.app.snapshot()["screen"] == "SetupScreen" and board.app.roster == []
    french = PureBoard()
    french.script("press OK\npress OK\n")  # Français, the free score
    assert french.rows()[:2] == ["Noms ignorés :       ", "▶fichier > 4 Ko      "]
    assert opened == []


# ------------------------------------------------------------------ the last setup
def game_over(board):
    board.script("press OK" + "\npress UP" * 3 + "\npress OK\npress OK")  # menu, End game, yes
    assert board.app.snapshot()["screen"] == "ResultsScreen"
    board.script("press OK")


def test_the_last_setup_comes_back_in_one_press_after_a_power_cycle():
    board = named_board()
    pick(board, 0, 2)
    board.script("press LEFT")  # 3 players
    board.script("press DOWN\npress DOWN\npress DOWN\npress RIGHT")  # P2: blue -> yellow
    board.script("press UP\n" * 3 + "press OK")  # to Players (OK on a seat names it), Start
    state = board.app.engine.state
    cols, first = list(state["col"]), state["first"]
    assert state["n"] == 3 and state["names"] == ["Maximilien", "", ""]
    assert board.app.act((table.SET, table.S_TT, 90))  # a turn timer, set in the game
    game_over(board)
    board.run(3000)  # saved
    again = PureBoard(nvm=board.nvm)
    again.script("press OK")  # Free score
    rows = again.rows()
    assert rows[1] == "▶Same as last time ▶ "
    again.script("press OK")  # one press: the same game
    state = again.app.engine.state
    assert state["n"] == 3 and state["names"] == ["Maximilien", "", ""]
    assert state["col"] == cols and state["first"] == first and state["tt"] == 90


def test_changing_the_form_drops_same_as_last_time():
    board = PureBoard()
    board.script(FREE + "press OK")  # 4 players, started (OK starts from any field)
    game_over(board)
    board.script("press OK")
    assert board.rows()[1].startswith("▶Same as last time")
    board.script("press DOWN\npress LEFT")  # 3 players
    assert board.rows()[1] == "▶Players           3 "
    board.script("press OK")
    assert board.app.engine.state["n"] == 3


def test_a_remembered_setup_that_no_longer_fits_gives_the_defaults():
    board = PureBoard()
    board.script("wait 1000\n" + ENGLISH)  # (BACK just after power-on is the safe menu)
    for junk in ("junk", [{"players": 9, "first": 0, "col": [0] * 6, "names": [""] * 6}, None]):
        board.app.records["last_setups"] = {"free": junk}
        board.script("press OK")
        assert board.rows()[1] == "▶Players           4 "  # the defaults, no "Same as..."
        board.script("press BACK")
    names = ["Far too long", "", "", "", "", ""]  # the right shape, but not a game
    values = {"players": 4, "first": 0, "col": [0, 1, 2, 3, 4, 5], "names": names}
    board.app.records["last_setups"] = {"free": [values, None]}
    board.script("press OK\npress OK")
    assert board.app.engine is None and "Last setup unusable" in board.rows()[4]
    assert "free" not in board.app.records["last_setups"]
    board.script("press OK\npress OK")  # the defaults
    assert board.app.engine.state["n"] == 4 and "names" not in board.app.engine.state


def test_random_first_player_is_one_setup_choice_drawn_at_the_start():
    seen = set()
    for wait in range(0, 400, 37):
        board = PureBoard()
        board.script(FREE + "press DOWN\npress RIGHT\n" * 1 + "press RIGHT\n" * 3)
        assert board.rows()[2] == "▶First player random "
        board.run(wait)
        board.script("press OK")
        state = board.app.engine.state
        assert state["act"] == state["first"]
        assert board.rows()[4].startswith("Starts: " + view.player_tag(state, state["act"]))
        seen.add(state["first"])
        assert board.app.records["last_setups"]["free"][0]["first"] == 4  # random, remembered
    assert len(seen) > 1


# ------------------------------------------------------------------ results
def test_results_name_the_players_and_say_a_shared_tie():
    board = named_board()
    pick(board, 0, 1)
    board.script("press DOWN\n" * 6 + "press OK")
    board.script("press RIGHT\npress DOWN\npress RIGHT")  # Zoé 1, P2 1: a tie
    board.script("press OK" + "\npress UP" * 3 + "\npress OK\npress OK")
    game_over_rows = board.rows()
    assert game_over_rows[1] == "▶ 1 ♥Zoé*          1 "
    assert game_over_rows[2] == "  1 ●P2*           1 "
    board.script("press DOWN\n" * 4)
    assert "Tie: a shared win" in "".join(board.rows())
    assert board.app.history[-1][5] == ["Zoé", "", "", ""]  # the names go into the history


def test_stats_title_on_its_own_row_in_both_languages():
    for lang, title, columns in (("en", "Stats", "turns"), ("fr", "Stats", "tours")):
        board = PureBoard()
        board.script((ENGLISH if lang == "en" else "press OK\n") + "press OK\npress OK")
        board.script("press OK" + "\npress DOWN" * 7 + "\npress OK")
        rows = board.rows()
        assert rows[0].strip() == title and columns in rows[1] and rows[1].startswith("▶   ")


def test_history_and_records_from_home():
    board = PureBoard()
    board.script(FREE + "press OK\npress RIGHT")
    game_over(board)
    board.script("press UP\npress UP\npress OK")
    rows = board.rows()
    assert rows[0].startswith("History") and rows[1] == "▶1 Free score     ♥ 1"


# ------------------------------------------------------------------ the simulator's drive
def test_sim_drive_puts_players_txt_beside_code_py():
    script = FREE + "press DOWN\npress DOWN\npress OK\npress DOWN\npress OK\n"
    result = SimBoard(drive=DRIVE).run_script("wait 300\n" + script)
    assert result.frames[-1]["screen"][3].startswith("▶P1 Zoé")
    # no drive: no names, OK on the seat starts the game
    plain = SimBoard().run_script("wait 300\n" + FREE + "press DOWN\npress DOWN\npress OK\n")
    assert plain.state["screen"] == "GameScreen" and "Zoé" not in str(plain.frames)


def test_sim_a_10_mib_players_txt_is_refused_at_once_not_a_watchdog_reset(tmp_path, monkeypatch):
    with open(tmp_path / "players.txt", "wb") as f:
        f.truncate(10 << 20)  # one line of 10 MiB: reading it, the watchdog reset the board
    opened = opens_of_players_txt(monkeypatch)
    # up at 3.6 s (virtual); 2 s after the key the message is there (a setup takes 1.2 s here)
    result = SimBoard(drive=tmp_path).run_script("wait 6000\n" + FREE + "wait 2000\n")
    assert not result.crashes and result.state["screen"] == "ErrorScreen", result.crashes
    assert [row.rstrip() for row in result.frames[-1]["screen"][:2]] == [
        "Names skipped:",
        "▶file over 4 KB",
    ]
    result = SimBoard(drive=tmp_path).run_script(
        "wait 6000\n" + FREE + "wait 2000\npress OK\nwait 500\n"
    )
    assert not result.crashes and result.state["screen"] == "SetupScreen"
    assert opened == []  # never opened: no byte of it read


def test_sim_drive_cannot_hide_the_firmware(tmp_path):
    (tmp_path / "code.py").write_text("print('hi')\n")
    with pytest.raises(FileExistsError):
        SimBoard(drive=tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "host_tools", "sim", "--headless", "--script", "/dev/null",
         "--drive", str(tmp_path / "missing")],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 2 and "no drive folder" in done.stderr


def test_the_names_demo_scripts_run_on_the_drive():
    # names: five named players, a random first player (»), a pass (×), a score undone
    text = (ROOT / "docs" / "scripts" / "names.txt").read_text(encoding="utf-8")
    assert text.startswith("# drive: docs/drive")
    result = SimBoard(drive=DRIVE).run_script(text)
    assert not result.crashes and result.state["screen"] == "GameScreen"
    rows = result.frames[-1]["screen"]
    state = result.state["state"]
    assert state["names"] == ["Zoé", "Max", "Léa", "Hugo", "Inès"]
    # the draw depends on the moment Start is pressed: the marks follow the game's own state
    shown = "".join(rows[1:4])
    cut = [name[:3] for name in state["names"]]
    assert shown.count("»") == 1 and cut[state["first"]] + "»" in shown, rows
    assert "▶" in shown and shown.split("▶")[1][1:5] == cut[state["act"]] + "*", rows
    passed = [i for i in range(state["n"]) if state["out"] >> i & 1]
    assert passed and all(cut[i] + "×" in shown for i in passed if i != state["first"]), rows
    assert rows[4].startswith("Undone: ") and rows[4].rstrip().endswith(" +1"), rows  # BACK
    # names-fr: a whole Diced Tomatoes game in French, to the results and their breakdown
    text = (ROOT / "docs" / "scripts" / "names-fr.txt").read_text(encoding="utf-8")
    result = SimBoard(drive=DRIVE).run_script(text)
    assert not result.crashes and result.state["screen"] == "ResultsScreen"
    rows = result.frames[-1]["screen"]
    assert rows[0].startswith("Résultats") and rows[1] == "▶ 1 ♥Zoé*         41 ", rows
    assert rows[2] == "  22+16*+1K+0D+2!=41 " and rows[3].startswith("  2 ▲Hugo")
