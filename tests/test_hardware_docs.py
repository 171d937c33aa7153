"""The hardware docs agree with the firmware's pin table (firmware/potager/hw/pins.py)."""

import ast
import importlib.util
import io
import re
import sys
from pathlib import Path

import pytest
from PIL import Image

from potager.core import keys
from potager.hw import pins

ROOT = Path(__file__).resolve().parent.parent
HW = ROOT / "hardware"

# The Pico / Pico 2 header, pin 1 to 40, written out independently of the generator script.
PICO_HEADER = (
    # pins 1-20, the GP0 side
    "GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7",
    "GP8", "GP9", "GND", "GP10", "GP11", "GP12", "GP13", "GND", "GP14", "GP15",
    # pins 21-40, from the GP16 end back to VBUS next to the USB socket
    "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22", "RUN",
    "GP26", "GP27", "AGND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS",
)  # fmt: skip
SIGNALS = {"SDA": "sda", "SCL": "scl", "DIN": "pixels", "PIEZO": "piezo"}


def load_script():
    spec = importlib.util.spec_from_file_location(
        "make_wiring_diagram", HW / "make_wiring_diagram.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def stub_gpio(board_id: str) -> dict[str, int]:
    """board name -> GPIO number, from circuitpython-stubs' board definitions."""
    spec = importlib.util.find_spec("board_definitions")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("circuitpython-stubs not installed")
    text = (
        Path(next(iter(spec.submodule_search_locations))) / board_id / "__init__.pyi"
    ).read_text()
    return {
        m[0]: int(m[1])
        for m in re.findall(r"^(\w+): microcontroller\.Pin  # GPIO(\d+)", text, re.M)
    }


def sections(md: str) -> dict[str, str]:
    """'## heading' -> body."""
    parts = re.split(r"^## (.*)$", md, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


def tables(body: str) -> list[list[dict[str, str]]]:
    """Every markdown table of a section, as rows keyed by the header cells."""
    found, lines = [], body.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("| ---"):
            head = [c.strip() for c in lines[i].strip("|").split("|")]
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in lines[i].strip("|").split("|")]
                rows.append(dict(zip(head, cells, strict=True)))
                i += 1
            found.append(rows)
        else:
            i += 1
    return found


def board_section(board_id: str) -> str:
    md = (HW / "wiring.md").read_text(encoding="utf-8")
    matches = [body for head, body in sections(md).items() if f"`{board_id}`" in head]
    assert len(matches) == 1, f"wiring.md needs one section naming `{board_id}`"
    return matches[0]


# the boards to wire (the MacroPad's parts are on its own board: hardware/macropad.md)
WIRED = sorted(board_id for board_id, table in pins.TABLES.items() if "display" not in table)


@pytest.mark.parametrize("board_id", WIRED)
def test_wiring_table_matches_pins_py(board_id):
    table = pins.TABLES[board_id]
    gpio = stub_gpio(board_id)
    signals, power = tables(board_section(board_id))[:2]

    expected = {name: table[key] for name, key in SIGNALS.items()}
    expected.update(zip(keys.NAMES, table["keys"], strict=True))
    assert {row["signal"] for row in signals} == set(expected)
    assert [r["signal"] for r in signals if r["signal"] in keys.NAMES] == list(keys.NAMES)
    for row in signals:
        name = expected[row["signal"]]
        assert row["pins.py"] == f"`{name}`", row
        assert row["GPIO"] == f"GPIO{gpio[name]}", row
        if table is pins.PICO:
            assert PICO_HEADER[int(row["Pico pin"]) - 1] == name, row

    if table is pins.PICO:
        for row in power:
            assert PICO_HEADER[int(row["Pico pin"]) - 1] == row["board pin"], row
    rails = {(row["part"], row["part pin"]): row["board pin"] for row in power}
    assert rails[("OLED", "VCC")].startswith("3")  # 3.3 V: the module's pull-ups
    assert rails[("ring", "5V / PWR")] in ("VBUS", "USB")
    assert {v for k, v in rails.items() if k[1] in ("GND", "common", "-")} == {"GND"}


def test_wiring_states_the_display_bus_of_pins_py():
    md = (HW / "wiring.md").read_text(encoding="utf-8")
    assert f"`DISPLAY_ADDRESS = 0x{pins.DISPLAY_ADDRESS:X}`" in md
    assert f"I2C 0x{pins.DISPLAY_ADDRESS:X}, {pins.DISPLAY_FREQUENCY // 1000} kHz" in md


def test_every_wiring_section_is_a_board_of_pins_py():
    md = (HW / "wiring.md").read_text(encoding="utf-8")
    for head in sections(md):
        for board_id in re.findall(r"`(\w+)`", head):
            assert board_id in pins.TABLES, head


def test_diagrams_and_tables_are_up_to_date(tmp_path):
    script = load_script()
    for path, data in script.outputs(tmp_path).items():
        committed = HW / path.name
        assert committed.exists(), f"run hardware/make_wiring_diagram.py ({path.name} missing)"
        if path.suffix == ".svg":
            assert committed.read_bytes() == data, f"{path.name} stale: run make_wiring_diagram.py"
        else:
            fresh = Image.open(io.BytesIO(data)).convert("RGB")
            old = Image.open(committed).convert("RGB")
            assert (old.size, old.tobytes()) == (fresh.size, fresh.tobytes()), path.name
    md = (HW / "wiring.md").read_text(encoding="utf-8")
    assert script.refreshed_wiring_md(md) == md, "wiring.md stale: run make_wiring_diagram.py"
    assert script.main(["--check"]) == 0


def test_diagrams_show_every_pin_of_their_board():
    script = load_script()
    for board in script.BOARDS:
        svg = (HW / f"{board.stem}.svg").read_text(encoding="utf-8")
        drawn = re.findall(r">([^<]+)</text>", svg)
        t = board.table
        for name in (t["sda"], t["scl"], t["pixels"], t["piezo"], *t["keys"]):
            assert any(text.split(" ")[0] == name for text in drawn), (board.stem, name)
        for board_id in board.board_ids:
            assert any(board_id in text for text in drawn), board_id


def test_bom_lists_every_part_of_the_wiring():
    bom = (HW / "bom.md").read_text(encoding="utf-8")
    wiring = (HW / "wiring.md").read_text(encoding="utf-8")
    script = load_script()
    part_terms = {"oled": "SSD1306", "ring": "WS2812B", "keys": "push button", "piezo": "piezo"}
    assert set(part_terms) == set(script.PART_TITLES)
    for term in part_terms.values():
        assert term in bom, term
    for board in script.BOARDS:  # every board the wiring covers
        assert board.title.split(" / ")[0] in bom, board.title
    assert "Pico 2" in bom
    # components and values wiring.md asks for: 330 Ω, 1000 µF, 74AHCT125, 1N4001 ...
    extra = set(re.findall(r"\b(\d+ (?:Ω|µF)|74\w+|1N\d+)\b", wiring))
    assert {"330 Ω", "1000 µF", "74AHCT125", "1N4001"} <= extra
    for item in extra:
        assert item in bom, item
    for must in ("1643", "arcade", "30 mm", "USB", "enclosure", "wire"):
        assert must in bom, must


def test_power_budget_uses_the_firmware_cap():
    tree = ast.parse((ROOT / "firmware/potager/hw/ring.py").read_text(encoding="utf-8"))
    cap = next(
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and getattr(node.targets[0], "id", "") == "BRIGHTNESS_CAP"
        and isinstance(node.value, ast.Constant)
    )
    power = (HW / "power.md").read_text(encoding="utf-8")
    assert f"BRIGHTNESS_CAP = {cap}" in power
    ring_ma = round(pins.PIXEL_COUNT * 60 * cap)
    assert f"{pins.PIXEL_COUNT} pixels × 60 mA" in power
    assert f"| {ring_ma} mA |" in power
    total = ring_ma + pins.PIXEL_COUNT * 1 + 25 + 20 + 5
    assert f"≈ {total} mA" in power
    assert f"≈ {500 - total} mA" in power


def test_assembly_describes_the_self_test_gesture():
    text = (HW / "assembly.md").read_text(encoding="utf-8")
    assert "hold BACK while plugging in" in text.replace("\n", " ")
    assert "TODO" not in text


def test_readme_links_resolve():
    readme = (HW / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert links
    for link in links:
        assert (HW / link).exists(), link


def test_the_macropad_label_sheet_is_current_and_labels_each_key_with_its_function():
    spec = importlib.util.spec_from_file_location(
        "make_macropad_labels", HW / "make_macropad_labels.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    committed = (HW / "macropad-keys.svg").read_text(encoding="utf-8")
    assert committed == script.render_svg(), "run hardware/make_macropad_labels.py"
    # the labels, in reading order, are the keymap of KEY1..KEY12: what each key does
    labels = re.findall(r'text-anchor="middle">(\w+)</text>', committed)
    table = pins.MACROPAD
    assert labels == [table["keymap"][table["keys"].index(f"KEY{n}")] for n in range(1, 13)]
    assert set(labels) == set(keys.NAMES)  # every function has a key


def test_the_macropad_page_gives_the_keymap_and_the_ring_places_of_pins_py():
    body = sections((HW / "macropad.md").read_text(encoding="utf-8"))
    table = pins.MACROPAD
    grid = tables(body["The keys"])[0]
    for row in range(4):
        cells = [grid[row][side] for side in ("left", "middle", "right")]
        expected = [table["keymap"][table["keys"].index(f"KEY{row * 3 + n}")] for n in (1, 2, 3)]
        assert cells == expected, grid[row]
    places = tables(body["The lights: the table around the keys"])[0][0]
    assert [places[str(place)] for place in range(12)] == [
        f"KEY{pixel + 1}" for pixel in table["ring_pixels"]
    ]


def test_default_seatings_put_each_seat_on_a_macropad_key_of_its_own():
    from potager.core.table import seat_pixel

    for players in range(1, 7):
        shown = [pins.MACROPAD["ring_pixels"][seat_pixel(s, players)] for s in range(players)]
        assert len(set(shown)) == players, (players, shown)
        assert not {4, 7} & set(shown)  # the middle keys are not on the edge
