"""Build the firmware's font: a subset of Terminus 12 px (SIL OFL 1.1) as shipped with Blinka.

Only the glyphs the screens use are kept (ASCII, the letters of French, the player symbols and
a few signs), so the BDF stays small on the CIRCUITPY drive and quick to search on the device.
Run: .venv/bin/python -m host_tools.make_font   (the result is committed; tests check it).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "firmware" / "potager" / "fonts" / "terminus-12.bdf"

FRENCH = "àâäçéèêëîïôöùûüÿœæÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŸŒÆ«»’“”"
SIGNS = "♥●♣▲◆■○♦▶◀►◄▼±≡…→←↑↓°×·—–€█▀▄"
CHARSET = "".join(chr(c) for c in range(0x20, 0x7F)) + FRENCH + SIGNS


def source_font():
    import displayio  # Blinka's displayio ships ter-u12n.bdf

    return Path(displayio.__file__).parent / "resources" / "ter-u12n.bdf"


def subset(text, keep):
    head, _, rest = text.partition("STARTCHAR")
    glyphs = ("STARTCHAR" + rest).split("STARTCHAR")[1:]
    kept = []
    for glyph in glyphs:
        code = int(glyph.split("ENCODING", 1)[1].split()[0])
        if code in keep:
            kept.append("STARTCHAR" + glyph.replace("ENDFONT\n", ""))
    lines = [
        f"CHARS {len(kept)}" if line.startswith("CHARS ") else line for line in head.splitlines()
    ]
    return "\n".join(lines) + "\n" + "".join(kept) + "ENDFONT\n"


def build():
    keep = {ord(c) for c in CHARSET}
    return subset(source_font().read_text(encoding="latin-1"), keep)


def main(argv=None):
    OUT.write_text(build(), encoding="latin-1")
    missing = [c for c in CHARSET if f"ENCODING {ord(c)}\n" not in OUT.read_text("latin-1")]
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")
    if missing:
        print("not in Terminus:", "".join(missing), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
