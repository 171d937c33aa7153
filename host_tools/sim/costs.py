"""What slow work costs on the board, charged to the simulated board's virtual clock.

Figures for a Raspberry Pi Pico (RP2040 at 125 MHz) running CircuitPython 10.2.1, measured on
an emulated Pico running the unmodified firmware (``.mpy``, as deployed), and from the parts'
data sheets where the emulator does not model the part (I2C bus time, flash erase). Only the
work below is charged; plain Python computation is free in the simulator (it is 10-100x slower
on the board) except at start-up, from code.py's start to the first frame.

=============================  ============  ===================================================
work                           virtual time  from
=============================  ============  ===================================================
I2C, per byte                  25 µs         400 kHz: 9 clocks a byte (a 1 KB frame ~25 ms)
I2C, per write                 40 µs         start, address byte, stop, the driver's call
SPI, per byte (the MacroPad's  0.9 µs        its SSP at 125 MHz / 14 = 8.93 MHz (10 MHz asked):
display, instead of I2C)                     8 clocks a byte; a full frame (1048 bytes) ~1 ms;
                                             and 1 µs after each command byte, the CS toggle's
                                             delay (FourWire's, a busy wait in C on the board)
displayio rendering, per byte  45 µs         the pixels of the areas a refresh sends, drawn
sent (I2C or SPI)                            from the tile grids: a full frame (1050 bytes)
                                             in 48 ms, a character (25 bytes) in 1 ms
NVM write, erase + program     60 ms         4 KiB sector erase (~45 ms) + 16 pages programmed,
                                             interrupts off
power back (or a reset) to     1.22 s        CircuitPython's own start, before code.py (on a
code.py                                      drive that has booted before: the first boot of a
                                             new drive writes boot_out.txt, 2.48 s)
import of a module             5.4 ms +      found and loaded from the CIRCUITPY drive as .mpy
                               0.42 µs per   (size: its .py source): fitted to the 39 imports
                               byte          of a resume timed one by one (5-23 ms each), then
                                             with the line below to the six resumes of the
                                             board without USB's storm (docs/pico.md); none
                                             for a module in the board's core (adafruit_pixelbuf)
code.py's first import         +50 ms        the runtime's own work as code.py starts
a line of firmware Python at   20 µs         the restore of a save (journal checks, replay,
start-up                                     screen): fitted to each mode's resume, 1.9-2.1 s
                                             on the board, 0.1-0.3 s of it this Python
a read from a drive file       200 µs + 1    the call and the Python that parses what it gave:
                               µs per byte   a 20 KB BDF read line by line (1,700 lines) in
                                             0.35 s, as its scans took 0.16-0.7 s on the board
supervisor.ticks_ms() call     5 µs          a call into the core from Python
=============================  ============  ===================================================

A run's first power-on is its t=0 and starts code.py at once (scripts type from there); only a
power back (``boot``) or a reset is charged CircuitPython's start. Not charged: a soft reload's
own pause.
"""

I2C_BYTE_US = 25
I2C_WRITE_US = 40
SPI_BYTE_NS = 900  # the MacroPad's display bus, 8 bits at 8.93 MHz
RENDER_US_PER_BYTE = 45  # displayio's refresh drawing what it then sends, in C on the board
NVM_WRITE_US = 60_000
SUPERVISOR_US = 1_220_000  # power back (or a reset) to code.py's start
IMPORT_US = 5_400
LOAD_NS_PER_BYTE = 420  # per byte of the module's .py source (the drive holds its .mpy)
FIRST_IMPORT_US = 50_000
PYTHON_LINE_US = 20  # a line of the firmware's Python, from code.py's start to the first frame
TICKS_CALL_US = 5
FILE_READ_US = 200
FILE_BYTE_US = 1
KEY_SCAN_US = 20_000  # keypad scans the keys every 20 ms; events carry the scan's time
