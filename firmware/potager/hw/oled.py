"""The SSD1306 OLED through displayio: a grid of bitmap labels, redrawn only where changed.

Each text row is cut into the segments of ``potager.ui.view.SEGMENTS``; a segment whose text
is unchanged is not touched, so displayio sends only the dirty areas over I2C. Rows are 12 px
high from y = 0, so each spans exactly two 8-pixel pages of the controller.
"""

import adafruit_displayio_ssd1306
import displayio
import i2cdisplaybus
from adafruit_display_text import bitmap_label

from potager.hw import pins
from potager.hw.font import Font
from potager.ui.view import ROWS, SEGMENTS

WIDTH = 128
HEIGHT = 64
CHAR_W = 6
ROW_H = 12
FONT = "/fonts/terminus-12.bin"


def font_path():
    # the package folder, wherever it is mounted (/potager on the board)
    return __file__.rsplit("/", 2)[0] + FONT


class Oled:
    def __init__(self, i2c):
        # displayio.release_displays() came before the bus was made (board_io): after a soft
        # reload the old display holds the pins until then
        bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=pins.DISPLAY_ADDRESS)
        self.display = adafruit_displayio_ssd1306.SSD1306(
            bus, width=WIDTH, height=HEIGHT, auto_refresh=False
        )
        font = Font(font_path())
        self.group = displayio.Group()
        self.labels = []
        self.drawn = []
        for row in range(ROWS):
            for seg in range(len(SEGMENTS) - 1):
                label = bitmap_label.Label(
                    font,
                    text="",
                    color=0xFFFFFF,
                    base_alignment=True,
                )
                label.x = SEGMENTS[seg] * CHAR_W
                label.y = row * ROW_H + 9  # baseline: 9 px of ascent above, 2 of descent below
                self.group.append(label)
                self.labels.append(label)
                self.drawn.append("")
        self.display.root_group = self.group
        self.blank = displayio.Group()  # shown for no frame: see show()
        self.awake = True

    def show(self, rows):
        index = 0
        pixels = 0  # columns of the areas displayio will send: each label's old and new
        for row in range(ROWS):
            text = rows[row]
            for seg in range(len(SEGMENTS) - 1):
                part = text[SEGMENTS[seg] : SEGMENTS[seg + 1]]
                if part != self.drawn[index]:
                    pixels += (len(self.drawn[index].rstrip()) + len(part.rstrip())) * CHAR_W
                    self.drawn[index] = part
                    self.labels[index].text = part.rstrip()
                index += 1
        if pixels * 2 > WIDTH * HEIGHT // 8:
            # displayio sends each dirty area on its own, overlaps twice: past a whole frame
            # (two pages a row), one full refresh is less. A new root group makes it one.
            self.display.root_group = self.blank
            self.display.root_group = self.group
        self.display.refresh()

    def sleep(self):
        if self.awake:
            self.display.sleep()
            self.awake = False

    def wake(self):
        if not self.awake:
            self.display.wake()
            self.awake = True
