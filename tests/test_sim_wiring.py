"""The simulator's wiring is the firmware's pin table, written down a second time on purpose
(a wrong pin table must fail in the simulator as on the device): the two must agree."""

import runpy
from pathlib import Path

import pytest

from host_tools.sim.boards import BOARDS, KEY_NAMES, OLED_ADDRESS, RING_SIZE

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
    assert (table.get("scl"), table.get("sda")) == (board.oled_scl, board.oled_sda)
    if "keymap" in table:  # the key the simulator presses for each function is one of it
        for function, name in zip(KEY_NAMES, board.buttons, strict=True):
            assert table["keymap"][table["keys"].index(name)] == function
        assert table["keymap"][table["keys"].index(board.own_keys["ENCODER"])] == "OK"
    else:
        assert tuple(table["keys"]) == board.buttons
    assert tuple(table.get("encoder", ())) == (board.encoder or ())
    assert table["pixels"] == board.ring
    named = (*table["keys"], table["piezo"], *table.get("encoder", ()))
    assert all(name in board.pins for name in named)


def test_display_and_ring_constants_match(pins):
    assert pins["DISPLAY_ADDRESS"] == OLED_ADDRESS
    assert pins["PIXEL_COUNT"] == RING_SIZE
