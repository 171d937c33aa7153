"""The simulator's wiring is the firmware's pin table, written down a second time on purpose
(a wrong pin table must fail in the simulator as on the device): the two must agree."""

import runpy
from pathlib import Path

import pytest

from host_tools.sim.boards import BOARDS, OLED_ADDRESS, RING_SIZE

PINS = Path(__file__).resolve().parents[1] / "firmware" / "potager" / "hw" / "pins.py"


@pytest.fixture(scope="module")
def pins():
    if not PINS.exists():
        pytest.skip("no pin table in the firmware yet")
    return runpy.run_path(str(PINS))  # read as data: the firmware's modules stay unimported


@pytest.mark.parametrize("board_id", sorted(BOARDS))
def test_simulated_wiring_matches_the_firmware_pin_table(pins, board_id):
    board = BOARDS[board_id]
    table = pins["table_for"](board_id)
    assert (table["scl"], table["sda"]) == (board.oled_scl, board.oled_sda)
    assert tuple(table["keys"]) == board.buttons
    assert table["pixels"] == board.ring
    assert all(name in board.pins for name in (*table["keys"], table["piezo"]))


def test_display_and_ring_constants_match(pins):
    assert pins["DISPLAY_ADDRESS"] == OLED_ADDRESS
    assert pins["PIXEL_COUNT"] == RING_SIZE
