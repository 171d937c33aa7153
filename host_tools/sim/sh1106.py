"""SH1106 132x64 OLED controller (the MacroPad RP2040's), rebuilt from the bytes on its SPI bus.

The controller is a 4-wire SPI slave: it reads a byte only while chip select is low, and the
DC pin's level says what the byte is: low a command (or a command's argument), high display
RAM data. The RAM is 8 pages of 132 columns (a byte covers 8 rows of one column, bit k = row
page*8+k); the MacroPad's panel shows columns 2 to 129, so pixel (x, y) is bit y&7 of
RAM[y>>3][x+2]. Data goes to RAM[page][column] and the column moves on by one; the page never
changes by itself (the SH1106 has only page addressing: the ``20 20`` the MacroPad's runtime
sends is SSD1306's addressing mode, which it ignores). Data past column 131 is dropped here
(the firmware never sends any).

Commands (DC low): 00-0f the column's low nibble, 10-1f its high nibble, b0-b7 the page,
ae/af display off/on, a6/a7 normal/inverse, a4/a5 entire display on, 40-7f start line,
a0/a1 segment remap, c0/c8 COM scan direction; 81 a8 ad d3 d5 d9 da db (and 20) take one
argument byte. The MacroPad runs the panel upright with a1 and c8, as the SSD1306 module does;
the others (clock, multiplex, DC-DC, pre-charge, VCOM, pump voltage 30-33) are parsed for
their arguments and otherwise ignored.
"""

from typing import Optional

from host_tools.sim.oled_panel import PAGES, WIDTH, Panel

RAM_WIDTH = 132
COLUMN_OFFSET = 2  # the panel's first column in the RAM

# commands that take one argument byte; all others take none
_ONE_ARGUMENT = frozenset({0x20, 0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB})


class SH1106(Panel):
    """The controller's state after power-on (RAM zeroed: the real RAM holds noise), fed byte by
    byte with :meth:`write` (``dc`` the DC pin's level)."""

    def __init__(self) -> None:
        super().__init__(contrast=0x80)
        self.ram = [bytearray(RAM_WIDTH) for _ in range(PAGES)]
        self.column = 0
        self.page = 0
        self.commands = bytearray()  # every command byte received, arguments included
        self.unknown_commands: list[int] = []
        self._pending: list[int] = []  # a command still waiting for its argument

    def write(self, data: bytes, dc: bool) -> None:
        """Bytes clocked in with chip select low; dc: the DC pin's level (high: RAM data)."""
        if dc:
            for byte in data:
                self._write_ram(byte)
            return
        for byte in data:
            self.commands.append(byte)
            self._command_byte(byte)

    def page_bytes(self, page: int) -> bytes:
        return bytes(self.ram[page][COLUMN_OFFSET : COLUMN_OFFSET + WIDTH])

    def _write_ram(self, byte: int) -> None:
        if self.column < RAM_WIDTH:  # past the last column the data goes nowhere
            self.ram[self.page][self.column] = byte
            self.column += 1

    def _command_byte(self, byte: int) -> None:
        if self._pending:
            command = self._pending.pop()
            self._execute(command, byte)
            return
        if byte in _ONE_ARGUMENT:
            self._pending.append(byte)
            return
        self._execute(byte, None)

    def _execute(self, command: int, arg: Optional[int]) -> None:
        if command <= 0x0F:
            self.column = (self.column & 0xF0) | command
        elif command <= 0x1F:
            self.column = (self.column & 0x0F) | (command & 0x0F) << 4
        elif 0xB0 <= command <= 0xB7:
            self.page = command & 0x07
        elif self.panel_command(command, arg):
            pass
        elif command in _ONE_ARGUMENT or 0x30 <= command <= 0x33 or command == 0xE3:
            pass  # analog settings (pump voltage 30-33, NOP e3), nothing the pixels show
        else:
            self.unknown_commands.append(command)
