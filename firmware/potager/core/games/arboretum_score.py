"""Arboretum scoring from the host: ``score(data)`` behind ``python -m host_tools score
arboretum`` (the shared spec score-cli.md), with the layout search for each player's best path.

The right to score and the points of a path come from ``potager.core.games.arboretum``, the
module the device's Arboretum mode runs; this one holds what only the command line needs (JSON
checks, layouts, the search) so that the device never loads it. A card is its species' name
and value, "oak3", or a (species, value) pair; a layout maps (x, y) squares to cards (x east,
y north). Pure: runs unchanged on CPython, MicroPython and CircuitPython.
"""

from potager.core.compat import const
from potager.core.games import _check as ck
from potager.core.games.arboretum import hand_values, may_score, points

__all__ = [
    "best_path",
    "connected",
    "hand_values",
    "may_score",
    "parse_card",
    "path_score",
    "score",
]

MAX_SPECIES = const(10)
LETTERS = "abcdefghijklmnopqrstuvwxyz-_"
CARD_HELP = "a card is a species name (a-z, - or _) then a value 1-8, e.g. oak3"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def species_name_ok(name):
    """A species name: lower-case letters, - or _, starting with a letter."""
    if type(name) is not str or not name or not "a" <= name[0] <= "z":
        return False
    return all(ch in LETTERS for ch in name)


def parse_card(card, path="card"):
    """ "oak3" -> ("oak", 3); a (species, value) pair is returned as it is. ValueError if bad."""
    if type(card) is tuple:
        return card
    if type(card) is not str or len(card) < 2 or not "1" <= card[-1] <= "8":
        ck.fail(path, "must be a card, got " + ck.show(card) + " (" + CARD_HELP + ")")
    if not species_name_ok(card[:-1]):
        ck.fail(path, "must be a card, got " + ck.show(card) + " (" + CARD_HELP + ")")
    return card[:-1], ord(card[-1]) - 48


def path_score(cards):
    """Points of a path given as its cards in order (adjacency is not checked): +1 per card,
    +1 more per card if 4+ cards all of one species, +1 if it starts with a 1, +2 if it ends
    with an 8. ValueError if it is not a path (2+ cards, rising values, same species at both
    ends)."""
    cs = [parse_card(c) for c in cards]
    if len(cs) < 2 or cs[0][0] != cs[-1][0]:
        ck.fail("path", "needs 2+ cards starting and ending with the same species")
    pure = True
    for i in range(1, len(cs)):
        if cs[i][1] <= cs[i - 1][1]:
            ck.fail("path", "values must rise strictly from card to card")
        pure = pure and cs[i][0] == cs[0][0]
    return points(len(cs), pure, cs[0][1], cs[-1][1])


def best_path(layout, species):
    """(score, cards) of the best path of `species` in layout {(x, y): card}, cards in path
    order as they appear in layout; (0, None) when there is none. Ties: the first found."""
    cells = {}
    top = 0
    for pos in layout:
        sp, v = parse_card(layout[pos])
        cells[pos] = (sp, v)
        if sp == species and v > top:
            top = v
    best = [0, None]  # type: list
    for pos in cells:
        if cells[pos][0] == species and cells[pos][1] < top:
            _walk(cells, species, top, [pos], True, best)
    if best[1] is None:
        return 0, None
    return best[0], [layout[p] for p in best[1]]


def _walk(cells, species, top, path, pure, best):
    # Depth-first over strictly rising neighbours: a path has at most 8 cards.
    x, y = path[-1]
    v = cells[path[-1]][1]
    for dx, dy in STEPS:
        nxt = (x + dx, y + dy)
        c = cells.get(nxt)
        if c is None or c[1] <= v:
            continue
        if c[0] == species:
            path.append(nxt)
            pts = points(len(path), pure, cells[path[0]][1], c[1])
            if pts > best[0]:
                best[0] = pts
                best[1] = list(path)
            if c[1] < top:
                _walk(cells, species, top, path, pure, best)
            path.pop()
        elif c[1] < top:  # another species: worth crossing only if a higher card may end it
            path.append(nxt)
            _walk(cells, species, top, path, False, best)
            path.pop()


def connected(squares):
    """Are the squares (a list of (x, y)) orthogonally connected? Returns None if so, else a
    square cut off from the first one."""
    if not squares:
        return None
    todo = [squares[0]]
    seen = {squares[0]: True}
    rest = {}
    for s in squares:
        rest[s] = True
    while todo:
        x, y = todo.pop()
        for dx, dy in STEPS:
            n = (x + dx, y + dy)
            if n in rest and n not in seen:
                seen[n] = True
                todo.append(n)
    for s in squares:
        if s not in seen:
            return s
    return None


def _where(pos):
    return "(" + str(pos[0]) + ", " + str(pos[1]) + ")"


def _player(p, path, seen, out):
    # One player: (hand as (species, value) pairs, layout {(x, y): card}); `seen` maps each
    # card to where it was first met, `out` collects (species, path) of every card.
    hpath = ck.key(path, "hand")
    hand = ck.array(ck.need(p, path, "hand"), hpath)
    apath = ck.key(path, "arboretum")
    arb = ck.array(ck.need(p, path, "arboretum"), apath)
    cards, layout = [], {}  # type: list, dict
    for i, c in enumerate(hand):
        cards.append(_card(c, ck.item(hpath, i), seen, out))
    order = []
    for i, e in enumerate(arb):
        epath = ck.item(apath, i)
        ck.obj(e, epath)
        card = ck.need(e, epath, "card")
        xy = (
            ck.integer(ck.need(e, epath, "x"), ck.key(epath, "x"), None),
            ck.integer(ck.need(e, epath, "y"), ck.key(epath, "y"), None),
        )
        _card(card, ck.key(epath, "card"), seen, out)
        if xy in layout:
            ck.fail(epath, "square " + _where(xy) + " already holds " + layout[xy])
        layout[xy] = card
        order.append(xy)
    cut = connected(order)
    if cut is not None:
        ck.fail(
            apath,
            "not orthogonally connected: "
            + layout[cut]
            + " at "
            + _where(cut)
            + " is cut off from "
            + layout[order[0]]
            + " at "
            + _where(order[0]),
        )
    return cards, layout


def _card(c, path, seen, out):
    sp, v = parse_card(c, path)
    if c in seen:
        ck.fail(path, "card " + c + " appears twice (also at " + seen[c] + ")")
    seen[c] = path
    out.append((sp, path))
    return sp, v


def score(data):
    """Score a finished game given as the CLI's input JSON; ValueError names a bad field."""
    ps = ck.players(data, 2, 4)
    seen, found = {}, []  # type: dict, list
    hands, layouts = [], []
    for i, p in enumerate(ps):
        cards, layout = _player(p, ck.item("players", i), seen, found)
        hands.append(cards)
        layouts.append(layout)
    if "species" in data:
        species = ck.array(data["species"], "species", 0, MAX_SPECIES, "species")
        for i, s in enumerate(species):
            if not species_name_ok(s):
                ck.fail(
                    ck.item("species", i), "must be a species name (a-z, - or _), got " + ck.show(s)
                )
            if s in species[:i]:
                ck.fail(ck.item("species", i), '"' + s + '" is listed twice')
        for sp, path in found:
            if sp not in species:
                ck.fail(path, 'species "' + sp + '" is not in play (see "species")')
    else:
        species = sorted({sp for sp, _ in found})
        if len(species) > MAX_SPECIES:
            ck.fail("species", str(len(species)) + " species in play, at most " + str(MAX_SPECIES))
    rows = []
    for i, p in enumerate(ps):
        kinds = {parse_card(c)[0] for c in layouts[i].values()}
        rows.append(
            {"name": p["name"], "total": 0, "species_in_arboretum": len(kinds), "species": {}}
        )
    for sp in species:
        held = [[v for s, v in h if s == sp] for h in hands]
        values = hand_values(held)
        rights = may_score(held)
        for i, row in enumerate(rows):
            pts, path = best_path(layouts[i], sp) if rights[i] else (0, None)
            row["species"][sp] = {
                "hand_value": values[i],
                "may_score": rights[i],
                "score": pts,
                "path": path,
            }
            row["total"] += pts
    names = [r["name"] for r in rows]
    keys = [(r["total"], r["species_in_arboretum"]) for r in rows]
    return {"players": rows, "winners": ck.best(names, keys)}
