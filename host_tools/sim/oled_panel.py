"""What the SSD1306 and the SH1106 share: the panel's settings, the commands that set them, and
the pixels the panel shows from the controller's display RAM (a byte covers 8 rows of one
column, bit k = row page*8+k)."""

from typing import Optional

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8


class Panel:
    """The settings after power-on; a controller adds its RAM and its addressing."""

    def __init__(self, contrast: int) -> None:
        self.display_on = False
        self.inverted = False
        self.entire_display_on = False
        self.contrast = contrast
        self.segment_remap = False
        self.com_remap = False
        self.start_line = 0
        self.display_offset = 0

    def page_bytes(self, page: int) -> bytes:
        """The RAM bytes of `page` under the panel's 128 columns, in RAM order."""
        raise NotImplementedError

    def pixels(self) -> list[list[bool]]:
        """What the panel shows: 64 rows of 128 booleans (True = lit)."""
        if not self.display_on:
            return [[False] * WIDTH for _ in range(HEIGHT)]
        if self.entire_display_on:
            return [[True] * WIDTH for _ in range(HEIGHT)]
        rows = []
        for y in range(HEIGHT):
            ram_row = (y + self.start_line + self.display_offset) % HEIGHT
            if not self.com_remap:
                ram_row = HEIGHT - 1 - ram_row
            page, bit = divmod(ram_row, 8)
            shown = self.page_bytes(page)
            if not self.segment_remap:  # the RAM read from its other end
                shown = shown[::-1]
            rows.append([bool(b >> bit & 1) != self.inverted for b in shown])
        return rows

    def panel_command(self, command: int, arg: Optional[int]) -> bool:
        """Apply a command that sets what the panel shows (both controllers have these);
        False for any other."""
        if 0x40 <= command <= 0x7F:
            self.start_line = command & 0x3F
        elif command == 0x81 and arg is not None:
            self.contrast = arg
        elif command == 0xD3 and arg is not None:
            self.display_offset = arg & 0x3F
        elif command in (0xA0, 0xA1):
            self.segment_remap = command == 0xA1
        elif command in (0xA4, 0xA5):
            self.entire_display_on = command == 0xA5
        elif command in (0xA6, 0xA7):
            self.inverted = command == 0xA7
        elif command in (0xAE, 0xAF):
            self.display_on = command == 0xAF
        elif command in (0xC0, 0xC8):
            self.com_remap = command == 0xC8
        else:
            return False
        return True
