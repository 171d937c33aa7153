"""What slow work costs on the board, charged to the simulated board's virtual clock.

Figures for a Raspberry Pi Pico (RP2040 at 125 MHz) running CircuitPython 10.2.1, measured on
an emulated Pico running the unmodified firmware, and from the parts' data sheets where the
emulator does not model the part (I2C bus time, flash erase). Only the work below is charged;
plain Python computation is free in the simulator (it is 10-100x slower on the board).

=============================  ============  ===================================================
work                           virtual time  from
=============================  ============  ===================================================
I2C, per byte                  25 µs         400 kHz: 9 clocks a byte (a 1 KB frame ~25 ms)
I2C, per write                 40 µs         start, address byte, stop, the driver's call
displayio rendering, per byte  45 µs         the pixels of the areas a refresh sends, drawn
sent                                         from the tile grids: a full frame (1050 bytes)
                                             in 48 ms, a character (25 bytes) in 1 ms
NVM write, erase + program     60 ms         4 KiB sector erase (~45 ms) + 16 pages programmed,
                                             interrupts off
import of a module             8 ms + 3 µs   found and loaded from the CIRCUITPY drive (a
                               per byte      library as .mpy; size: its .py source)
compiling a firmware .py       28 µs a byte  boot to first frame 7.9 s from .py against 6.1 s
                                             from .mpy: 1.8 s for the 63 KB imported at boot
a read from a drive file       200 µs + 1    the call and the Python that parses what it gave:
                               µs per byte   a 20 KB BDF read line by line (1,700 lines) in
                                             0.35 s, as its scans took 0.16-0.7 s on the board
supervisor.ticks_ms() call     5 µs          a call into the core from Python
=============================  ============  ===================================================

Not charged: the 2.3 s from power-on to code.py (the simulator starts code.py at once) and a
soft reload's own pause.
"""

I2C_BYTE_US = 25
I2C_WRITE_US = 40
RENDER_US_PER_BYTE = 45  # displayio's refresh drawing what it then sends, in C on the board
NVM_WRITE_US = 60_000
IMPORT_US = 8_000
LOAD_US_PER_BYTE = 3
COMPILE_US_PER_BYTE = 28  # a .py source, compiled on the board
TICKS_CALL_US = 5
FILE_READ_US = 200
FILE_BYTE_US = 1
KEY_SCAN_US = 20_000  # keypad scans the keys every 20 ms; events carry the scan's time
