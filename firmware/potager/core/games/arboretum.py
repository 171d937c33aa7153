# Arboretum (Dan Cassar): end-of-game scoring, species by species.
#
# Rules: the shared rules reference, rules/arboretum.md. The right to score (``hand_values``,
# ``may_score``) and the points of a path (``points``) are shared with the host's
# ``python -m host_tools score arboretum`` (``arboretum_score``: JSON checks and the layout
# search, which the device never loads). The device's state, on top of the table's fields:
#   sp  the species in play: indices into the catalogue of 12 (names in the mode's texts)
#   h   per species s and player p, at [s * n + p]: the values held, bit v-1 for value v
#   pa  same index: the player's best path as a code, -1 while not entered: its number of
#       cards (0 = no path, else 2-8) + 16 if all of the species + 32 if it starts with a 1
#       + 64 if it ends with an 8
#   ks  per player: different species in their arboretum (the tie-break), 0 = not entered
# Pure: no hardware, runs unchanged on CPython, MicroPython and CircuitPython. Comments rather
# than docstrings, which the board's compiler holds in one piece of RAM. The path code's bits
# are named (private constants: folded by the compiler) and the names say what they hold;
# numbers written out and names reused from the framework (`found`, `count`) saved nothing
# (0 bytes of heap, no qstr: CircuitPython's 32-bit VM, .mpy).

from potager.core import table
from potager.core.compat import const

HAND = const(16)  # a: species * 4 + player, b: the values held (bit v-1 = value v)
PATH = const(17)  # a: species * 4 + player, b: path code
TIE = const(18)  # a: player, b: different species in their arboretum (1..species in play)

# a path code: its number of cards, plus the bits below
_CARDS = const(15)
_PURE = const(16)  # all of the species
_FROM_ONE = const(32)  # starts with a 1
_TO_EIGHT = const(64)  # ends with an 8

PLAYERS = (2, 4)  # 6, 8, 10 species in play: 2 * players + 2
TURNS = 0  # the end of the game is scored: nobody takes a turn (the menus follow: ui.table)


# --- the rules, shared with the host ---------------------------------------------------
def hand_values(values):
    # values[i] = values (1-8) player i holds of one species. Each player's sum, where an 8 counts 0
    # if ANOTHER player holds the 1 (holding both yourself, the 8 counts 8).
    out = []
    for i, h in enumerate(values):
        total = sum(h)
        if 8 in h:
            for k, other in enumerate(values):
                if k != i and 1 in other:
                    total -= 8
                    break
        out.append(total)
    return out


def may_score(values):
    # Who may score the species (values as for hand_values): the highest hand value, every tied
    # player, or everybody when nobody holds the species.
    if not any(values):
        return [True for _ in values]
    sums = hand_values(values)
    return [v == max(sums) for v in sums]


def points(n, pure, first, last):
    # A path of n cards (pure: all of the scored species) from value `first` to `last`.
    p = n
    if n >= 4 and pure:
        p += n
    if first == 1:
        p += 1
    if last == 8:
        p += 2
    return p


# --- the device ------------------------------------------------------------------------
def path_points(code):
    # Points of a path code (0 for no path, or one not entered).
    n = code & _CARDS if code > 0 else 0
    first = 1 if code & _FROM_ONE else 2
    last = 8 if code & _TO_EIGHT else 7
    return points(n, code & _PURE, first, last) if n else 0


def bad_path(code):
    # Reason key if `code` is no path code, else None. Values rise strictly from 1 to 8, so a path
    # that does not start with a 1 or end with an 8 has room for fewer cards.
    n = code & _CARDS
    if not 0 <= code < 128 or n == 1:
        return "bad_action"
    if n > 6 + (code & _FROM_ONE) // _FROM_ONE + (code & _TO_EIGHT) // _TO_EIGHT:
        return "path_too_long"
    return None


def held(state, s):
    # The values each player holds of species s (index into state["sp"]). Most hands hold none
    # of a species: those are not looked through (a loop turn costs the board ~40 us).
    n = state["n"]
    out = []
    for p in range(n):
        bits = state["h"][s * n + p]
        out.append([v for v in range(1, 9) if bits >> (v - 1) & 1] if bits else [])
    return out


def scores(state, s):
    # Each player's points for species s: None while a player who may score has no path entered yet,
    # -1 for those who may not.
    n = state["n"]
    out = []
    for p, right in enumerate(may_score(held(state, s))):
        code = state["pa"][s * n + p]
        out.append((None if code < 0 else path_points(code)) if right else -1)
    return out


def totals(state, scored=None):
    # (each player's total, the first species still waiting for a path or -1); `scored`: each
    # species' scores(state, s), where the caller has them already.
    out = [0] * state["n"]
    waiting = -1
    for s in range(len(state["sp"])):
        for p, score in enumerate(scores(state, s) if scored is None else scored[s]):
            if score is None:
                waiting = s if waiting < 0 else waiting
            elif score > 0:
                out[p] += score
    return out, waiting


def leaders(sums):
    # The players with the best total.
    return [p for p in range(len(sums)) if sums[p] == max(sums)]


def winners(state, sums):
    # Best total; a tie goes to the most species in the arboretum, then is shared. None while a tied
    # player's species count is not entered.
    top = leaders(sums)
    species = [state["ks"][p] for p in top]
    if len(top) > 1 and 0 in species:
        return None
    return [p for p in top if len(top) == 1 or state["ks"][p] == max(species)]


def new(players, colours, first=0, species=None):
    # A scoring sheet; `species`: catalogue indices in play (default: the first 6/8/10).
    if species is None:
        species = list(range(2 * players + 2))
    state = table.new_table(players, colours, first)
    state["sp"] = list(species)
    state["h"] = [0] * (len(species) * players)
    state["pa"] = [-1] * (len(species) * players)
    state["ks"] = [0] * players
    return state


def reduce(state, action):
    op, a, b = action
    if op < 16:  # of the table only the seats: no turns, rounds, turn order nor timers
        if op != table.SET or a < table.S_SEAT:
            return "scoring_no_turns"
        return table.reduce_table(state, op, a, b)
    n = state["n"]
    if op == TIE:
        if not 0 <= a < n or not 1 <= b <= len(state["sp"]):
            return "bad_action"
        top = leaders(totals(state)[0])
        if a not in top or len(top) < 2:
            return "no_tie_to_break"
        state["ks"][a] = b
        return None
    s, p = a // 4, a % 4
    if op not in (HAND, PATH) or not 0 <= s < len(state["sp"]) or p >= n:
        return "bad_action"
    i = s * n + p
    if op == PATH:
        reason = bad_path(b)
        if reason is None and not may_score(held(state, s))[p]:
            reason = "may_not_score"
        if reason is None:
            state["pa"][i] = b
        return reason
    if not 0 <= b < 256 or b == state["h"][i]:
        return "bad_action"
    for k in range(n):
        if k != p and state["h"][s * n + k] & b:
            return "card_elsewhere"
    if in_hand(state, p) - bin(state["h"][i]).count("1") + bin(b).count("1") > 7:
        return "hand_over_seven"  # the cards in hand at the end of the game
    state["h"][i] = b
    return None


def in_hand(state, p):
    # How many cards player p holds, all species together.
    n = state["n"]
    return sum(bin(state["h"][s * n + p]).count("1") for s in range(len(state["sp"])))


def check(state):
    table.check_table(state)
    n = state["n"]
    k = len(state["sp"])
    assert PLAYERS[0] <= n <= PLAYERS[1]
    assert 1 <= k <= 12 and len(set(state["sp"])) == k
    assert all(0 <= c < 12 for c in state["sp"])
    assert len(state["h"]) == len(state["pa"]) == k * n and len(state["ks"]) == n
    for p in range(n):
        assert in_hand(state, p) <= 7
        assert 0 <= state["ks"][p] <= k
    h = state["h"]
    for s in range(k):
        taken = 0
        for p in range(n):
            bits = h[s * n + p]  # (each lookup of state["h"] costs the board a dict search)
            assert 0 <= bits < 256 and not bits & taken
            taken |= bits
            code = state["pa"][s * n + p]
            assert code == -1 or bad_path(code) is None
