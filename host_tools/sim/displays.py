"""The runtime's display (``board.DISPLAY``), and where Blinka's display classes part from
CircuitPython's.

On the MacroPad RP2040, CircuitPython's ``board_init()`` (ports/raspberrypi/boards/
adafruit_macropad_rp2040/board.c) makes the display before code.py runs: an SPI bus on SCK and
MOSI, a ``fourwire.FourWire`` on it (DC, CS, RESET; 10 MHz asked, mode 0) and a
``busdisplay.BusDisplay`` for its SH1106 with the init sequence and parameters below. Here the
same objects are made from Blinka's real ``fourwire`` and ``busdisplay`` over the fake
``busio`` and ``digitalio``, so the SH1106 emulator sees the board's bytes.

Blinka 2.7.1's display classes differ from CircuitPython 10's in three ways that matter here,
each patched once on Blinka's classes (``patch_blinka``):

- SH1107 addressing: Blinka sends the column's high nibble as ``((x >> 4) & 0xF0) | 0x10``,
  which is always ``0x10`` for the SH1106's columns (< 0x84): every area that starts at
  x + 2 >= 16 would be drawn at the wrong column. CircuitPython (shared-module/displayio/
  display_core.c) sends ``0x10 | (x >> 4)``, then ``x & 0x0F``: the board's ``1h 0l bP``.
- ``fourwire.FourWire`` is not counted among ``displayio``'s display buses (CircuitPython
  allocates every FourWire there, as Blinka does its I2CDisplayBus), so
  ``release_displays()`` never freed its pins, and a soft reload did not keep them.
- ``fourwire.FourWire`` has no ``deinit()`` (``displayio.release_displays()`` calls it);
  CircuitPython's releases the pins and its own SPI bus, with no reset pulse.
"""

import importlib
import struct
from typing import Any

from host_tools.sim.boards import BoardDefinition

# board.c's display_init_sequence: (command, argument count | 0x80 for a delay, arguments)
INIT_SEQUENCE = bytes(
    (
        0xAE, 0,  # display off
        0xD5, 1, 0x80,  # clock: fOsc divided by 2
        0xA8, 1, 0x3F,  # multiplex 64
        0xD3, 1, 0x00,  # offset 0
        0x40, 1, 0x00,  # start line 0 (the 00 then reads as a column's low nibble 0)
        0xAD, 1, 0x8B,  # DC-DC on
        0xA1, 0,  # segment remap
        0xC8, 0,  # COM scan from the top
        0xDA, 1, 0x12,  # COM pins
        0x81, 1, 0xFF,  # contrast 255
        0xD9, 1, 0x1F,  # pre-charge / discharge
        0xDB, 1, 0x20,  # VCOM deselect level
        0x20, 1, 0x20,  # (SSD1306's addressing mode: the SH1106 reads it as a no-op pair)
        0x33, 0,  # pump 9 V
        0xA6, 0,  # not inverted
        0xA4, 0,  # shows the RAM
        0xAF, 0,  # display on
    )
)  # fmt: skip
BAUDRATE = 10_000_000


def make_board_display(definition: BoardDefinition) -> Any:
    """board_init(): the bus and display of ``definition.spi_oled``, refreshed once (the
    runtime draws its terminal before code.py starts). Call with the fakes installed, as the
    runtime: the machine counts its bus writes and charges no time."""
    board, busio = _library("board"), _library("busio")
    busdisplay, fourwire = _library("busdisplay"), _library("fourwire")
    oled = definition.spi_oled
    assert oled is not None
    spi = busio.SPI(getattr(board, oled.clock), MOSI=getattr(board, oled.mosi))
    bus = fourwire.FourWire(
        spi,
        command=getattr(board, oled.command),
        chip_select=getattr(board, oled.chip_select),
        reset=getattr(board, oled.reset),
        baudrate=BAUDRATE,
        polarity=0,
        phase=0,
    )
    bus._potager_inline_spi = True  # its own bus (CircuitPython's inline_bus): freed with it
    display = busdisplay.BusDisplay(
        bus,
        INIT_SEQUENCE,
        width=128,
        height=64,
        colstart=2,
        rowstart=0,
        rotation=0,
        color_depth=1,
        grayscale=True,
        pixels_in_byte_share_row=False,
        bytes_per_cell=1,
        reverse_pixels_in_byte=False,
        reverse_bytes_in_word=True,
        set_column_command=0,
        set_row_command=0,
        write_ram_command=0,
        brightness_command=0x81,
        brightness=1.0,
        single_byte_bounds=True,
        data_as_commands=True,
        auto_refresh=True,
        native_frames_per_second=60,
        backlight_on_high=True,
        SH1107_addressing=True,
    )
    display.refresh()
    return display


def patch_blinka() -> None:
    """Make Blinka's display classes send and release as CircuitPython's (once a process)."""
    _library("displayio")  # (Blinka's display core needs it imported first)
    fourwire = _library("fourwire")
    core = _library("displayio._displaycore")._DisplayCore
    if not getattr(core, "_potager_sh1107", False):
        set_region = core.set_region_to_update

        def set_region_to_update(self: Any, area: Any) -> None:
            if self.sh1107_addressing and self.data_as_commands:
                _sh1107_region(self, area)
            else:
                set_region(self, area)

        core.set_region_to_update = set_region_to_update
        core._potager_sh1107 = True

    bus_class = fourwire.FourWire
    if not getattr(bus_class, "_potager_allocated", False):

        def new(cls: Any, *args: Any, **kwargs: Any) -> Any:
            bus = object.__new__(cls)
            _library("displayio").allocate_display_bus(bus)
            return bus

        bus_class.__new__ = staticmethod(new)
        bus_class._potager_allocated = True
    if not hasattr(bus_class, "deinit"):

        def deinit(self: Any) -> None:
            if getattr(self, "_potager_inline_spi", False):
                self._spi.deinit()
            for pin in (self._dc, self._chip_select, self._reset):
                if pin is not None:
                    pin.deinit()

        bus_class.deinit = deinit


def _sh1107_region(core: Any, area: Any) -> None:
    """CircuitPython's displayio_display_core_set_region_to_update for SH1107 addressing:
    the column (x + colstart) as two command bytes, high nibble then low, then the page, each
    byte with DC low and chip select toggled after it."""
    from displayio._constants import CHIP_SELECT_TOGGLE_EVERY_BYTE, DISPLAY_COMMAND

    x1 = area.x1 + core.colstart
    page = (area.y1 + core.rowstart) // 8
    for data in (struct.pack(">BB", 0x10 | (x1 >> 4) & 0x0F, x1 & 0x0F), bytes([0xB0 | page])):
        core.begin_transaction()
        core.send(DISPLAY_COMMAND, CHIP_SELECT_TOGGLE_EVERY_BYTE, data)
        core.end_transaction()


def _library(name: str) -> Any:
    """A module as the simulator runs it (Blinka's or a fake), untyped: the stubs describe the
    device's API, not Blinka's (whose BusDisplay names reverse_bytes_in_word)."""
    return importlib.import_module(name)
