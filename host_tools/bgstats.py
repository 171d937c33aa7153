"""Finished games as BG Stats plays: the JSON a `createPlay` link carries, and the link.

BG Stats (the Board Game Stats app) imports a play from a link
``bgstats://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>`` (or the same path
on ``https://app.bgstatsapp.com``); its fields are in docs/export.md, with where they are
documented: only those are sent. `sourcePlayId` is the same for a game however often and
however (serial or NVM image) it is exported, so BG Stats can tell a play it already has.
"""

import hashlib
import json
import urllib.parse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Optional

from host_tools.common import firmware

if TYPE_CHECKING:
    from host_tools.export import Game

SOURCE_NAME = "Potager"
LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
FREE_DEFAULT = "Free score (Potager)"

# mode -> (the game's name, its BoardGameGeek id when known). Only ids checked against
# BoardGameGeek's own page are given: the others are left out, BG Stats then matches by name.
GAMES: dict[str, tuple[str, Optional[int]]] = {
    "diced_tomatoes": ("Diced Tomatoes", None),
    "horticolor": ("Horticolor", None),
    "hortis-automne": ("HORTIS Automne", None),
    "hortis": ("HORTIS", None),
    "arboretum": ("Arboretum", 140934),
}


def game_name(mode: str, free_name: Optional[str]) -> tuple[str, Optional[int]]:
    if mode == "free":
        return (free_name or FREE_DEFAULT), None
    return GAMES.get(mode, (mode, None))


def play_id(game: "Game", device: str) -> str:
    """Stable: the device, the game's number and a hash of the record (never the export's
    time), so the same game gives the same id in every export and a new game never an old
    one (the numbers restart after the saves are wiped)."""
    content = [
        game.mode, game.colours, game.totals, game.winners, game.names,
        game.first, game.dur, game.session, game.up,
    ]  # fmt: skip
    digest = hashlib.sha256(json.dumps(content, ensure_ascii=False).encode("utf-8"))
    return "potager-%s-%d-%s" % (device or "0", game.seq, digest.hexdigest()[:10])


def _player_id(game: "Game", p: int) -> str:
    """The same person across plays: by name when the device had one, else by seat."""
    name = game.names[p] if p < len(game.names) else ""
    return "name:" + name if name else "seat:" + str(p + 1)


# mode (the registry's key) -> the key, in its English texts, of its tie-break's words on the
# results screen
TIE_RULES = {
    "hortis": "hortis.tie_rule",
    "horticolor": "hc.tie_rule",
    "arboretum": "a.tie_break_rule",
}


def tie_rule(name: str) -> Optional[tuple[str, str]]:
    """(texts module, key) of the tie-break of the games filed under `name`, or None."""
    registry = firmware("potager.core.registry")
    mode = registry.mode_of(name)
    if mode not in TIE_RULES:
        return None
    return "potager.lang.en_" + registry.entry(mode)[registry.TEXTS], TIE_RULES[mode]


def ranks(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Each seat's place as the device's results screen shows it (potager.ui.results): the
    winners first (the game's tie-break already applied), then the best totals; a place is
    shared only by a tie the tie-break left shared, or equal totals below the winners."""
    order = sorted(range(len(totals)), key=lambda p: (p not in winners, -totals[p], p))
    out = [0] * len(totals)
    place = 0
    for i, p in enumerate(order):
        before = order[i - 1]
        if i == 0 or (before in winners) != (p in winners) or totals[p] != totals[before]:
            place = i + 1
        out[p] = place
    return out


def _text(module: str, key: str) -> str:
    texts = firmware("potager.lang").Texts([firmware(module).T])
    return str(texts.get(key) or key)


def tie_words(game: "Game") -> list[str]:
    """What the results screen said of a tie, in its own words: the tie-break that left
    fewer winners than were tied ("Tie: most dice won"), a win shared."""
    if not game.winners:
        return []
    best = max(game.totals)
    tied = sum(1 for t in game.totals if t == best)
    out = []
    rule = tie_rule(game.mode)
    if tied > len(game.winners) and rule is not None:
        out.append(_text(*rule))
    if len(game.winners) > 1:
        out.append(_text("potager.lang.en", "res.still_shared" if out else "res.tie_shared"))
    return out


def comments(game: "Game") -> str:
    """The play's note in BG Stats, short, for the players: which game of the device it
    was, a date that is not exact, how a tie went. How a date was estimated goes to the
    export's report (export.bgstats_report), not here."""
    parts = ["Potager game %d" % game.seq]
    if game.date_is == "estimate":
        parts.append("Date estimated")
    elif game.date_is != "exact":
        parts.append("Date unknown")
    return " · ".join(parts + tie_words(game))


def play(
    game: "Game", device: str, free_name: Optional[str] = None, location: Optional[str] = None
) -> dict[str, Any]:
    """The BG Stats play of a game (the object a createPlay link carries)."""
    from host_tools.export import date_text

    name, bgg = game_name(game.mode, free_name)
    source_game = "potager-" + game.mode
    if game.mode == "free" and free_name:
        source_game += "-" + hashlib.sha256(free_name.encode("utf-8")).hexdigest()[:8]
    info: dict[str, Any] = {"name": name, "highestWins": True, "noPoints": False}
    if bgg is not None:
        info["bggId"] = bgg
    info["sourceGameId"] = source_game
    out: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": play_id(game, device)}
    date = date_text(game.date)
    if date is not None:
        out["playDate"] = date
    if game.dur is not None:
        out["durationMin"] = max(1, round(game.dur / 60)) if game.dur else 0
    if location:
        out["location"] = location
    out["comments"] = comments(game)
    out["game"] = info
    place = ranks(game.totals, game.winners)
    out["players"] = [
        {
            "name": game.name(p),
            "score": game.totals[p],
            "winner": p in game.winners,
            "rank": place[p],
            "startPlayer": p == game.first,
            "role": "",
            "sourcePlayerId": _player_id(game, p),
        }
        for p in range(len(game.totals))
    ]
    return out


def link(data: dict[str, Any], web: bool = False) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (WEB_LINK if web else LINK) + urllib.parse.quote(text, safe="")


PAGE_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1em auto;padding:0 1em;max-width:38em;"
    "line-height:1.4}"
    "li{margin:0 0 2.5em}"
    "a.play{display:block;padding:.5em 0;font-size:1.2em}"
    "svg.qr{display:block;width:100%;max-width:36em;height:auto;shape-rendering:crispEdges}"
)


def qr_svg(text: str, title: str = "") -> Optional[str]:
    """`text` as a QR code, an SVG element for the page (black on white, 4 modules of quiet
    zone, sized by the page's style); None when it does not fit a QR code."""
    import segno

    try:
        code = segno.make_qr(text, error="l", boost_error=True)
    except segno.DataOverflowError:
        return None
    svg = code.svg_inline(
        scale=1, border=4, omitsize=True, dark="#000", light="#fff", svgclass="qr", title=title
    )
    return str(svg)


def _label(data: dict[str, Any]) -> str:
    when = data.get("playDate", "")[:16] or "date unknown"
    return "%s, %s" % (data["game"]["name"], when)


def _scores(data: dict[str, Any]) -> str:
    players = sorted(data["players"], key=lambda p: p["rank"])
    return " · ".join(
        "%s%s %d" % (p["name"], " ★" if p["winner"] else "", p["score"]) for p in players
    )


def has_qr() -> bool:
    import importlib.util

    return importlib.util.find_spec("segno") is not None


def links_html(plays: list[dict[str, Any]]) -> str:
    """A page for the phone that has BG Stats, readable on it: per play a link to tap, and
    its QR code (the web link) to scan with that phone from a computer's screen (none
    without segno: export.write_plays says so)."""
    import html

    qr = has_qr()
    rows = []
    for data in plays:
        label = _label(data)
        web = link(data, True)
        svg = qr_svg(web, "BG Stats: " + label) if qr else ""
        code = (
            "<p>(too long for a QR code: open this page on the phone)</p>" if svg is None else svg
        )
        rows.append(
            '<li><a class="play" href="%s">%s</a>\n<p>%s</p>\n%s\n<p><a href="%s">%s</a></p></li>'
            % (
                html.escape(link(data)),
                html.escape(label),
                html.escape(_scores(data)),
                code,
                html.escape(web),
                "the same play on app.bgstatsapp.com",
            )
        )
    return (
        '<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>Potager: plays for BG Stats</title>\n<style>%s</style>\n"
        "<h1>Plays for BG Stats</h1>\n"
        "<p>On the phone that has BG Stats, tap a play to import it. On a computer, scan the "
        "play's code with that phone's camera.</p>\n<ol>\n"
        % PAGE_STYLE
        + "\n".join(rows)
        + "\n</ol>\n</html>\n"
    )
