"""Opens the real hardware from the pin table of the board it runs on.

Nothing here may stop the firmware: a part that fails to open (a display that does not answer,
pins still held) is replaced by a stand-in that does nothing, and the error is reported on the
serial console; the keys and the game go on.
"""

import time

import board
import displayio
import microcontroller
import supervisor
from adafruit_ticks import ticks_ms

from potager.hw import pins

LOOP_S = 0.01  # the loop's pace: keys are scanned by keypad in the background anyway
WATCHDOG_S = 8.0  # the RP2040 allows up to about 8.3 s


class Absent:
    """Stands in for keys, a display, a ring or a piezo that could not be opened."""

    def poll(self):
        return None

    def sample(self):
        pass

    def show(self, *args):
        pass

    def sleep(self):
        pass

    def wake(self):
        pass

    def start(self, frequency):
        pass

    def stop(self):
        pass


class Piezo:
    """The optional piezo, or the MacroPad's speaker: short beeps for the timer's warnings,
    without blocking the loop. (Here rather than in a module of its own: each module imported
    at boot costs the board ~8 ms of its 3 s budget to the first frame.)"""

    HALF = 0x8000  # 50 % duty: the loudest square wave

    def __init__(self, pin, enable=None):
        import pwmio

        self.pwm = pwmio.PWMOut(pin, frequency=2000, duty_cycle=0, variable_frequency=True)
        self.enable = None  # the amplifier's switch (the MacroPad's): on only while it sounds
        if enable is not None:
            import digitalio

            self.enable = digitalio.DigitalInOut(enable)
            self.enable.switch_to_output(value=False)

    def start(self, frequency):
        self.pwm.frequency = frequency
        self.pwm.duty_cycle = Piezo.HALF
        if self.enable is not None:
            self.enable.value = True

    def stop(self):
        self.pwm.duty_cycle = 0
        if self.enable is not None:
            self.enable.value = False


class LateRing:
    """The ring, opened after the first loop step, whose frame has then gone to the OLED (the
    neopixel library's import costs the board ~25 ms of the 3 s to the first frame). Dark
    until then, as NeoPixels are from power-on; what was shown meanwhile is shown then."""

    def __init__(self, io, table):
        self.io = io
        self.table = table
        self.ring = None
        self.leds = None  # the colours shown before the ring was open

    def show(self, leds):
        if self.ring is None:
            self.leds = leds
        else:
            self.ring.show(leds)

    def open(self):
        self.ring = self.io.part(self.io.open_ring, self.table)
        if self.leds is not None:
            self.ring.show(self.leds)
            self.leds = None


class BoardIO:
    def __init__(self):
        from potager.hw import buttons

        table = pins.table_for(getattr(board, "board_id", ""))
        early = buttons.early
        self.buttons = self.part(lambda table: buttons.for_board(early), table)
        buttons.early = None
        self.dial = "encoder" in table  # the help screens say what the encoder does
        if "display" not in table:
            # After a soft reload (autoreload, Ctrl-D) the last run's display and its I2C bus
            # are still alive and hold the display's pins: release them before anything else.
            # (Not a display the runtime made, as the MacroPad's: released, it is gone until a
            # hard reset.)
            displayio.release_displays()
        # Read with no display up: a display's terminal counts as a console for the board.
        # A console means someone is developing, and a watchdog reset would cut their REPL.
        console = supervisor.runtime.serial_connected
        self.display = self.part(self.open_display, table)
        self.pixels = LateRing(self, table)
        self.sound = self.part(self.open_piezo, table)
        self.nvm = microcontroller.nvm
        self.watchdog = None
        if microcontroller.watchdog is not None and not console:
            import watchdog

            self.watchdog = microcontroller.watchdog
            self.watchdog.timeout = WATCHDOG_S
            self.watchdog.mode = watchdog.WatchDogMode.RESET

    def part(self, opener, table):
        try:
            return opener(table)
        except Exception as error:
            self.report(error)
            return Absent()

    def open_display(self, table):
        from potager.hw import oled

        if "display" in table:
            display = getattr(board, table["display"])
            if display is None:  # released by earlier firmware: back at the next power-on
                raise RuntimeError("board.DISPLAY was released: unplug and plug in again")
            display.auto_refresh = False
            return oled.Oled(display)
        import adafruit_displayio_ssd1306
        import busio
        import i2cdisplaybus

        i2c = busio.I2C(
            getattr(board, table["scl"]),
            getattr(board, table["sda"]),
            frequency=pins.DISPLAY_FREQUENCY,
        )
        try:
            bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=pins.DISPLAY_ADDRESS)
            return oled.Oled(
                adafruit_displayio_ssd1306.SSD1306(
                    bus, width=oled.WIDTH, height=oled.HEIGHT, auto_refresh=False
                )
            )
        except Exception:
            displayio.release_displays()
            i2c.deinit()  # the pins are free again for the next try (a reload)
            raise

    def open_ring(self, table):
        from potager.hw.ring import Ring

        return Ring(getattr(board, table["pixels"]), pins.PIXEL_COUNT, table.get("ring_pixels"))

    def open_piezo(self, table):
        enable = table.get("piezo_enable")
        # silent if none is fitted
        return Piezo(getattr(board, table["piezo"]), enable and getattr(board, enable))

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
        if self.pixels.ring is None:
            self.pixels.open()
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
