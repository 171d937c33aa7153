"""Opens the real hardware from the pin table of the board it runs on."""

import time

import board
import busio
import microcontroller
import supervisor
from adafruit_ticks import ticks_ms

from potager.hw import pins
from potager.hw.buttons import Buttons
from potager.hw.oled import Oled
from potager.hw.piezo import Piezo
from potager.hw.ring import Ring

LOOP_S = 0.01  # the loop's pace: keys are scanned by keypad in the background anyway
WATCHDOG_S = 8.0  # the RP2040 allows up to about 8.3 s


class BoardIO:
    def __init__(self):
        table = pins.table_for(getattr(board, "board_id", ""))
        self.buttons = Buttons([getattr(board, name) for name in table["keys"]])
        i2c = busio.I2C(
            getattr(board, table["scl"]),
            getattr(board, table["sda"]),
            frequency=pins.DISPLAY_FREQUENCY,
        )
        self.display = Oled(i2c)
        self.pixels = Ring(getattr(board, table["pixels"]), pins.PIXEL_COUNT)
        self.sound = Piezo(getattr(board, table["piezo"]))  # silent if none is fitted
        self.nvm = microcontroller.nvm
        self.watchdog = microcontroller.watchdog
        # With a serial console attached, someone is developing: a watchdog reset would cut
        # the REPL. On the table (no console) a hung loop resets and resumes from the save.
        if self.watchdog is not None and not supervisor.runtime.serial_connected:
            import watchdog

            self.watchdog.timeout = WATCHDOG_S
            self.watchdog.mode = watchdog.WatchDogMode.RESET
        else:
            self.watchdog = None

    def now(self):
        return ticks_ms()

    def uid(self):
        """The chip's unique id in hex: names this device in the history export."""
        uid = getattr(microcontroller.cpu, "uid", None) or b""
        return "".join(["%02x" % b for b in uid])

    # what the self-test shows
    def board_id(self):
        return getattr(board, "board_id", "?")

    def version(self):
        import sys

        return ".".join([str(part) for part in sys.implementation.version[:3]])

    def mem_free(self):
        import gc

        return gc.mem_free() if hasattr(gc, "mem_free") else 0

    def idle(self):
        if self.watchdog is not None:
            self.watchdog.feed()
        time.sleep(LOOP_S)

    def report(self, error):
        """A caught exception: its traceback on the serial console (and to the simulator)."""
        import traceback

        traceback.print_exception(error)
        hook = getattr(microcontroller, "on_crash", None)
        if hook is not None:
            hook(error)
