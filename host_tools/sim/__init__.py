"""The simulated board: the real firmware/code.py and Adafruit libraries on fake core modules.

Command line: ``python -m host_tools sim`` (terminal UI) or
``python -m host_tools sim --headless --script FILE [--frames OUT.jsonl] [--png OUT.png]
[--state OUT.json] [--nvm NVM.bin] [--allow-crashes] [--firmware DIR] [--drive DIR]``
(``cli.py``, which ``python -m host_tools sim`` runs: not imported here, since it dispatches
``--board pico`` and ``macropad`` to ``host_tools.pico``, which imports this package; script
commands in ``script.py``).

Python API (for tests)::

    from host_tools.sim import SimBoard, ScriptError

    board = SimBoard(firmware_dir=DEFAULT_FIRMWARE, *, nvm=ERASED_NVM,
                     board_id="raspberry_pi_pico",  # or "adafruit_feather_rp2040",
                                                    # "adafruit_macropad_rp2040"
                     uptime_ms=0,      # the script starts this long after power-on
                     console=False,    # a terminal has the USB serial console open
                     drive=None)       # a folder whose files appear beside code.py (players.txt)
    result = board.run_script("wait 500\\npress OK\\n")     # -> RunResult; ScriptError if bad
    result.frames       # [{"t_ms", "screen", "leds", "i2c_bytes"}], one per visible change
                        # (the MacroPad's: "spi_bytes" instead of "i2c_bytes")
    result.state        # potager.app.current.snapshot() at the end (None if not running)
    result.nvm          # the 4096-byte NVM image at the end (b"\\xff" * 4096 when new)
    result.nvm_writes   # [NvmWrite(t_ms, start, length, torn, erased, pages, landed, free,
                        #  record)], one a write
    result.crashes      # [Crash(t_ms, caught, traceback)]: exceptions, watchdog resets
    result.warnings     # e.g. a key pressed before the firmware had its keypad.Keys
    result.pixels, result.leds, result.end_ms
    board.pixels()      # the OLED now: 64 rows of 128 bools
    board.leds()        # the ring now: 12 "#rrggbb", pixel 0 at the top, clockwise
    board.nvm           # bytes; the next run_script starts from it (a power cycle)

Each ``run_script`` powers the board on at t=0 with the NVM it has, runs until the script's
last event has been handled and seen by a key scan (and the firmware has reached a sleep with
its app running, at most 10 s of virtual time later), and leaves the process as it found it:
``time`` restored, sys.path and the firmware's modules back as they were (the fakes stay in
sys.modules).

Frames: at each firmware sleep, if the firmware's screen rows, the bytes sent to the OLED or
the LED bytes changed since the last frame (and ``potager.app.current`` exists), a frame is
recorded. Work is charged to virtual time (``costs.py``): I2C bytes, NVM writes, imports.
``i2c_bytes`` counts every byte handed to ``busio.I2C.writeto`` since the previous
frame, control bytes included, address byte and bus overhead excluded: a full frame is
6 (``0x21`` column range as three ``0x80``-prefixed pairs) + 6 (``0x22`` page range) +
1025 (``0x40`` then 1024 GDDRAM bytes) = 1037. The first frame after a boot also carries
the display's init sequence (14 writes, 46 bytes).

On the MacroPad RP2040 the display is ``board.DISPLAY``, made by the runtime at power-on as
CircuitPython's board_init does (``displays.py``: Blinka's real ``fourwire`` and
``busdisplay`` over the fake ``busio.SPI``), kept through soft reloads, ``None`` after
``displayio.release_displays()`` until the power comes back; an SH1106 emulator
(``sh1106.py``) reads its bus. ``spi_bytes`` counts every byte on that bus since the previous
frame, commands (DC low) and data: a full frame is 8 pages of ``1h 0l bP`` + 128 = 1048, a
changed character 2 pages of 3 + 6 = 18; the first frame also carries what the runtime sent
before code.py (29 bytes of init and brightness, its terminal: a full frame). Its encoder is
``rotaryio`` (``turn N`` in scripts; ``board.turn(n)`` live).
"""

from host_tools.sim.machine import ERASED_NVM, NVM_SIZE, Crash, NvmWrite
from host_tools.sim.runner import DEFAULT_FIRMWARE, RunResult, SimBoard
from host_tools.sim.script import Command, ScriptError, parse_script

__all__ = [
    "DEFAULT_FIRMWARE",
    "ERASED_NVM",
    "NVM_SIZE",
    "Command",
    "Crash",
    "NvmWrite",
    "RunResult",
    "ScriptError",
    "SimBoard",
    "parse_script",
]
