"""Finished games as BG Stats plays: the JSON a `createPlay` link carries, and the link.

BG Stats (the Board Game Stats app) imports a play from a link
``bgstats://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>`` (or the same path
on ``https://app.bgstatsapp.com``); its fields are in docs/export.md, with where they are
documented. `sourcePlayId` is the same for a game however often and however (serial or NVM
image) it is exported, so BG Stats can tell a play it already has.
"""

import hashlib
import json
import urllib.parse
from typing import TYPE_CHECKING, Any, Optional

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


def _comments(game: "Game") -> str:
    parts = ["Potager game %d (%s)." % (game.seq, game.mode)]
    if game.date_is == "exact":
        parts.append("Date exact (from the device's uptime at the export).")
    elif game.date_is == "estimate":
        parts.append("Date estimated (%s)." % (game.date_why or "no exact clock"))
    else:
        parts.append("Date unknown: BG Stats dates it at the import.")
    if game.dur is None:
        parts.append("Duration unknown.")
    return " ".join(parts)


def play(
    game: "Game", device: str, free_name: Optional[str] = None, location: Optional[str] = None
) -> dict[str, Any]:
    """The BG Stats play of a game (the object a createPlay link carries)."""
    from host_tools.export import colour_name, date_text

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
    out["comments"] = _comments(game)
    out["game"] = info
    out["players"] = [
        {
            "name": game.name(p),
            "score": game.totals[p],
            "winner": p in game.winners,
            "startPlayer": p == game.first,
            "color": colour_name(game.colours[p]),
            "role": "",
            "sourcePlayerId": _player_id(game, p),
        }
        for p in range(len(game.totals))
    ]
    return out


def link(data: dict[str, Any], web: bool = False) -> str:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (WEB_LINK if web else LINK) + urllib.parse.quote(text, safe="")


def links_html(plays: list[dict[str, Any]]) -> str:
    """A page to open on the phone that has BG Stats: one link per play."""
    import html

    rows = []
    for data in plays:
        label = "%s (%s)" % (data["game"]["name"], data.get("playDate", "date unknown"))
        rows.append(
            '<li><a href="%s">%s</a> &middot; <a href="%s">web</a></li>'
            % (html.escape(link(data)), html.escape(label), html.escape(link(data, True)))
        )
    return (
        '<!doctype html>\n<meta charset="utf-8">\n<title>Potager: plays for BG Stats</title>\n'
        "<h1>Plays for BG Stats</h1>\n<p>Tap a play to import it in BG Stats.</p>\n<ul>\n"
        + "\n".join(rows)
        + "\n</ul>\n"
    )
