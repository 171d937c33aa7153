"""The history (potager.core.history records) as checksummed text lines for the USB serial
console, imported only to export.

Export protocol (USB serial, one line each, ASCII):
  POTAGER <format> <count> <session> <up> <device>*CCCC     the session and uptime now
  GAME <seq> <mode> <colours> <totals> <winners> <first> <dur> <session> <up> <names>*CCCC
  END <count>*CCCC
Lists comma-separated, "-" if empty; a name is UTF-8 with every byte outside [0-9A-Za-z] as
%XX; <device> is the board's id in hex ("-" if unknown). Format 1 lines (still read by the
computer) had "POTAGER 1 <count>" and GAME lines ending at <winners>.
CCCC = CRC-16/CCITT-FALSE of the text before the '*', four hex digits.
"""

from potager.core.crc import crc16

EXPORT_FORMAT = 2


def _ints(values):
    return ",".join([str(v) for v in values]) if values else "-"


def _line(text):
    return text + "*" + "%04X" % crc16(text.encode())


def export_lines(history, hx=None):
    """hx: the app's clock, [device id, power session, uptime, ...] (None: unknown)."""
    hx = hx or ["", 0, 0]
    n = str(len(history))
    yield _line(" ".join(("POTAGER", str(EXPORT_FORMAT), n, str(hx[1]), str(hx[2]), hx[0] or "-")))
    for r in history:
        if len(r) < 10:  # a record of format 1: nothing known of its time or names
            r = r[:5] + [[], 0, 0, 0, 0]
        fields = [_ints(v) for v in r[2:5]] + [str(v) for v in r[6:10]]
        names = []
        for text in r[5]:  # UTF-8, every byte outside 0-9A-Za-z as %XX: no space, no comma
            names.append(
                "".join(
                    [
                        chr(b)
                        if b < 128 and (chr(b).isalpha() or chr(b).isdigit())
                        else "%%%02X" % b
                        for b in text.encode()
                    ]
                )
            )
        yield _line(" ".join(["GAME", str(r[0]), r[1]] + fields + [",".join(names) or "-"]))
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
