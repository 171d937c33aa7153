"""SSD1306 128x64 OLED controller, rebuilt from the bytes of its I2C writes.

Each I2C write starts with a control byte: bit 7 (Co) set means "one byte follows, then another
control byte"; Co clear means "every remaining byte is of one kind". Bit 6 (D/C#) picks the
kind: GDDRAM data when set, commands when clear. So the driver's command pairs arrive as
``0x80 cmd 0x80 arg ...`` and its pixel data as ``0x40 data...``.

The GDDRAM is 8 pages of 128 columns; a data byte covers 8 rows of one column (bit k = row
page*8+k). All three addressing modes are handled, as are the commands that change what the
panel shows: display on/off, normal/inverse, entire display on, segment remap and COM scan
direction (the standard module is upright with ``A1`` and ``C8``, which the driver sends),
start line and display offset (as a vertical shift; scrolling is not emulated). Commands that
only tune the analog side (clock, pre-charge, VCOMH, charge pump, multiplex) are parsed for
their arguments and otherwise ignored.
"""

from host_tools.sim.oled_panel import PAGES, WIDTH, Panel

HORIZONTAL, VERTICAL, PAGE = 0, 1, 2

# Number of argument bytes of each command that takes any; all others take none.
_ARGUMENT_COUNTS = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address range
    0x22: 2,  # page address range
    0x26: 6,  # horizontal scroll setup (right)
    0x27: 6,  # horizontal scroll setup (left)
    0x29: 5,  # vertical and horizontal scroll setup
    0x2A: 5,
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0xA3: 2,  # vertical scroll area
    0xA8: 1,  # multiplex ratio
    0xD3: 1,  # display offset
    0xD5: 1,  # clock divide ratio
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins configuration
    0xDB: 1,  # VCOMH deselect level
}


class SSD1306(Panel):
    """The controller's state after power-on, fed by :meth:`write`."""

    def __init__(self) -> None:
        super().__init__(contrast=0x7F)
        self.gddram = bytearray(WIDTH * PAGES)  # index page*WIDTH + column
        self.addressing_mode = PAGE
        self.column_start, self.column_end = 0, WIDTH - 1
        self.page_start, self.page_end = 0, PAGES - 1
        self.column, self.page = 0, 0
        self.unknown_commands: list[int] = []
        self._command: list[int] = []  # a command still waiting for its arguments

    def write(self, data: bytes) -> None:
        """Apply one I2C write (everything after the address byte)."""
        i = 0
        while i < len(data):
            control = data[i]
            is_data = bool(control & 0x40)
            if control & 0x80:
                payload = data[i + 1 : i + 2]
                i += 2
            else:
                payload = data[i + 1 :]
                i = len(data)
            for byte in payload:
                if is_data:
                    self._write_ram(byte)
                else:
                    self._command_byte(byte)

    def page_bytes(self, page: int) -> bytes:
        return bytes(self.gddram[page * WIDTH : (page + 1) * WIDTH])

    def _write_ram(self, byte: int) -> None:
        self.gddram[self.page * WIDTH + self.column] = byte
        if self.addressing_mode == HORIZONTAL:
            self.column += 1
            if self.column > self.column_end:
                self.column = self.column_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
        elif self.addressing_mode == VERTICAL:
            self.page += 1
            if self.page > self.page_end:
                self.page = self.page_start
                self.column = (
                    self.column_start if self.column >= self.column_end else self.column + 1
                )
        else:  # page mode: the column wraps within the page
            self.column = self.column + 1 if self.column < WIDTH - 1 else self.column_start

    def _command_byte(self, byte: int) -> None:
        self._command.append(byte)
        if len(self._command) - 1 < _ARGUMENT_COUNTS.get(self._command[0], 0):
            return
        command, *args = self._command
        self._command = []
        self._execute(command, args)

    def _execute(self, command: int, args: list[int]) -> None:
        if command == 0x20:
            self.addressing_mode = args[0] & 0x03
        elif command == 0x21:
            self.column_start, self.column_end = args[0] & 0x7F, args[1] & 0x7F
            self.column = self.column_start
        elif command == 0x22:
            self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
            self.page = self.page_start
        elif command <= 0x0F:  # page mode: lower nibble of the start column
            self.column_start = self.column = (self.column_start & 0xF0) | command
        elif command <= 0x1F:  # page mode: upper nibble of the start column
            self.column_start = self.column = (self.column_start & 0x0F) | (command & 0x07) << 4
        elif 0xB0 <= command <= 0xB7:  # page mode: page
            self.page = command & 0x07
        elif self.panel_command(command, args[0] if args else None):
            pass
        elif command not in _ARGUMENT_COUNTS and command not in (0x2E, 0x2F, 0xE3):
            self.unknown_commands.append(command)
