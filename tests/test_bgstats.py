"""BG Stats plays: the places (`rank`) the device decided, the short notes, only documented
fields (test_export.DOCUMENTED, with its source), the links page's QR codes."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_export import DEVICE, T0, Page, check_links_page, check_play_fields, undocumented

from host_tools import bgstats, export

results = export.firmware("potager.ui.results")
view = export.firmware("potager.ui.view")


def screen_ranks(totals, winners):
    """The places the device's results screen shows for a finished game, per seat."""
    state = {"col": [p % len(view.COLOURS) for p in range(len(totals))], "turns": [0]}
    screen = results.ResultsScreen(state, totals, winners)
    out = [0] * len(totals)
    for line in screen.lines:
        place, tag = int(line[:2]), line[3:].split()[0].rstrip("*")
        out[int(tag[2:]) - 1] = place  # "●P3": the symbol, then the seat
    return out


@st.composite
def finished(draw):
    """Totals and winners as the device files them: the seats of the best total, or fewer
    when a game's tie-break decided (at least one), or none (a solo game lost)."""
    n = draw(st.integers(1, 6))
    totals = draw(st.lists(st.integers(-3, 6), min_size=n, max_size=n))
    top = [p for p in range(n) if totals[p] == max(totals)]
    kept = draw(st.lists(st.sampled_from(top), min_size=1, unique=True))
    winners = draw(st.sampled_from([top, sorted(kept), []]))
    return totals, winners


@settings(max_examples=300, deadline=None, derandomize=True)
@given(finished())
def test_rank_is_the_place_the_results_screen_shows(game):
    totals, winners = game
    assert bgstats.ranks(totals, winners) == screen_ranks(totals, winners)


@pytest.mark.parametrize(
    ("totals", "winners", "places"),
    [
        ([30, 30, 12], [1], [2, 1, 3]),  # P2 won the tie-break: P1 second, not first
        ([30, 30, 12], [0, 1], [1, 1, 3]),  # a tie the tie-break left shared
        ([9, 20, 20, 20], [2], [4, 2, 1, 2]),  # below the winner: no tie-break data, shared
        ([5, 7, 7, 1], [1, 2], [3, 1, 1, 4]),
        ([4], [], [1]),  # a solo game lost
    ],
)
def test_ranks_keep_the_tie_break(totals, winners, places):
    assert bgstats.ranks(totals, winners) == places


def dated(record, exact=True):
    return export.date_games([export.game_from_record(record)], export.Moment(2, 4000, T0, exact))[
        0
    ]


STILL_SHARED = "Tie: most species won · Win still shared"


@pytest.mark.parametrize(
    ("mode", "totals", "winners", "note"),
    [
        ("hortis", [30, 30, 12], [1], "Potager game 7 · Tie: most dice won"),
        ("hortis-automne", [30, 30], [0], "Potager game 7 · Tie: most dice won"),
        ("horticolor", [8, 9, 9], [2], "Potager game 7 · Tie: fewer cards won"),
        ("arboretum", [18, 22, 22, 0], [1], "Potager game 7 · Tie: most species won"),
        ("arboretum", [22, 22, 22], [0, 2], "Potager game 7 · " + STILL_SHARED),
        ("diced_tomatoes", [41, 41], [0, 1], "Potager game 7 · Tie: a shared win"),
        ("free", [3, 1], [0], "Potager game 7"),
    ],
)
def test_notes_are_short_and_say_how_a_tie_went(mode, totals, winners, note):
    colours = list(range(len(totals)))
    game = dated([7, mode, colours, totals, winners, [], 0, 600, 2, 3000])
    play = bgstats.play(game, DEVICE)
    assert play["comments"] == note
    assert [p["rank"] for p in play["players"]] == bgstats.ranks(totals, winners)


def test_notes_say_a_date_is_not_exact_and_the_report_says_how():
    exact = dated([1, "free", [0, 1], [3, 1], [0], [], 0, 600, 2, 3000])
    estimate = dated([2, "free", [0, 1], [3, 1], [0], [], 0, 600, 2, 3000], exact=False)
    earlier = dated([3, "free", [0, 1], [3, 1], [0], [], 0, 600, 1, 900])
    undated = export.game_from_record([4, "free", [0, 1], [3, 1], [0]])
    notes = [bgstats.comments(g) for g in (exact, estimate, earlier, undated)]
    assert notes == [
        "Potager game 1",
        "Potager game 2 · Date estimated",
        "Potager game 3 · Date estimated",
        "Potager game 4 · Date unknown",
    ]
    assert all(len(n) <= 40 and "(" not in n for n in notes)  # no technical detail
    assert export.bgstats_report([exact, estimate, earlier, undated]) == [
        "note: game 2: date estimated (from the date of the saved image)",
        "note: game 3: date estimated (played before the device was last switched on, for how "
        "long it was off is unknown: the latest it can have been)",
        "note: game 4: undated (recorded before export format 2): BG Stats dates it at the import",
    ]


def test_every_field_sent_is_documented():
    """Every field the export can send (location, date, duration and a BoardGameGeek id
    included) is in the documented list; a new undocumented one fails here."""
    game = dated([5, "arboretum", [0, 1], [18, 22], [1], ["Zoé", ""], 0, 600, 2, 3000])
    play = bgstats.play(game, DEVICE, "unused", "Home")
    assert {"location", "playDate", "durationMin", "comments"} <= set(play)
    assert "bggId" in play["game"]
    check_play_fields(play)
    assert undocumented(play) == []
    # the check itself: a colour, as the export once sent, is refused wherever it goes
    with_colour = json.loads(json.dumps(play))
    with_colour["players"][0]["color"] = "red"
    with_colour["game"]["colour"] = "red"
    with_colour["notes"] = "x"
    assert sorted(undocumented(with_colour)) == ["game.colour", "notes", "players.color"]


def test_links_page_has_a_qr_code_per_play():
    games = [
        dated([1, "free", [0, 1], [3, 1], [0], ["Zoé", "<b>&"], 0, 600, 2, 3000]),
        dated([2, "hortis", [0, 1, 2], [30, 30, 12], [1], [], 1, 900, 2, 3600]),
    ]
    plays = [bgstats.play(g, DEVICE, location="Chez <Zoé>") for g in games]
    page = bgstats.links_html(plays)
    check_links_page(page, plays)
    assert "<b>&" not in page and "&lt;b&gt;&amp;" in page  # names are text, never markup
    assert Page(page).items[0]["svgs"][0].startswith('<svg viewBox="0 0 ')  # sized by the page


def test_links_page_a_play_too_long_for_a_qr_code():
    names = ["%02d" % p + "é" * 60 for p in range(40)]
    game = dated([3, "free", list(range(40)), list(range(40)), [39], names, 0, 60, 2, 3000])
    play = bgstats.play(game, DEVICE)
    assert bgstats.qr_svg(bgstats.link(play, True)) is None
    page = bgstats.links_html([play])
    assert "<svg" not in page and "too long for a QR code" in page
    assert bgstats.link(play) in Page(page).items[0]["links"]


def test_links_page_without_segno_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(bgstats, "has_qr", lambda: False)
    game = dated([1, "free", [0, 1], [3, 1], [0], [], 0, 600, 2, 3000])
    args = export.parse(["--nvm", str(tmp_path / "x.bin"), "--out", str(tmp_path / "plays")])
    messages: list[str] = []
    assert export.write_plays(args, [game], DEVICE, None, messages.append) == 0
    assert messages == [
        "--out: segno is not installed (pip install segno): links.html has no QR codes"
    ]
    page = (tmp_path / "plays" / "links.html").read_text("utf-8")
    assert (
        "<svg" not in page
        and bgstats.link(bgstats.play(game, DEVICE)) in Page(page).items[0]["links"]
    )
