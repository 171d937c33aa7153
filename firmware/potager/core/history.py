"""Finished games kept on the device, and their export as checksummed text lines.

A record is [seq, mode, colours, totals, winners]: small lists of ints, saved inside the
NVM record with the game in progress (one flash write covers both). The oldest records go
first when the save would not fit.

Export protocol (USB serial, one line each, ASCII):
  POTAGER <format> <count>*CCCC
  GAME <seq> <mode> <colours> <totals> <winners>*CCCC     lists comma-separated, "-" if empty
  END <count>*CCCC
CCCC = CRC-16/CCITT-FALSE of the text before the '*', four hex digits.
"""

from potager.core.crc import crc16

EXPORT_FORMAT = 1
MAX_RECORDS = 50


def add(history, mode, colours, totals, winners):
    seq = history[-1][0] + 1 if history else 1
    history.append([seq, mode, list(colours), list(totals), list(winners)])
    while len(history) > MAX_RECORDS:
        history.pop(0)
    return seq


def winners_of(totals):
    """Seats with the best total, ties shared."""
    best = max(totals)
    return [p for p in range(len(totals)) if totals[p] == best]


def _ints(values):
    return ",".join([str(v) for v in values]) if values else "-"


def _line(text):
    return text + "*" + "%04X" % crc16(text.encode())


def export_lines(history):
    yield _line("POTAGER " + str(EXPORT_FORMAT) + " " + str(len(history)))
    for seq, mode, colours, totals, winners in history:
        fields = ("GAME", str(seq), mode, _ints(colours), _ints(totals), _ints(winners))
        yield _line(" ".join(fields))
    yield _line("END " + str(len(history)))


def check_line(line):
    """The text of a line whose checksum holds, else None."""
    line = line.strip()
    star = line.rfind("*")
    if star < 0 or len(line) != star + 5:
        return None
    text = line[:star]
    try:
        if int(line[star + 1 :], 16) != crc16(text.encode()):
            return None
    except ValueError:
        return None
    return text
