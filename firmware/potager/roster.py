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
# RAM: identifiers stay interned on MicroPython, so this module has few, and reuses the
# firmware's; the letters are checked as UTF-8 bytes (a str of one character is interned).

import os


def check(line, names):
    # The reason the name `line` (bytes, comment and spaces removed) cannot be used, or None.
    if not line:
        return 1
    try:
        text = line.decode()
    except Exception:  # UnicodeError
        return 5
    i = 0
    while i < len(line):
        if line[i] < 0x80:  # ASCII: printable only
            if line[i] < 0x20 or line[i] > 0x7E:
                return 2
            i += 1
            continue
        n = 3 if line[i] >= 0xE0 else 2  # a lead byte: the letter's length in UTF-8
        # the accented letters the font draws (one long constant: no qstr)
        if "àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ’".encode().find(line[i : i + n]) < 0:
            return 2
        i += n
    if len(text) > 10:
        return 0
    if line[:1].lower() == b"p" and b"0" <= line[1:2] <= b"9":
        return 7  # "P2": a seat's label
    for name in names:
        if name.encode().lower() == line.lower():  # ASCII only, as the board's str.lower()
            return 3
    return 4 if len(names) >= 12 else None


def parse(lines):
    # (names, problems) from lines of bytes (None: a line too long to read whole).
    names: list = []
    out: list = []
    many = [0, 4, 0]  # the names past the 12 kept: the first one's line, 4, how many
    more = [0, 8, 0]  # the bad lines past the 12 listed: the same
    i = 0
    for line in lines:
        i += 1
        found = 0  # a line too long to read whole
        if line is not None:
            if i == 1 and line[:3] == b"\xef\xbb\xbf":
                line = line[3:]  # the byte-order mark some editors write
            line = line.rstrip(b"\r\n")
            if not line or line.strip()[:1] == b"#":
                continue  # a blank line or a comment
            line = line.split(b"#")[0].strip()
            found = check(line, names)
            if found is None:
                names.append(line.decode())
                continue
        if found == 4:
            many[0] = many[0] or i
            many[2] += 1
        elif len(out) < 12:
            out.append([i, found])
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
        line = stream.readline(48)
        if not line:
            return
        if len(line) == 48 and line[-1:] != b"\n":
            found = line.strip()[:1] == b"#"
            while line and line[-1:] != b"\n":
                line = stream.readline(48)
            yield b"#" if found else None
        else:
            yield line


def read(path):
    # (names, problems) of the file at `path`; no file: nothing, and nothing to report.
    try:
        if os.stat(path)[6] > 4096:  # st_size: a tuple on the board, not named fields
            return [], [[0, 6]]
        stream = open(path, "rb")  # noqa: SIM115 (a with block would catch its OSError too)
    except OSError:
        return [], []
    try:
        return parse(lines(stream))
    except OSError:  # the drive failed while reading
        return [], [[0, 5]]
    finally:
        stream.close()
