"""The simulated boards: the names their ``board`` module has, and what is wired to which pin.

The wiring is the reference hardware of the spec (hardware/wiring.md), written here on its own
rather than read from the firmware's pin table, so that a wrong pin table fails in the
simulator as it would on the device (tests/test_sim_wiring.py keeps the two in agreement).
Pins are named by their RP2040 GPIO, as ``microcontroller.pin`` names them.
"""

from dataclasses import dataclass, field
from typing import Optional

KEY_NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN")
# a script's KEY: a function (KEY_NAMES, the firmware's key numbers 0 to 6), pressed on the
# board's key for it, or one of the MacroPad's own keys by its name (its encoder's switch is
# ENCODER); a script key is its index in SCRIPT_KEYS
MACROPAD_KEY_NAMES = tuple(f"KEY{n}" for n in range(1, 13)) + ("ENCODER",)
SCRIPT_KEYS = KEY_NAMES + MACROPAD_KEY_NAMES
RING_SIZE = 12
OLED_ADDRESS = 0x3C


@dataclass(frozen=True)
class SpiOled:
    """A display the runtime makes at power-on (``board.DISPLAY``): an SH1106 on a 4-wire SPI
    bus. Board names of its pins."""

    clock: str
    mosi: str
    command: str  # DC: low for a command byte, high for RAM data
    chip_select: str
    reset: str


@dataclass(frozen=True)
class BoardDefinition:
    board_id: str
    pins: dict[str, str]  # board name -> GPIO name
    buttons: tuple[str, ...]  # board names from here on; in the order of KEY_NAMES
    ring: str
    oled_scl: Optional[str] = None  # an SSD1306 on I2C (the MacroPad's display is on SPI)
    oled_sda: Optional[str] = None
    # the script's names of the board's own keys (MACROPAD_KEY_NAMES) -> board names
    own_keys: dict[str, str] = field(default_factory=dict)
    encoder: Optional[tuple[str, str]] = None  # (A, B) of a rotary encoder
    spi_oled: Optional[SpiOled] = None  # board.DISPLAY, made by the runtime (the MacroPad's)
    # the LEDs as a grid of (columns, rows), pixel i at row i // columns, column i % columns
    # (the MacroPad's, one under each key); None: a ring around the OLED
    led_grid: Optional[tuple[int, int]] = None

    def gpio(self, board_name: str) -> str:
        return self.pins[board_name]

    def key_pin(self, script_key: int) -> Optional[str]:
        """The board name of a script key (an index in SCRIPT_KEYS), None if it has none."""
        if script_key < len(KEY_NAMES):
            return self.buttons[script_key]
        return self.own_keys.get(SCRIPT_KEYS[script_key])

    def key_names(self) -> tuple[str, ...]:
        """The names a script may press on this board."""
        return KEY_NAMES + tuple(self.own_keys)


def _pico_pins() -> dict[str, str]:
    pins = {f"GP{n}": f"GPIO{n}" for n in range(29)}
    for n, analog in ((26, 0), (27, 1), (28, 2)):
        pins[f"GP{n}_A{analog}"] = pins[f"A{analog}"] = f"GPIO{n}"
    pins.update(
        A3="GPIO29", VOLTAGE_MONITOR="GPIO29", LED="GPIO25", SMPS_MODE="GPIO23", VBUS_SENSE="GPIO24"
    )
    return pins


PICO = BoardDefinition(
    board_id="raspberry_pi_pico",
    pins=_pico_pins(),
    oled_scl="GP5",
    oled_sda="GP4",
    buttons=("GP10", "GP11", "GP12", "GP13", "GP14", "GP15", "GP16"),
    ring="GP22",
)

FEATHER_RP2040 = BoardDefinition(
    board_id="adafruit_feather_rp2040",
    pins={
        "TX": "GPIO0",
        "D1": "GPIO0",
        "RX": "GPIO1",
        "D0": "GPIO1",
        "SDA": "GPIO2",
        "SCL": "GPIO3",
        "D4": "GPIO6",
        "D5": "GPIO7",
        "D6": "GPIO8",
        "D9": "GPIO9",
        "D10": "GPIO10",
        "D11": "GPIO11",
        "D12": "GPIO12",
        "D13": "GPIO13",
        "LED": "GPIO13",
        "NEOPIXEL": "GPIO16",
        "SCK": "GPIO18",
        "MOSI": "GPIO19",
        "MISO": "GPIO20",
        "D24": "GPIO24",
        "D25": "GPIO25",
        "A0": "GPIO26",
        "A1": "GPIO27",
        "A2": "GPIO28",
        "A3": "GPIO29",
    },
    oled_scl="SCL",
    oled_sda="SDA",
    buttons=("A0", "A1", "A2", "A3", "D24", "D25", "D4"),
    ring="D5",
)


# The MacroPad's board module (ports/raspberrypi/boards/adafruit_macropad_rp2040/pins.c): no
# GP names. Its keys: BACK UP OK / LEFT DOWN RIGHT / TURN on the six keys of the lower half
# (script TURN presses KEY10); the encoder's switch is OK too, its turns UP and DOWN.
MACROPAD = BoardDefinition(
    board_id="adafruit_macropad_rp2040",
    pins={
        "BUTTON": "GPIO0",
        "ENCODER_SWITCH": "GPIO0",
        **{f"KEY{n}": f"GPIO{n}" for n in range(1, 13)},
        "LED": "GPIO13",
        "SPEAKER_ENABLE": "GPIO14",
        "SPEAKER": "GPIO16",
        "ROTA": "GPIO17",
        "ENCODER_A": "GPIO17",
        "ROTB": "GPIO18",
        "ENCODER_B": "GPIO18",
        "NEOPIXEL": "GPIO19",
        "SDA": "GPIO20",
        "SCL": "GPIO21",
        "OLED_CS": "GPIO22",
        "OLED_RESET": "GPIO23",
        "OLED_DC": "GPIO24",
        "SCK": "GPIO26",
        "MOSI": "GPIO27",
        "MISO": "GPIO28",
    },
    buttons=("KEY2", "KEY5", "KEY4", "KEY6", "KEY3", "KEY1", "KEY10"),
    ring="NEOPIXEL",
    own_keys={
        **{f"KEY{n}": f"KEY{n}" for n in range(1, 13)},
        "ENCODER": "BUTTON",
    },
    encoder=("ROTA", "ROTB"),
    spi_oled=SpiOled(
        clock="SCK", mosi="MOSI", command="OLED_DC", chip_select="OLED_CS", reset="OLED_RESET"
    ),
    led_grid=(3, 4),
)

BOARDS = {board.board_id: board for board in (PICO, FEATHER_RP2040, MACROPAD)}
