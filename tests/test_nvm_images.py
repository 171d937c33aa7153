"""Whatever the NVM holds, the device boots: random images, bit flips of a real save, saves
torn at every byte. It never crashes; it resumes a save that is intact, or starts clean and
says so."""

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "mpy"))

from pureboard import PureBoard

from potager.core import persist

GAME = "press DOWN\npress OK\npress OK\npress OK\npress OK\npress RIGHT\npress TURN\nwait 3000\n"


def saved_image():
    board = PureBoard()
    board.script(GAME)
    return bytes(board.nvm), board.app.engine.state


IMAGE, STATE = saved_image()


def boots(nvm):
    """Boot on `nvm`, play a few keys; returns the board (raises on any crash)."""
    board = PureBoard(bytearray(nvm))
    board.script("wait 700\npress RIGHT\npress TURN\npress OK\npress BACK\nwait 100")
    assert len(board.rows()) == 5
    return board


def random_image(seed):
    """Noise; every other one dressed as our slots (magic, format) to get past the first check."""
    rng = random.Random(seed)
    nvm = bytearray(rng.randrange(256) for _ in range(4096))
    if seed % 2:
        for start in (0, 2048):
            nvm[start : start + 3] = persist.MAGIC + bytes([persist.FORMAT])
            nvm[start + 8 : start + 10] = rng.randrange(64).to_bytes(2, "little")
    return bytes(nvm)


@pytest.mark.parametrize("seed", range(100))
def test_random_images_never_crash_the_boot(seed):
    nvm = random_image(seed)
    board = boots(nvm)
    status = persist.Store(bytearray(nvm)).load()[0]
    if status != persist.OK:
        assert board.app.engine is None  # clean start


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4096 * 8 - 1), min_size=1, max_size=8))
def test_bit_flips_in_a_real_save_never_crash_and_never_give_a_wrong_game(bits):
    nvm = bytearray(IMAGE)
    for bit in bits:
        nvm[bit // 8] ^= 1 << (bit % 8)
    board = PureBoard(nvm)
    engine = board.app.engine
    assert engine is None or engine.state == STATE  # the game exactly, or none
    boots(nvm)


def test_every_byte_of_the_save_corrupted_in_turn():
    rng = random.Random(5)
    length = persist.HEADER_SIZE + int.from_bytes(IMAGE[8:10], "little")
    for offset in range(length):
        nvm = bytearray(IMAGE)
        nvm[offset] ^= rng.randrange(1, 256)
        board = PureBoard(nvm)
        engine = board.app.engine
        assert engine is None or engine.state == STATE, offset
        if engine is None:
            assert board.rows()[4].strip(), "a clean start says why"
