# The regular group's names, from players.txt on the CIRCUITPY drive: one name a line, UTF-8,
# "#" starts a comment, edited on the computer like any CircuitPython settings file. Read once,
# when a setup first needs it (potager.ui.setup finds the file), line by line: a long line is
# never held whole. A bad line is skipped and reported, never a crash. A file over 4096 bytes
# is refused from its size, unread: reading costs the board ~5 ms a KiB (a 700 KiB line froze
# it 3.7 s), and 4 KiB is ten times 12 names of 10 letters (at most 31 bytes a line in UTF-8),
# so comments have room. Within it every line is read: blank lines and comments count against
# nothing (a cap of 64 lines once hid every name after them, unsaid).
#
# Rules: at most 12 names of 10 characters, letters the OLED font draws (printable ASCII and
# the French letters of host_tools/make_font.py), each name once, ASCII case aside ("Anna" and
# "anna" are one name, "Éa" and "éa" two: the board's str.lower() folds ASCII only, so the
# reader folds with bytes.lower(), ASCII-only on every port, CPython too), and none that reads
# as a seat's own label ("P2", "p3x": P and a digit; cut to two letters, as in a 3-column
# cell, it would show as seat P2 does). A problem is [line number, reason]; the reason indexes
# the text "nm.file_reasons": 0 too long, 1 empty (spaces only), 2 a letter the font lacks,
# 3 twice, 5 not UTF-8, 6 the file over 4096 bytes, 7 a seat's label; line 0 stands for the
# whole file. The names past the 12 kept are one problem, [first line, 4, how many]; the bad
# lines past the first 12 are counted in one, [first line, 8, how many] (RAM: 4 KiB can hold
# 2000 lines).
# RAM: the letters are checked as UTF-8 bytes (a str of one character would be interned).
# The reasons and limits are named as private constants, which cost the board nothing (folded
# by the compiler); the names say what they hold: `found` reused for a reason and for a flag
# saved nothing (0 bytes of heap, no qstr: CircuitPython's 32-bit VM, .mpy).

import os

from potager.core.compat import const

# the reasons: indices into the text "nm.file_reasons" (and 8: the bad lines past the 12 listed)
_TOO_LONG = const(0)
_EMPTY = const(1)
_BAD_LETTER = const(2)
_TWICE = const(3)
_TOO_MANY = const(4)
_NOT_UTF8 = const(5)
_FILE_TOO_BIG = const(6)
_SEAT_LABEL = const(7)
_MORE_BAD = const(8)

_MAX_NAMES = const(12)
_MAX_LETTERS = const(10)
_MAX_LINE = const(48)  # bytes: a longer line is skipped
_MAX_FILE = const(4096)  # bytes: a larger file is refused unread


def check(line, names):
    # The reason the name `line` (bytes, comment and spaces removed) cannot be used, or None.
    if not line:
        return _EMPTY
    try:
        text = line.decode()
    except Exception:  # UnicodeError
        return _NOT_UTF8
    i = 0
    while i < len(line):
        if line[i] < 0x80:  # ASCII: printable only
            if line[i] < 0x20 or line[i] > 0x7E:
                return _BAD_LETTER
            i += 1
            continue
        n = 3 if line[i] >= 0xE0 else 2  # a lead byte: the letter's length in UTF-8
        # the accented letters the font draws
        if "àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ’".encode().find(line[i : i + n]) < 0:
            return _BAD_LETTER
        i += n
    if len(text) > _MAX_LETTERS:
        return _TOO_LONG
    if line[:1].lower() == b"p" and b"0" <= line[1:2] <= b"9":
        return _SEAT_LABEL  # "P2": a seat's label
    for name in names:
        if name.encode().lower() == line.lower():  # ASCII only, as the board's str.lower()
            return _TWICE
    return _TOO_MANY if len(names) >= _MAX_NAMES else None


def parse(lines):
    # (names, problems) from lines of bytes (None: a line too long to read whole).
    names: list = []
    out: list = []
    many = [0, _TOO_MANY, 0]  # the names past the 12 kept: the first one's line, 4, how many
    more = [0, _MORE_BAD, 0]  # the bad lines past the 12 listed: the same
    i = 0
    for line in lines:
        i += 1
        reason = _TOO_LONG  # a line too long to read whole
        if line is not None:
            if i == 1 and line[:3] == b"\xef\xbb\xbf":
                line = line[3:]  # the byte-order mark some editors write
            line = line.rstrip(b"\r\n")
            if not line or line.strip()[:1] == b"#":
                continue  # a blank line or a comment
            line = line.split(b"#")[0].strip()
            reason = check(line, names)
            if reason is None:
                names.append(line.decode())
                continue
        if reason == _TOO_MANY:
            many[0] = many[0] or i
            many[2] += 1
        elif len(out) < _MAX_NAMES:
            out.append([i, reason])
        else:
            more[0] = more[0] or i
            more[2] += 1
    if more[2]:
        out.append(more)
    if many[2]:
        out.append(many)
    return names, out


def lines(stream):
    # The file's lines as bytes, every one (read() bounds the file at 4096 bytes); None for a
    # line longer than 48 bytes (the rest of it is skipped; a long comment stays a comment).
    while True:
        line = stream.readline(_MAX_LINE)
        if not line:
            return
        if len(line) == _MAX_LINE and line[-1:] != b"\n":
            comment = line.strip()[:1] == b"#"
            while line and line[-1:] != b"\n":
                line = stream.readline(_MAX_LINE)
            yield b"#" if comment else None
        else:
            yield line


def read(path):
    # (names, problems) of the file at `path`; no file: nothing, and nothing to report.
    try:
        if os.stat(path)[6] > _MAX_FILE:  # st_size: a tuple on the board, not named fields
            return [], [[0, _FILE_TOO_BIG]]
        stream = open(path, "rb")  # noqa: SIM115 (a with block would catch its OSError too)
    except OSError:
        return [], []
    try:
        return parse(lines(stream))
    except OSError:  # the drive failed while reading: reported as unreadable
        return [], [[0, _NOT_UTF8]]
    finally:
        stream.close()
