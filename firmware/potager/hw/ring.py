"""The ring of NeoPixels, brightness capped for USB power (see hardware/power.md)."""

import neopixel

BRIGHTNESS_CAP = 0.25


class Ring:
    def __init__(self, pin, count, brightness=BRIGHTNESS_CAP):
        self.pixels = neopixel.NeoPixel(pin, count, brightness=brightness, auto_write=False)
        self.shown = [-1] * count

    def show(self, leds):
        """leds: 0xRRGGBB ints; only a changed ring is sent."""
        changed = False
        for i in range(len(self.shown)):
            if leds[i] != self.shown[i]:
                self.pixels[i] = leds[i]
                self.shown[i] = leds[i]
                changed = True
        if changed:
            self.pixels.show()
