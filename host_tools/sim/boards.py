"""The simulated boards: the names their ``board`` module has, and what is wired to which pin.

The wiring is the reference hardware of the spec (hardware/wiring.md), written here on its own
rather than read from the firmware's pin table, so that a wrong pin table fails in the
simulator as it would on the device (tests/test_sim_wiring.py keeps the two in agreement).
Pins are named by their RP2040 GPIO, as ``microcontroller.pin`` names them.
"""

from dataclasses import dataclass

KEY_NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK", "TURN")
RING_SIZE = 12
OLED_ADDRESS = 0x3C


@dataclass(frozen=True)
class BoardDefinition:
    board_id: str
    pins: dict[str, str]  # board name -> GPIO name
    oled_scl: str  # board names from here on
    oled_sda: str
    buttons: tuple[str, ...]  # in the order of KEY_NAMES
    ring: str

    def gpio(self, board_name: str) -> str:
        return self.pins[board_name]


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

BOARDS = {board.board_id: board for board in (PICO, FEATHER_RP2040)}
