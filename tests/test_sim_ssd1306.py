"""The SSD1306 emulator, fed by the real displayio driver over the fake I2C bus."""

import importlib
import random
import time

import pytest

from host_tools.sim import fakes
from host_tools.sim.boards import PICO
from host_tools.sim.machine import Machine
from host_tools.sim.ssd1306 import SSD1306

FULL_FRAME_BYTES = 6 + 6 + 1 + 1024  # column range, page range, 0x40 + GDDRAM
INIT_BYTES = 46  # 13 init commands and the brightness command


@pytest.fixture
def machine(monkeypatch):
    """A powered machine with the fakes attached, outside any SimBoard run."""
    fakes.install()
    machine = Machine(PICO)
    fakes.attach(machine, PICO)
    machine.power_on()
    machine.start_firmware()
    monkeypatch.setattr(time, "sleep", lambda seconds: None)  # the driver's init delays
    displayio = importlib.import_module("displayio")
    displayio._stop_background()
    yield machine
    displayio.release_displays()
    fakes.attach(None)


def _display():
    board = importlib.import_module("board")
    busio = importlib.import_module("busio")
    displayio = importlib.import_module("displayio")
    i2cdisplaybus = importlib.import_module("i2cdisplaybus")
    ssd1306 = importlib.import_module("adafruit_displayio_ssd1306")
    displayio.release_displays()
    i2c = busio.I2C(board.GP5, board.GP4, frequency=400_000)
    bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=0x3C)
    return ssd1306.SSD1306(bus, width=128, height=64, auto_refresh=False)


def _scene(texts, positions):
    displayio = importlib.import_module("displayio")
    terminalio = importlib.import_module("terminalio")
    bitmap_label = importlib.import_module("adafruit_display_text.bitmap_label")
    group = displayio.Group()
    labels = []
    for text, (x, y) in zip(texts, positions, strict=True):
        label = bitmap_label.Label(terminalio.FONT, text=text, x=x, y=y)
        group.append(label)
        labels.append(label)
    return group, labels


def test_init_and_full_frame_byte_counts(machine):
    display = _display()
    assert machine.i2c_bytes == INIT_BYTES
    group, _ = _scene(["Potager"], [(10, 10)])
    display.root_group = group
    display.refresh()
    assert machine.i2c_bytes == INIT_BYTES + FULL_FRAME_BYTES
    assert machine.oled.display_on and machine.oled.contrast == 0xFF


def test_incremental_updates_match_one_full_render(machine):
    rng = random.Random(7)
    words = ["0", "12", "Karma 5", "-3", "Ana", "harvest 6", "", "TURN", "99+"]

    def random_scene():
        texts = [rng.choice(words) for _ in range(4)]
        positions = [(rng.randrange(0, 100), rng.randrange(6, 58)) for _ in range(4)]
        return texts, positions

    display = _display()
    group, labels = _scene(*random_scene())
    display.root_group = group
    display.refresh()
    for _ in range(60):
        texts, positions = random_scene()
        for label, text, (x, y) in zip(labels, texts, positions, strict=True):
            label.text, label.x, label.y = text, x, y
        display.refresh()
    incremental = machine.oled.pixels()
    assert any(any(row) for row in incremental)

    machine.oled = SSD1306()  # a fresh panel, drawn once
    display = _display()
    display.root_group, _ = _scene(texts, positions)
    display.refresh()
    assert machine.oled.pixels() == incremental


def _lit(oled):
    pixels = oled.pixels()
    return [(y, x) for y in range(64) for x in range(128) if pixels[y][x]]


def test_addressing_modes_and_display_commands():
    oled = SSD1306()
    # display on, horizontal addressing, upright (A1, C8): one command a control byte
    oled.write(bytes([0x80, 0xAF, 0x80, 0x20, 0x80, 0x00, 0x80, 0xA1, 0x80, 0xC8]))
    oled.write(bytes([0x00, 0x21, 2, 3, 0x22, 1, 2]))  # a command stream: columns 2-3, pages 1-2
    oled.write(bytes([0x40, 0x01, 0x80, 0x01, 0x80]))
    assert _lit(oled) == [(8, 2), (15, 3), (16, 2), (23, 3)]

    oled.write(bytes([0x00, 0x20, 0x01, 0x21, 0, 0, 0x22, 0, 1]))  # vertical: 1 column, 2 pages
    oled.write(bytes([0x40, 0x01, 0x01]))
    assert _lit(oled)[:2] == [(0, 0), (8, 0)]

    oled.write(bytes([0x80, 0xA7]))  # inverse
    assert len(_lit(oled)) == 128 * 64 - 6
    oled.write(bytes([0x80, 0xAE]))  # display off
    assert _lit(oled) == []
    assert oled.unknown_commands == []


def test_the_firmware_oled_shows_every_frame_it_is_given(machine):
    """potager.hw.oled through the real driver: segments blanked and written again, accents, a
    character the font lacks, full and partial refreshes; after every frame the panel reads
    back as the rows (the firmware's font), and as one fresh draw of them."""
    from host_tools.common import firmware
    from host_tools.pico.ocr import ScreenReader

    oled_module = firmware("potager.hw.oled")
    view = firmware("potager.ui.view")
    busio = importlib.import_module("busio")
    board = importlib.import_module("board")
    displayio = importlib.import_module("displayio")

    i2cdisplaybus = importlib.import_module("i2cdisplaybus")
    ssd1306 = importlib.import_module("adafruit_displayio_ssd1306")

    def make():
        displayio.release_displays()
        bus = i2cdisplaybus.I2CDisplayBus(
            busio.I2C(board.GP5, board.GP4, frequency=400_000), device_address=0x3C
        )
        return oled_module.Oled(ssd1306.SSD1306(bus, width=128, height=64, auto_refresh=False))

    rng = random.Random(3)
    words = ["Réglages", "12", "▶", "Karma 5", "●P2", "☃", "é", "Round 10", "", "-3"]

    def row():
        out = [" "] * view.COLS
        for _ in range(rng.randrange(0, 3)):
            word = rng.choice(words)
            at = rng.randrange(0, view.COLS)
            out[at : at + len(word)] = word
        return "".join(out)[: view.COLS]

    reader = ScreenReader()
    oled = make()
    rows = []
    for _ in range(40):
        rows = [row() for _ in range(view.ROWS)] if rng.random() < 0.3 else list(rows or [""] * 5)
        for r in rng.sample(range(view.ROWS), 2):
            rows[r] = row()
        oled.show(rows)
        expected = [r.replace("☃", "?").rstrip() for r in rows]
        assert reader.rows(machine.oled.pixels()) == expected
    shown = machine.oled.pixels()
    machine.oled = SSD1306()
    make().show(rows)
    assert machine.oled.pixels() == shown
