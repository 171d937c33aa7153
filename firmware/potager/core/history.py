"""Finished games kept on the device.

A record is [seq, mode, colours, totals, winners, names, first, dur, session, up]: small lists
of ints, saved inside the NVM record with the game in progress (one flash write covers
both). names: [] when every seat has its default name (P1..), else a name per seat ("" for a
default one); first: the seat that started; dur: seconds from the start of the game to its
end while the device was on; session: the power session (counts up at each boot) and up: the
seconds since that boot, both when the game ended. The device has no clock: the computer
dates a game from session and up (docs/export.md). Records of format 1 stop after winners.
The oldest records go first when the save would not fit.
Their export: potager.core.history_lines.
"""

MAX_RECORDS = 50


def add(history, mode, colours, totals, winners, names=None, clock=None):
    """clock: [start player, seconds the game lasted, power session, uptime at its end]."""
    seq = history[-1][0] + 1 if history else 1
    names = list(names) if names and any(names) else []
    history.append(
        [seq, mode, list(colours), list(totals), list(winners), names] + (clock or [0] * 4)
    )
    while len(history) > MAX_RECORDS:
        history.pop(0)
    return seq


def winners_of(totals):
    """Seats with the best total, ties shared."""
    best = max(totals)
    return [p for p in range(len(totals)) if totals[p] == best]
