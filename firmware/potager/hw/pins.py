"""Pin tables: the only place where the firmware names pins.

Values are attribute names of CircuitPython's ``board`` module, so this table imports nothing
and the docs, the simulator and the tests can read it on any Python.
The key order is the key numbering of the whole firmware (``potager.core.keys``).
"""

# Raspberry Pi Pico and Pico 2 (reference hardware v1)
PICO = {
    "sda": "GP4",
    "scl": "GP5",
    "keys": ("GP10", "GP11", "GP12", "GP13", "GP14", "GP15", "GP16"),
    "pixels": "GP22",
    "piezo": "GP18",
}

# Adafruit Feather RP2040: STEMMA QT for the OLED, keys on the analog and upper pins
FEATHER_RP2040 = {
    "sda": "SDA",
    "scl": "SCL",
    "keys": ("A0", "A1", "A2", "A3", "D24", "D25", "D4"),
    "pixels": "D5",
    "piezo": "D6",
}

# Adafruit MacroPad RP2040: nothing to wire. Its display is the runtime's board.DISPLAY (an
# SH1106 on SPI, never released: releasing it loses it until a hard reset); its 12 keys and
# the encoder's switch give the firmware's keys through "keymap", the encoder's turns give UP
# and DOWN; a NeoPixel under each key (a 3 x 4 grid, pixel i under KEY(i+1)); a speaker
# behind an amplifier switched on by SPEAKER_ENABLE.
MACROPAD = {
    "display": "DISPLAY",
    "keys": tuple("KEY%d" % n for n in range(1, 13)) + ("BUTTON",),
    # the firmware's key of each of "keys": the top half an arrow cluster with BACK and OK
    # beside UP, the whole lower half TURN, the encoder's switch OK
    "keymap": (("BACK", "UP", "OK") + ("LEFT", "DOWN", "RIGHT") + ("TURN",) * 6 + ("OK",)),
    "encoder": ("ROTA", "ROTB"),  # a detent clockwise is DOWN, anticlockwise UP
    "pixels": "NEOPIXEL",
    # the pixel that shows each of the ring's 12 places (0 at the top, clockwise): the ten
    # keys around the grid's edge, seen from the seats around the table; the places 3 and 4,
    # 9 and 10 share a key (no default seating puts two seats there)
    "ring_pixels": (1, 2, 5, 8, 8, 11, 10, 9, 6, 3, 3, 0),
    "piezo": "SPEAKER",
    "piezo_enable": "SPEAKER_ENABLE",
}

# board.board_id -> table; unknown boards fall back to the Pico's
TABLES = {
    "raspberry_pi_pico": PICO,
    "raspberry_pi_pico2": PICO,
    "adafruit_feather_rp2040": FEATHER_RP2040,
    "adafruit_macropad_rp2040": MACROPAD,
}

DISPLAY_ADDRESS = 0x3C
DISPLAY_FREQUENCY = 400_000
PIXEL_COUNT = 12


def table_for(board_id):
    return TABLES.get(board_id, PICO)
