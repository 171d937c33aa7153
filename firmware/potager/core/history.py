"""Finished games kept on the device, and their export as checksummed text lines.

A record is [seq, mode, colours, totals, winners, names, first, dur, boot, up]: small lists
of ints, saved inside the NVM record with the game in progress (one flash write covers
both). names: [] when every seat has its default name (P1..), else a name per seat ("" for a
default one); first: the seat that started; dur: seconds from the start of the game to its
end while the device was on; boot: the power session (counts up at each boot) and up: the
seconds since that boot, both when the game ended. The device has no clock: the computer
dates a game from boot and up (docs/export.md). Records of format 1 stop after winners.
The oldest records go first when the save would not fit.

Export protocol (USB serial, one line each, ASCII):
  POTAGER <format> <count> <boot> <up> <device>*CCCC     the session and uptime now
  GAME <seq> <mode> <colours> <totals> <winners> <first> <dur> <boot> <up> <names>*CCCC
  END <count>*CCCC
Lists comma-separated, "-" if empty; a name is UTF-8 with every byte outside [0-9A-Za-z] as
%XX; <device> is the board's id in hex ("-" if unknown). Format 1 lines (still read by the
computer) had "POTAGER 1 <count>" and GAME lines ending at <winners>.
CCCC = CRC-16/CCITT-FALSE of the text before the '*', four hex digits.
"""

from potager.core.crc import crc16

EXPORT_FORMAT = 2
MAX_RECORDS = 50


def add(history, mode, colours, totals, winners, names=None, first=0, dur=0, boot=0, up=0):
    seq = history[-1][0] + 1 if history else 1
    names = list(names) if names and any(names) else []
    history.append(
        [seq, mode, list(colours), list(totals), list(winners), names, first, dur, boot, up]
    )
    while len(history) > MAX_RECORDS:
        history.pop(0)
    return seq


def winners_of(totals):
    """Seats with the best total, ties shared."""
    best = max(totals)
    return [p for p in range(len(totals)) if totals[p] == best]


def _ints(values):
    return ",".join([str(v) for v in values]) if values else "-"


def quote(name):
    """A name as ASCII without spaces or commas: %XX for every other byte of its UTF-8."""
    out = []
    for b in name.encode():
        c = chr(b)
        out.append(c if b < 128 and (c.isalpha() or c.isdigit()) else "%%%02X" % b)
    return "".join(out)


def _line(text):
    return text + "*" + "%04X" % crc16(text.encode())


def export_lines(history, boot=0, up=0, device=""):
    n = str(len(history))
    yield _line(" ".join(("POTAGER", str(EXPORT_FORMAT), n, str(boot), str(up), device or "-")))
    for r in history:
        if len(r) < 10:  # a record of format 1: nothing known of its time or names
            r = r[:5] + [[], 0, 0, 0, 0]
        names = ",".join([quote(s) for s in r[5]]) if r[5] else "-"
        fields = [_ints(v) for v in r[2:5]] + [str(v) for v in r[6:10]]
        yield _line(" ".join(["GAME", str(r[0]), r[1]] + fields + [names]))
    yield _line("END " + n)


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
