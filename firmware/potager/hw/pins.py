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

# board.board_id -> table; unknown boards fall back to the Pico's
TABLES = {
    "raspberry_pi_pico": PICO,
    "raspberry_pi_pico2": PICO,
    "adafruit_feather_rp2040": FEATHER_RP2040,
}

DISPLAY_ADDRESS = 0x3C
DISPLAY_FREQUENCY = 400_000
PIXEL_COUNT = 12


def table_for(board_id):
    return TABLES.get(board_id, PICO)
