"""The ring of NeoPixels, brightness capped for USB power (see hardware/power.md), or the
MacroPad's pixels under its keys standing for the ring's places."""

import neopixel

BRIGHTNESS_CAP = 0.25


class Ring:
    def __init__(self, pin, count, places=None, brightness=BRIGHTNESS_CAP):
        """places: the pixel that shows each of the ring's places (None: pixel i, place i)."""
        self.pixels = neopixel.NeoPixel(pin, count, brightness=brightness, auto_write=False)
        self.shown = [-1] * count
        self.places = places
        self.merged = [0] * count

    def show(self, leds):
        """leds: 0xRRGGBB ints, one a place; only a changed ring is sent."""
        if self.places is not None:
            leds = self.merge(leds)
        changed = False
        for i in range(len(self.shown)):
            if leds[i] != self.shown[i]:
                self.pixels[i] = leds[i]
                self.shown[i] = leds[i]
                changed = True
        if changed:
            self.pixels.show()

    def merge(self, leds):
        # Two places on one pixel: the brighter shows (an active seat over a timer's glimmer).
        merged = self.merged
        for i in range(len(merged)):
            merged[i] = 0
        for place in range(len(leds)):
            pixel = self.places[place]
            colour = leds[place]
            if level(colour) > level(merged[pixel]):
                merged[pixel] = colour
        return merged


def level(colour):
    return (colour >> 16) + (colour >> 8 & 0xFF) + (colour & 0xFF)
