"""The enclosure (hardware/enclosure.py): the committed files are what the model renders, and
the rendered geometry, read back from the STL files and measured, agrees with the hole table
of hardware/enclosure.md and leaves each part the room its size asks for."""

import dataclasses
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from manifold3d import Error, Manifold, Mesh

from potager.hw import pins

ROOT = Path(__file__).resolve().parent.parent
HW = ROOT / "hardware"
MD = HW / "enclosure.md"

MIN_WEB = 3.0  # between two holes of different features
GRILLE_WEB = 0.8  # between the piezo grille's holes (two perimeters of a 0.4 mm nozzle)
MARGIN = 2.0  # a hole's edge from the inside of the lid's lip (so from the walls)
CAP_CLEARANCE = 0.4  # at least, all round a cap in its hole
WINDOW_MARGIN = 1.0  # a window beyond its part, each side


def load_model():
    spec = importlib.util.spec_from_file_location("enclosure", HW / "enclosure.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


model = load_model()
PARTS = model.PARTS


# --- reading the rendered files back ---------------------------------------------------------


def read_stl(data: bytes) -> np.ndarray:
    """The triangles of a binary STL, (n, 3, 3)."""
    (count,) = np.frombuffer(data, dtype="<u4", count=1, offset=80)
    assert len(data) == 84 + 50 * count, "truncated STL"
    record = np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    return np.frombuffer(data, dtype=record, offset=84)["v"].astype(np.float64)


def closed_and_oriented(tris: np.ndarray) -> bool:
    """Every edge is used by exactly two triangles, once in each direction."""
    verts, index = np.unique(tris.reshape(-1, 3), axis=0, return_inverse=True)
    t = index.reshape(-1, 3)
    edges = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    n = len(verts)
    directed, counts = np.unique(edges[:, 0] * n + edges[:, 1], return_counts=True)
    if (counts != 1).any():
        return False
    reverse = np.sort(edges[:, 1] * n + edges[:, 0])
    return bool(np.array_equal(np.sort(directed), reverse))


def solid(tris: np.ndarray) -> Manifold:
    verts, index = np.unique(tris.reshape(-1, 3), axis=0, return_inverse=True)
    mesh = Mesh(
        vert_properties=np.ascontiguousarray(verts, dtype=np.float32),
        tri_verts=np.ascontiguousarray(index.reshape(-1, 3), dtype=np.uint32),
    )
    part = Manifold(mesh)
    assert part.status() == Error.NoError
    return part


@pytest.fixture(scope="module")
def rendered():
    return model.outputs()


@pytest.fixture(scope="module")
def lid(rendered):
    """The lid as printed, face down: x, y as in the hole table, z the depth below its top."""
    return solid(read_stl(rendered["potager-lid.stl"]))


@pytest.fixture(scope="module")
def base(rendered):
    """The box: x as the lid's, y from the lid's bottom edge, z up from the bottom face."""
    return solid(read_stl(rendered["potager-base.stl"]))


# --- measuring -----------------------------------------------------------------------------


def loops(section) -> list[np.ndarray]:
    return [np.asarray(p, dtype=np.float64) for p in section.to_polygons()]


def area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def centroid(poly: np.ndarray) -> tuple[float, float]:
    x, y = poly[:, 0], poly[:, 1]
    cross = x * np.roll(y, -1) - np.roll(x, -1) * y
    a = cross.sum() / 2
    return (
        float(((x + np.roll(x, -1)) * cross).sum() / (6 * a)),
        float(((y + np.roll(y, -1)) * cross).sum() / (6 * a)),
    )


@dataclasses.dataclass
class Measured:
    x: float
    y: float
    d: float  # a circle's diameter (through its facets' corners), 0 for another shape
    w: float
    h: float
    poly: np.ndarray
    kind: str = "circle"  # or "rect", "other"


def measure(poly: np.ndarray) -> Measured:
    x, y = centroid(poly)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    w, h = float(hi[0] - lo[0]), float(hi[1] - lo[1])
    on_edge = np.isclose(poly, lo, atol=1e-4) | np.isclose(poly, hi, atol=1e-4)
    if on_edge.any(axis=1).all() and len(poly) >= 4:  # every corner on its bounding box
        return Measured(x, y, 0.0, w, h, poly, "rect")
    radii = np.hypot(poly[:, 0] - x, poly[:, 1] - y)  # (a section cuts facets in between too)
    if np.ptp(radii) < 0.05:
        return Measured(x, y, float(2 * radii.max()), w, h, poly)
    return Measured(x, y, 0.0, w, h, poly, "other")


def holes_at(part: Manifold, z: float) -> list[Measured]:
    """The holes of a slice: its loops that run clockwise."""
    return [measure(p) for p in loops(part.slice(z)) if area(p) < 0]


def islands_at(part: Manifold, z: float) -> list[Measured]:
    """The outer loops of a slice that are circles (posts, standoffs)."""
    return [
        m for m in map(measure, loops(part.slice(z))) if area(m.poly) > 0 and m.kind == "circle"
    ]


def top_of(part: Manifold, x0: float, y0: float, x1: float, y1: float) -> float:
    """The highest z of part over the rectangle."""
    probe = Manifold.cube((x1 - x0, y1 - y0, 1000)).translate((x0, y0, -500))
    return (part ^ probe).bounding_box()[5]


def seg_distance(points: np.ndarray, poly: np.ndarray) -> float:
    a, b = poly, np.roll(poly, -1, axis=0)
    ab = b - a
    ap = points[:, None, :] - a[None, :, :]
    t = np.clip((ap * ab).sum(-1) / (ab * ab).sum(-1), 0, 1)
    nearest = a[None] + t[..., None] * ab[None]
    return float(np.hypot(*(points[:, None, :] - nearest).transpose(2, 0, 1)).min())


def distance(p: np.ndarray, q: np.ndarray) -> float:
    """Between two disjoint polygons' outlines."""
    return min(seg_distance(p, q), seg_distance(q, p))


def nearest(centres: list[tuple[float, float]], m: Measured) -> tuple[float, float]:
    return centres[int(np.argmin([np.hypot(x - m.x, y - m.y) for x, y in centres]))]


def circle(x: float, y: float, d: float, n: int = 180) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([x + d / 2 * np.cos(t), y + d / 2 * np.sin(t)], axis=1)


def square(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array(
        [
            [x - w / 2, y - h / 2],
            [x + w / 2, y - h / 2],
            [x + w / 2, y + h / 2],
            [x - w / 2, y + h / 2],
        ]
    )


def inside(points: np.ndarray, poly: np.ndarray) -> bool:
    """Every point inside poly (even-odd rule)."""
    x, y = poly[:, 0], poly[:, 1]
    x2, y2 = np.roll(x, -1), np.roll(y, -1)
    for px, py in points:
        crosses = ((y > py) != (y2 > py)) & (px < (x2 - x) * (py - y) / (y2 - y + 1e-300) + x)
        if crosses.sum() % 2 == 0:
            return False
    return True


# --- the table of enclosure.md -------------------------------------------------------------


@dataclasses.dataclass
class Row:
    feature: str
    centres: list[tuple[float, float]]
    d: float
    w: float
    h: float


def table_rows(text: str) -> list[Row]:
    """The hole table, read from the page (not from the model)."""
    rows, lines = [], text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| feature | centre"))
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        feature, centre, cut = (c.strip() for c in line.strip("|").split("|")[:3])
        centres = [(float(x), float(y)) for x, y in re.findall(r"\(([\d.]+), ([\d.]+)\)", centre)]
        rect_match = re.search(r"([\d.]+) × ([\d.]+) mm rectangle", cut)
        round_match = re.search(r"Ø ([\d.]+) mm", cut)
        if rect_match:
            rows.append(Row(feature, centres, 0.0, float(rect_match[1]), float(rect_match[2])))
        else:
            assert round_match, line
            rows.append(Row(feature, centres, float(round_match[1]), 0.0, 0.0))
    return rows


@pytest.fixture(scope="module")
def table():
    return table_rows(MD.read_text(encoding="utf-8"))


def stated(pattern: str) -> float:
    """A figure the page states in its prose."""
    match = re.search(pattern, MD.read_text(encoding="utf-8").replace("\n", " "))
    assert match, pattern
    return float(match[1])


def hole_problems(measured: list[Measured], rows: list[Row], tol: float = 0.05) -> list[str]:
    """What differs between the holes measured and the table's: each row's centres and size."""
    problems, left = [], list(measured)
    for row in rows:
        for x, y in row.centres:
            near = [m for m in left if np.hypot(m.x - x, m.y - y) < tol]
            if not near:
                problems.append("%s at (%s, %s): no hole there" % (row.feature, x, y))
                continue
            m = near[0]
            left.remove(m)
            if row.d and (abs(m.d - row.d) > tol or m.kind != "circle"):
                problems.append("%s at (%s, %s): Ø %.3f, not %s" % (row.feature, x, y, m.d, row.d))
            if row.w and (abs(m.w - row.w) > tol or abs(m.h - row.h) > tol or m.kind != "rect"):
                problems.append(
                    "%s: %.3f × %.3f, not %s × %s" % (row.feature, m.w, m.h, row.w, row.h)
                )
    problems += ["a hole the table lacks at (%.2f, %.2f)" % (m.x, m.y) for m in left]
    return problems


def printed_rows(rows: list[Row]) -> list[Row]:
    """The rows of the holes through the printed lid (its perfboard mounts are posts)."""
    return [r for r in rows if r.feature != "perfboard mounts"]


def row(rows: list[Row], feature: str) -> Row:
    return next(r for r in rows if r.feature == feature)


def plate(lid: Manifold) -> float:
    """The lid's thickness where it is plain (between the D-pad and the bottom edge)."""
    return top_of(lid, 80.0, 90.0, 81.0, 91.0)


# --- the tests -----------------------------------------------------------------------------


def test_the_committed_files_are_the_rendered_ones(rendered):
    for name, data in rendered.items():
        path = HW / "enclosure" / name
        assert path.exists(), "run make enclosure (%s missing)" % name
        assert path.read_bytes() == data, "%s stale: run make enclosure" % name
    md = MD.read_text(encoding="utf-8")
    assert model.refreshed_md(md) == md, "enclosure.md's tables stale: run make enclosure"
    assert model.main(["--check"]) == 0


def test_the_model_is_drawn_for_the_pin_tables_board():
    assert pins.TABLES[model.BOARD_ID] is pins.PICO
    assert pins.table_for("no_such_board") is pins.PICO  # the reference board
    assert "Raspberry Pi Pico" in MD.read_text(encoding="utf-8")


def test_the_meshes_are_closed_and_make_the_box(rendered, lid, base):
    for name in ("potager-lid.stl", "potager-base.stl"):
        tris = read_stl(rendered[name])
        assert closed_and_oriented(tris), name
    assert lid.volume() > 0 and base.volume() > 0
    outer = re.search(r"outer ([\d.]+) × ([\d.]+) × ([\d.]+) mm", MD.read_text(encoding="utf-8"))
    assert outer
    w, d, h = (float(v) for v in outer.groups())
    x0, y0, z0, x1, y1, z1 = base.bounding_box()
    assert (x0, y0, z0, x1, y1) == pytest.approx((0, 0, 0, w, d), abs=1e-3)
    lx0, ly0, lz0, lx1, ly1, _ = lid.bounding_box()
    assert (lx0, ly0, lz0, lx1, ly1) == pytest.approx((0, 0, 0, w, d), abs=1e-3)
    assert z1 + plate(lid) == pytest.approx(h, abs=1e-3)  # the lid lies on the walls


def test_the_lids_holes_are_the_tables(lid, table):
    # through the lid: at its top face, and a third of the way down (above the blind pilots
    # of the perfboard's posts, which end 1.5 mm under the top face)
    for z in (0.01, plate(lid) / 3):
        assert hole_problems(holes_at(lid, z), printed_rows(table)) == [], z


def test_the_checks_find_a_moved_or_resized_hole(table):
    moved = model.lid_solid(dataclasses.replace(model.Params(), back=(106.0, 85.0), key_hole=12.6))
    problems = hole_problems(holes_at(moved, 1.0), printed_rows(table))
    assert any(p.startswith("BACK at (105.0, 85.0): no hole") for p in problems), problems
    assert any("Ø 12.600, not 13.0" in p for p in problems), problems
    assert any(p.startswith("a hole the table lacks at (106.00, 85.00)") for p in problems)


def test_the_laser_files_cut_the_tables_holes(rendered, table):
    svg = rendered["potager-lid.svg"].decode("utf-8")
    assert 'width="150mm" height="100mm" viewBox="0 0 150 100"' in svg
    cut = []
    for cx, cy, r in re.findall(
        r'<circle id="\w+" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/>', svg
    ):
        poly = circle(float(cx), float(cy), 2 * float(r))
        cut.append(Measured(float(cx), float(cy), 2 * float(r), 0, 0, poly))
    for x, y, w, h in re.findall(
        r'<rect id="(?!outline)\w+" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/>',
        svg,
    ):
        x0, y0, w0, h0 = float(x), float(y), float(w), float(h)
        cut.append(
            Measured(
                x0 + w0 / 2,
                y0 + h0 / 2,
                0.0,
                w0,
                h0,
                square(x0 + w0 / 2, y0 + h0 / 2, w0, h0),
                "rect",
            )
        )
    assert hole_problems(cut, table) == []

    pairs = rendered["potager-lid.dxf"].decode("ascii").split("\n")
    assert pairs[-2:] == ["EOF", ""] and pairs[:8] == [
        "0",
        "SECTION",
        "2",
        "HEADER",
        "9",
        "$ACADVER",
        "1",
        "AC1009",
    ]
    entities, current = [], None
    for code, value in zip(pairs[0::2], pairs[1::2], strict=False):
        if code == "0":
            current = {"type": value}
            entities.append(current)
        elif current is not None:
            current[code] = value
    circles = [e for e in entities if e["type"] == "CIRCLE"]
    lines = [e for e in entities if e["type"] == "LINE"]
    assert all(e["8"] == "CUT" for e in circles + lines)
    cut = [
        Measured(float(e["10"]), 100 - float(e["20"]), 2 * float(e["40"]), 0, 0, np.zeros((0, 2)))
        for e in circles
    ]
    # the rectangles: four lines each, the first being the outline
    for i in range(4, len(lines), 4):
        xs = [float(e[k]) for e in lines[i : i + 4] for k in ("10", "11")]
        ys = [100 - float(e[k]) for e in lines[i : i + 4] for k in ("20", "21")]
        cut.append(
            Measured(
                (min(xs) + max(xs)) / 2,
                (min(ys) + max(ys)) / 2,
                0.0,
                np.ptp(xs),
                np.ptp(ys),
                np.zeros((0, 2)),
                "rect",
            )
        )
    outline = [(float(e["10"]), float(e["20"])) for e in lines[:4]]
    assert sorted(outline) == [(0, 0), (0, 100), (150, 0), (150, 100)]
    assert hole_problems(cut, table) == []


def test_webs_between_holes_and_margins_to_the_walls(lid, base, table):
    measured = holes_at(lid, plate(lid) / 3)
    feature = {}
    for r in printed_rows(table):
        for x, y in r.centres:
            feature[(x, y)] = r.feature
    named = [(feature[nearest(list(feature), m)], m) for m in measured]
    for i, (fa, a) in enumerate(named):
        for fb, b in named[i + 1 :]:
            web = distance(a.poly, b.poly)
            least = GRILLE_WEB if fa == fb == "piezo" else MIN_WEB
            assert web >= least, "%s (%.1f, %.1f) and %s (%.1f, %.1f): %.2f mm" % (
                fa,
                a.x,
                a.y,
                fb,
                b.x,
                b.y,
                web,
            )
    # the inside of the lip, from the lid, and of the walls, from the box
    lip = [m.poly for m in map(measure, loops(lid.slice(plate(lid) + 0.5))) if m.kind == "rect"]
    assert len(lip) == 4, "the lip: four pieces between the corner bosses"
    inner = (
        max(p[:, 0].max() for p in lip if p[:, 0].max() < 75),
        max(p[:, 1].max() for p in lip if p[:, 1].max() < 50),
        min(p[:, 0].min() for p in lip if p[:, 0].min() > 75),
        min(p[:, 1].min() for p in lip if p[:, 1].min() > 50),
    )
    cavity = max((p for p in loops(base.slice(30.0)) if area(p) < 0), key=lambda p: -area(p))
    wall_x0, wall_x1 = cavity[:, 0].min(), cavity[:, 0].max()
    assert inner[0] > wall_x0 and inner[2] < wall_x1  # the lip goes inside the walls
    for f, m in named:
        if f == "lid screws":
            continue
        edge = (m.poly[:, 0].min(), m.poly[:, 1].min(), m.poly[:, 0].max(), m.poly[:, 1].max())
        gaps = (edge[0] - inner[0], edge[1] - inner[1], inner[2] - edge[2], inner[3] - edge[3])
        assert min(gaps) >= MARGIN, "%s at (%.1f, %.1f): %.2f mm from the lip" % (
            f,
            m.x,
            m.y,
            min(gaps),
        )


def test_the_lid_screws_meet_the_bosses(lid, base, table):
    screws = [
        m for m in holes_at(lid, 1.0) if m.kind == "circle" and m.d < 4 and (m.x < 10 or m.x > 140)
    ]
    top = base.bounding_box()[5]
    pilots = [m for m in holes_at(base, top - 1) if m.kind == "circle"]
    assert len(screws) == len(pilots) == 4
    for s in screws:
        p = min(pilots, key=lambda p: np.hypot(p.x - s.x, p.y - (100 - s.y)))
        assert np.hypot(p.x - s.x, p.y - (100 - s.y)) < 0.05
        assert s.d >= 3.2 and 2.4 <= p.d <= 2.7  # M3 clearance; an M3 self-tapping pilot
    # the pilot is in solid boss all the way down, and the boss joins the walls
    section = loops(base.slice(top - 1))
    assert sum(1 for p in section if area(p) > 0) == 1


def floor_top(base: Manifold) -> float:
    return top_of(base, 70.0, 20.0, 71.0, 21.0)


def test_the_pico_sits_on_its_standoffs_at_the_usb_cut_out(base, lid):
    pico = PARTS["pico"]
    floor = floor_top(base)
    standoffs = [m for m in islands_at(base, floor + 1.0) if m.d < 8]
    assert len(standoffs) == 4
    xs, ys = sorted({round(m.x, 3) for m in standoffs}), sorted({round(m.y, 3) for m in standoffs})
    assert len(xs) == len(ys) == 2
    assert xs[1] - xs[0] == pytest.approx(pico["hole_dx"], abs=0.01)
    assert ys[1] - ys[0] == pytest.approx(pico["hole_dy"], abs=0.01)
    for m in standoffs:  # an M2 pilot in each, inside the board's 2.1 mm hole
        pilot = [h for h in holes_at(base, floor + 2.0) if np.hypot(h.x - m.x, h.y - m.y) < 0.05]
        assert len(pilot) == 1 and pilot[0].d < pico["hole_d"]
    tops = {top_of(base, m.x + 1.5, m.y - 0.2, m.x + 2.0, m.y + 0.2) for m in standoffs}
    assert len(tops) == 1  # the board lies flat
    standoff_top = tops.pop()
    assert standoff_top - floor >= pico["pins_below"] + pico["wire_allowance"]

    # the cut-out, in a section through the middle of the left wall
    cavity = max((p for p in loops(base.slice(30.0)) if area(p) < 0), key=lambda p: -area(p))
    wall_in = cavity[:, 0].min()
    turned = base.transform([[0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 0]])  # (x, y, z) -> (y, z, x)
    (cut,) = holes_at(turned, wall_in / 2)
    socket_z = standoff_top + pico["pcb"] + pico["socket_h"] / 2
    assert cut.y == pytest.approx(socket_z, abs=0.05), "the cut-out's centre is not the socket's"
    assert cut.x == pytest.approx((ys[0] + ys[1]) / 2, abs=0.05)
    plug = PARTS["usb_plug"]
    assert cut.w >= plug["w"] + 1.0 and cut.h >= plug["h"] + 1.0
    assert cut.w >= pico["socket_w"] + 1.0 and cut.h >= pico["socket_h"] + 1.0
    assert cut.y - cut.h / 2 > floor  # the cut-out leaves the floor whole
    # the socket's face: close to the wall so that the plug seats, not in it
    socket_face = xs[0] - (pico["length"] - pico["hole_dx"]) / 2 - pico["usb_overhang"]
    assert 0.2 <= socket_face - wall_in <= 1.0

    # in height: the Pico's top stays under the ring hanging from the lid
    lid_underside = base.bounding_box()[5]
    ring_x, ring_y = row(table_rows(MD.read_text(encoding="utf-8")), "ring window").centres[0]
    board = square((xs[0] + xs[1]) / 2, (ys[0] + ys[1]) / 2, pico["length"], pico["width"])
    ring = circle(ring_x, 100 - ring_y, PARTS["ring"]["od"])
    assert inside(board[:1], ring) or distance(board, ring) < 1  # under the ring: it matters
    pico_top = standoff_top + pico["pcb"] + pico["top_parts"]
    assert pico_top + 2.0 <= lid_underside - PARTS["ring"]["stack"]


def test_the_turn_button_fits(lid, base, table):
    turn = PARTS["turn"]
    (hole,) = [m for m in holes_at(lid, 1.0) if abs(m.d - turn["hole"]) < 0.5]
    assert hole.d == pytest.approx(turn["hole"], abs=0.05)
    # the panel where the tabs grip, between the hole and the bezel's edge
    r0, r1 = hole.d / 2 + 0.2, turn["bezel"] / 2
    annulus = Manifold.cylinder(40, r1, circular_segments=180) - Manifold.cylinder(
        40, r0, circular_segments=180
    )
    grip = lid ^ annulus.translate((hole.x, hole.y, -20))
    z0, z1 = grip.bounding_box()[2], grip.bounding_box()[5]
    thickness = z1 - z0
    assert z0 == pytest.approx(0, abs=1e-3)
    assert turn["panel_min"] <= thickness <= turn["panel_max"]
    assert grip.volume() == pytest.approx(np.pi * (r1**2 - r0**2) * thickness, rel=0.01)  # flat
    assert thickness == pytest.approx(stated(r"the lid is ([\d.]+) mm there"), abs=0.01)

    # under the panel: the button's depth, and nothing else in its circle
    floor = floor_top(base)
    lid_top = base.bounding_box()[5] + plate(lid)
    assert lid_top - thickness - floor >= turn["depth"]
    body = Manifold.cylinder(100, turn["body_d"] / 2, circular_segments=180)
    assert (lid ^ body.translate((hole.x, hole.y, thickness + 0.01))).volume() == 0
    assert (base ^ body.translate((hole.x, 100 - hole.y, floor + 0.01))).volume() == 0
    board = np.array(model.Params().perfboard)
    assert distance(board, circle(hole.x, hole.y, turn["body_d"])) >= 1.0


def test_a_thinner_turn_panel_is_cut_from_below():
    p = dataclasses.replace(model.Params(), turn_panel=2.2)
    thin = model.lid_solid(p)
    x, y = p.turn
    ring = Manifold.cylinder(40, 17.0, circular_segments=180) - Manifold.cylinder(
        40, 15.5, circular_segments=180
    )
    assert (thin ^ ring.translate((x, y, -20))).bounding_box()[5] == pytest.approx(2.2, abs=1e-3)
    assert plate(thin) == pytest.approx(p.lid, abs=1e-3)  # the rest keeps its thickness
    assert "the lid is 2.2 mm there" in model.hole_table(p)


def test_the_caps_stand_proud_as_stated(lid, table):
    tactile = PARTS["tactile"]
    t = plate(lid)
    posts = [m for m in islands_at(lid, t + 1.0) if m.d < 8]
    mounts = row(table, "perfboard mounts").centres
    assert len(posts) == len(mounts) == 4
    for x, y in mounts:
        assert min(np.hypot(m.x - x, m.y - y) for m in posts) < 0.05, (x, y)
    depths = [top_of(lid, m.x + 1.5, m.y - 0.2, m.x + 2.2, m.y + 0.2) for m in posts]
    assert np.ptp(depths) < 1e-3  # the perfboard lies flat
    proud = tactile["height"] + tactile["cap_above"] - depths[0]
    assert proud == pytest.approx(stated(r"caps stand ([\d.]+) mm proud"), abs=0.05)
    # an M2 pilot up each post, stopping short of the top face
    for m in posts:
        (pilot,) = [h for h in holes_at(lid, t + 1.0) if np.hypot(h.x - m.x, h.y - m.y) < 0.05]
        assert 1.5 <= pilot.d <= 1.8
        skin = top_of(lid, m.x - 0.1, m.y - 0.1, m.x + 0.1, m.y + 0.1)
        assert 1.0 <= skin < t

    # each cap clears its hole; each switch is on the perfboard, clear of the posts
    board = np.array(model.Params().perfboard)
    keys = [r for r in table if r.feature in ("UP / DOWN / LEFT / RIGHT / OK", "BACK")]
    assert sum(len(r.centres) for r in keys) == 6
    for r in keys:
        assert (r.d - tactile["cap_d"]) / 2 >= CAP_CLEARANCE
        for x, y in r.centres:
            switch = square(x, y, tactile["size"], tactile["size"])
            assert inside(switch, board), (x, y)
            for m in posts:
                assert distance(switch, circle(m.x, m.y, m.d)) >= 1.0, (x, y, m.x, m.y)
    for m in posts:
        assert inside(circle(m.x, m.y, m.d, 16), board)


def test_the_windows_fit_their_parts(lid, table):
    measured = holes_at(lid, 1.0)
    ring_row, oled_row = row(table, "ring window"), row(table, "OLED window")
    (ring,) = [
        m
        for m in measured
        if np.hypot(m.x - ring_row.centres[0][0], m.y - ring_row.centres[0][1]) < 0.05
    ]
    (oled,) = [
        m
        for m in measured
        if np.hypot(m.x - oled_row.centres[0][0], m.y - oled_row.centres[0][1]) < 0.05
    ]
    r, o = PARTS["ring"], PARTS["oled"]
    assert ring.d >= r["od"] + 2 * WINDOW_MARGIN  # the whole ring shows through
    assert (
        oled.w >= o["active_w"] + 2 * WINDOW_MARGIN and oled.h >= o["active_h"] + 2 * WINDOW_MARGIN
    )
    assert oled.w < o["glass_w"] and oled.h < o["glass_h"]  # the glass cannot fall through
    # the module behind it, and the ring under the lid, keep clear of the perfboard and posts
    module = square(oled.x, oled.y, o["module_w"], o["module_h"])
    board = np.array(model.Params().perfboard)
    assert distance(module, board) >= 2.0
    ring_outline = circle(ring.x, ring.y, r["od"])
    assert distance(ring_outline, board) >= 2.0
    for m in islands_at(lid, plate(lid) + 1.0):
        if m.d < 8:
            assert distance(circle(m.x, m.y, m.d), ring_outline) >= 1.0
            assert distance(circle(m.x, m.y, m.d), module) >= 1.0
