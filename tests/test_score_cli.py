"""`python -m host_tools score GAME [FILE]` end to end: docs/spec/score-cli.md."""

import ast
import inspect
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host_tools import score as cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "score"
HAS_MAIN = (ROOT / "host_tools" / "__main__.py").exists()


def golden_input(name):
    return json.loads((GOLDEN / (name + ".json")).read_text("utf-8"))["input"]


VALID = {
    "diced-tomatoes": golden_input("diced-tomatoes-spec-example"),
    "horticolor": golden_input("horticolor-spec-example"),
    "hortis-automne": golden_input("hortis-automne-spec-example"),
    "hortis": golden_input("hortis-spec-example"),
    "arboretum": golden_input("arboretum-rulebook-clark"),
}


def run(*args, stdin=b"", module=("host_tools.score",)):
    env = dict(os.environ, PYTHONPATH="", LC_ALL="C")
    cmd = [sys.executable, "-m", *module, *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, cwd=ROOT, env=env, timeout=60)


def assert_refused(result, *words):
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode("utf-8")
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err, err
    return err


# --- success ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(VALID))
def test_each_game_from_a_file_and_stdin(game, tmp_path):
    f = tmp_path / "in.json"
    raw = json.dumps(VALID[game], ensure_ascii=False).encode("utf-8")
    f.write_bytes(raw)
    from_file = run(game, str(f))
    assert from_file.returncode == 0, from_file.stderr
    assert from_file.stderr == b""
    out = json.loads(from_file.stdout)
    assert isinstance(out, dict)
    assert from_file.stdout.decode("utf-8").count("\n") == 1
    assert json.loads(run(game, stdin=raw).stdout) == out
    assert json.loads(run(game, "-", stdin=raw).stdout) == out


def test_output_keeps_names_as_given():
    data = VALID["horticolor"]
    result = run("horticolor", stdin=json.dumps(data).encode("ascii"))
    out = json.loads(result.stdout)
    assert [p["name"] for p in out["players"]] == ["Zoé", "Max", "Léa"]
    assert out["winners"] == ["Zoé"]


def test_the_spec_examples():
    out = json.loads(
        run("hortis-automne", stdin=json.dumps(VALID["hortis-automne"]).encode()).stdout
    )
    assert out["score"] == 34 and out["recipe"] == {"final": 39, "target": 45, "won": False}
    assert out["band"]["max"] == 34
    out = json.loads(run("arboretum", stdin=json.dumps(VALID["arboretum"]).encode()).stdout)
    assert out["players"][0]["total"] == 19 and out["winners"] == ["Clark"]


def test_utf8_bom_is_accepted():
    raw = b"\xef\xbb\xbf" + json.dumps(VALID["hortis"]).encode()
    assert run("hortis", stdin=raw).returncode == 0


@pytest.mark.skipif(not HAS_MAIN, reason="host_tools/__main__.py (the dispatcher) is not there yet")
def test_through_the_host_tools_dispatcher():
    raw = json.dumps(VALID["hortis"]).encode()
    result = run("score", "hortis", module=("host_tools",), stdin=raw)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["score"] == 53
    assert_refused(run("score", "hortis", "-", module=("host_tools",), stdin=b"[]"), "input")


def test_firmware_goes_at_the_end_of_sys_path():
    code = (
        "import sys, code; from host_tools import common, score; score.scorer('arboretum');"
        "print(sys.path[-1] == str(common.FIRMWARE), code.__file__.startswith(sys.base_prefix))"
    )
    env = dict(os.environ, PYTHONPATH="")
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert result.stdout.split() == ["True", "True"], result.stderr


def test_help():
    result = run("--help")
    assert result.returncode == 0 and result.stderr == b""
    assert result.stdout.decode("utf-8") == cli.help_text()
    lines = cli.help_text().splitlines()
    assert lines[0] == "usage: python -m host_tools score GAME [FILE]"
    assert len(lines) <= 60 and max(len(line) for line in lines) <= 80  # two screens at most


# --- --help against the parser: every game, every field it reads, examples that score ------


def help_sections():
    """GAME -> its part of --help: from the line starting with its name to the next line
    that starts at the margin."""
    sections, current = {}, None
    for line in cli.help_text().splitlines():
        if line[:1] not in ("", " "):
            current = line.split()[0]
            sections[current] = []
        if current is not None:
            sections[current].append(line)
    return {game: "\n".join(lines) for game, lines in sections.items() if game in cli.GAMES}


def mentions(text, word):
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


def help_for(game):
    """The game's section and those it refers to ("as for hortis-automne")."""
    sections = help_sections()
    own = sections[game]
    others = [text for g, text in sections.items() if g != game and mentions(own, g)]
    return "\n".join([own, *others])


def _strings(node, constants):
    """The strings an expression stands for: a literal, a tuple of them, a module constant,
    either branch of `a if c else b`; None when it is computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.IfExp):
        parts = [_strings(node.body, constants), _strings(node.orelse, constants)]
    elif isinstance(node, (ast.Tuple, ast.List)):
        parts = [_strings(element, constants) for element in node.elts]
    else:
        return None
    return None if None in parts else [value for part in parts for value in part]


def _names_value(function, name, constants):
    """What a local name holds in function: what it is assigned or loops over, or the strings
    it is compared with (`name == "dice_bonus"`, `name in VARIANTS`)."""
    found = []
    for node in ast.walk(function):
        sources = []
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            sources.append(node.value)
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            if node.target.id == name:
                sources.append(node.iter)
        elif (
            isinstance(node, ast.Compare)
            and isinstance(node.left, ast.Name)
            and node.left.id == name
        ):
            pairs = zip(node.ops, node.comparators, strict=True)
            sources += [c for op, c in pairs if isinstance(op, (ast.Eq, ast.In))]
        for source in sources:
            found += _strings(source, constants) or []
    return found


def parser_fields(game):
    """(field names, die faces) the scorer of game reads, found in its source: the `name`
    given to a helper (ck.need, ck.key, a local helper), the literal `path` given to a check
    (ck.obj, ck.array, ck.choice...), `.get("field")`, and the `faces` given to a helper.
    Followed through every function of the module (and of _check) that the scorer calls or
    hands on."""
    module_name, entry = cli.GAMES[game]
    modules = {
        "": cli.firmware("potager.core.games." + module_name),
        "ck": cli.firmware("potager.core.games._check"),
    }
    parsed = {}
    for alias, module in modules.items():
        tree = ast.parse(inspect.getsource(module))
        functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        constants = {}
        for n in tree.body:
            if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name):
                value = _strings(n.value, {})
                if value is not None:
                    constants[n.targets[0].id] = value
        parsed[alias] = (functions, constants)
    fields, faces = set(), set()
    todo, seen = [("", entry)], set()
    while todo:
        alias, name = todo.pop()
        if (alias, name) in seen:
            continue
        seen.add((alias, name))
        functions, constants = parsed[alias]
        function = functions[name]
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and node.id in functions:  # called or handed on
                todo.append((alias, node.id))
            if not isinstance(node, ast.Call):
                continue
            callee = node.func
            if isinstance(callee, ast.Attribute) and callee.attr == "get" and node.args:
                fields.update(_strings(node.args[0], constants) or [])
                continue
            if isinstance(callee, ast.Name) and callee.id in functions:
                target = (alias, callee.id)
            elif (
                isinstance(callee, ast.Attribute)
                and isinstance(callee.value, ast.Name)
                and callee.value.id == "ck"
                and callee.attr in parsed["ck"][0]
            ):
                target = ("ck", callee.attr)
            else:
                continue
            todo.append(target)
            params = [a.arg for a in parsed[target[0]][0][target[1]].args.args]
            args = dict(zip(params, node.args, strict=False))  # defaults may be left out
            if "name" in args:
                arg = args["name"]
                values = _strings(arg, constants)
                if values is None and isinstance(arg, ast.Name):
                    values = _names_value(function, arg.id, constants)
                fields.update(values or [])
            if "path" in args and target[1] != "fail":  # fail's path is where, not what
                fields.update(_strings(args["path"], {}) or [])
            if "faces" in args and isinstance(args["faces"], ast.Name):
                faces.update(getattr(modules[alias], args["faces"].id))
    words = {part for field in fields for part in field.split(".")}
    return {w for w in words if re.fullmatch(r"[a-z_0-9]+", w) and not w.isdigit()}, faces


def test_the_parser_fields_are_found():
    # the search itself: a game's fields, and not the other game's of the same module
    automne, automne_faces = parser_fields("hortis-automne")
    grove, grove_faces = parser_fields("hortis")
    assert {"mouse_pawn", "recipes", "target", "players", "name"} <= automne
    assert "glade_dice" in grove - automne and "mouse_pawn" in automne - grove
    assert automne_faces == {1, 3, 6, 10, 15} and grove_faces == {2, 3, 4, 5, 6, 10}
    diced, _ = parser_fields("diced-tomatoes")
    assert {"golden_sun", "dice_bonus", "vines_with_3_dice", "dice_on_vines", "mode"} <= diced
    assert {"card_points", "earthworm"} <= parser_fields("horticolor")[0]


@pytest.mark.parametrize("game", list(cli.GAMES))
def test_help_names_the_game_and_every_field_it_reads(game):
    text = help_for(game)
    fields, faces = parser_fields(game)
    assert len(fields) >= 4
    assert [f for f in sorted(fields) if not mentions(text, f)] == []
    assert [f for f in sorted(faces) if f'"{f}"' not in help_sections()[game]] == []


def _keys(value, skip=False):
    """Every key of a JSON value, but not those of a mapping named after the input's things
    (arboretum's "species": {"oak": ...})."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not skip:
                yield key
            yield from _keys(item, key == "species")
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


@pytest.mark.parametrize("game", list(cli.GAMES))
def test_each_game_s_help_example_scores_and_its_output_is_named(game):
    text = help_sections()[game]
    start = text.index("e.g. {") + len("e.g. ")
    example, _ = json.JSONDecoder().raw_decode(text[start:])
    out = cli.scorer(game)(example)
    assert [k for k in sorted(set(_keys(out))) if not mentions(help_for(game), k)] == []


# --- refusals ---------------------------------------------------------------------------


def dt_player(**changes):
    p = {"name": "B", "harvests": [1], "karma": 3, "dice_on_vines": 0, "triggered_end": False}
    p.update(changes)
    return p


def dt(**changes):
    return {"players": [VALID["diced-tomatoes"]["players"][0], dt_player(**changes)]}


def arb(*cells, hand=()):
    return {
        "players": [
            {
                "name": "A",
                "hand": list(hand),
                "arboretum": [{"card": c, "x": x, "y": y} for c, x, y in cells],
            },
            {"name": "B", "hand": [], "arboretum": []},
        ]
    }


BAD = [
    ("horticolor", b"", "input: not valid JSON"),
    ("horticolor", b"{bad", "input: not valid JSON"),
    ("horticolor", b"\xff\xfe{}", "not UTF-8"),
    ("horticolor", b"[" * 100000 + b"]" * 100000, "input"),
    ("horticolor", b"9" * 5000, "input"),
    ("horticolor", b"NaN", "input: must be an object"),
    ("horticolor", b"[]", "input: must be an object"),
    ("horticolor", b"null", "input: must be an object"),
    ("horticolor", b"{}", "players: missing"),
    ("horticolor", b'{"players": {}}', "players: must be a list"),
    ("horticolor", b'{"players": [1, 2]}', "players[0]: must be an object"),
    ("horticolor", {"players": [{"name": "A"}, {"name": "B"}]}, "players[0].card_points: missing"),
    ("diced-tomatoes", dt(harvests=[0]), "players[1].harvests[0]", "uprooted"),
    ("diced-tomatoes", dt(harvests=[7]), "players[1].harvests[0]", "overripe"),
    ("diced-tomatoes", dt(harvests=[True]), "players[1].harvests[0]", "got true"),
    ("diced-tomatoes", dt(harvests=[2.5]), "players[1].harvests[0]", "got 2.5"),
    ("diced-tomatoes", dt(karma=None), "players[1].karma", "got null"),
    ("diced-tomatoes", dt(karma="3"), "players[1].karma", 'got "3"'),
    ("diced-tomatoes", dt(triggered_end=True), "players[1].triggered_end"),
    ("diced-tomatoes", dict(dt(), mode="coop"), "mode"),
    ("diced-tomatoes", dict(dt(), variants={"x": 1}), "variants.x: unknown variant"),
    ("diced-tomatoes", {"players": [dt_player()] * 7}, "players: must hold 2-6"),
    ("hortis-automne", dict(VALID["hortis-automne"], dice={"7": 1}), "dice.7: not a die face"),
    ("hortis-automne", dict(VALID["hortis-automne"], dice={"15": 15}), "dice: 17 dice in all"),
    ("hortis-automne", dict(VALID["hortis-automne"], recipes={"target": 1.5}), "recipes.target"),
    ("hortis", dict(VALID["hortis"], squirrel_adjacent_dice=9), "squirrel_adjacent_dice"),
    ("hortis", {"players": [dict(VALID["hortis"], name=1)]}, "players[0].name: must be a string"),
    ("arboretum", arb(("oak1", 0, 0), ("oak2", 0, 0)), "players[0].arboretum[1]: square (0, 0)"),
    ("arboretum", arb(("oak1", 0, 0), hand=["oak1"]), "card oak1 appears twice"),
    ("arboretum", arb(("oak1", 0, 0), ("oak2", 0, 2)), "not orthogonally connected"),
    ("arboretum", arb(hand=[s + "1" for s in "abcdefghijk"]), "species: 11 species"),
    ("arboretum", arb(("oak0", 0, 0)), "players[0].arboretum[0].card: must be a card"),
    ("arboretum", arb(("oak1", "0", 0)), "players[0].arboretum[0].x: must be an integer"),
    ("arboretum", dict(arb(), species=["x"] * 11), "species: must hold 0-10 species"),
    ("arboretum", {"players": arb()["players"][:1]}, "players: must hold 2-4 players, got 1"),
]


@pytest.mark.parametrize(
    ("game", "data", "words"),
    [(b[0], b[1], b[2:]) for b in BAD],
    ids=[b[0] + "-" + str(i) for i, b in enumerate(BAD)],
)
def test_bad_input_exit_2_one_line(game, data, words):
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    assert_refused(run(game, stdin=raw), *words)


def test_bad_command_lines(tmp_path):
    assert_refused(run("chess", stdin=b"{}"), "GAME: unknown game", "chess")
    assert_refused(run(), "usage")
    assert_refused(run("hortis", "a", "b"), "usage")
    assert_refused(
        run("hortis", str(tmp_path / "missing.json")), "FILE: cannot read", "missing.json"
    )
    assert_refused(run("hortis", str(tmp_path)), "FILE: cannot read")


def test_unknown_game_is_refused_before_reading_stdin():
    assert_refused(run("nope", stdin=b"not json"), "GAME")


# --- in-process: main() and a fuzz of mutated inputs ------------------------------------


def test_main_in_process(capsys, tmp_path):
    f = tmp_path / "in.json"
    f.write_text(json.dumps(VALID["hortis"]))
    assert cli.main(["hortis", str(f)]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["score"] == 53 and err == ""
    f.write_text("{}")
    assert cli.main(["hortis", str(f)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "dice: missing\n"


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(0, 9), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 3), max_size=2),
)


def paths_of(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_of(v, (*prefix, i))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VALID)), st.data())
def test_any_mutation_scores_or_is_refused_in_one_line(game, data):
    value = json.loads(json.dumps(VALID[game]))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(paths_of(value))
        path = data.draw(st.sampled_from(paths))
        if not path:
            value = data.draw(junk)
            continue
        parent = value
        for k in path[:-1]:
            parent = parent[k]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(junk)
    scorer = cli.scorer(game)
    try:
        out = scorer(value)
    except ValueError as e:
        msg = str(e)
        assert msg and "\n" not in msg and ": " in msg
        return
    assert isinstance(out, dict)
    json.dumps(out)


# --- hostile input: bounded, never a traceback -------------------------------------------


def horticolor_with(**changes):
    data = json.loads(json.dumps(VALID["horticolor"]))
    data["players"][0].update(changes)
    return data


HOSTILE = [
    (b'{"players": [{"name": "\\ud800"}]}', "lone surrogate"),
    (b'{"\\udfff": 1, "players": []}', "lone surrogate"),
    (b'{"players": [{"name": "A\xed\xa0\x80"}]}', "not UTF-8"),  # a surrogate in UTF-8
    (json.dumps(horticolor_with(card_points=float("nan"))).encode(), "card_points"),
    (json.dumps(horticolor_with(card_points=float("inf"))).encode(), "card_points"),
    (json.dumps(horticolor_with(card_points=1e400)).encode(), "card_points"),
    (json.dumps(horticolor_with(synergy=-float("inf"))).encode(), "synergy"),
    (b'{"players": ' + b"9" * 4301 + b"}", "not valid JSON"),
    (b'{"players": [' + b"1," * 600000 + b"1]}", "more than 1048576 bytes"),
]


@pytest.mark.parametrize(("raw", "words"), HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_hostile_json_is_refused_in_one_line(capsysbinary, monkeypatch, raw, words):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    assert cli.main(["horticolor"]) == 2
    out, err = capsysbinary.readouterr()
    assert out == b"" and err.count(b"\n") == 1 and words.encode() in err, err


def test_special_files_and_big_files_are_refused_at_once(tmp_path):
    if Path("/dev/zero").exists():
        assert_refused(run("horticolor", "/dev/zero"), "not a regular file")
        with open("/dev/zero", "rb") as zero:  # standard input that never ends
            result = subprocess.run(
                [sys.executable, "-m", "host_tools.score", "horticolor"],
                stdin=zero, capture_output=True, cwd=ROOT, timeout=60,
            )  # fmt: skip
        assert_refused(result, "more than 1048576 bytes")
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)  # nobody writes: reading it would wait for ever
        assert_refused(run("horticolor", str(fifo)), "not a regular file")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (cli.MAX_INPUT + 1))
    assert_refused(run("horticolor", str(big)), "more than 1048576 bytes")


def test_a_file_name_in_undecodable_bytes(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "host_tools.score", "horticolor", os.fsencode(tmp_path) + b"/\xff"],
        capture_output=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert_refused(result, "FILE: cannot read", "\\udcff")


hostile_text = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["\\ud800", "\\udfff", "\\u0000", "\\n"]),
)
hostile_number = st.one_of(
    st.integers(),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0.0", "9" * 4400, "1e-400"]),
)


@st.composite
def hostile_json(draw):
    """JSON text close to a game's, with hostile strings and numbers spliced in."""
    game = draw(st.sampled_from(sorted(VALID)))
    text = json.dumps(VALID[game])
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            piece = '"' + draw(hostile_text).replace('"', "") + '"'
        else:
            piece = str(draw(hostile_number))
        at = draw(st.integers(0, len(text)))
        cut = draw(st.integers(0, 6))
        text = text[:at] + piece + text[at + cut :]
    return game, text


@settings(max_examples=300, deadline=None, derandomize=True)
@given(hostile_json())
def test_hostile_fuzz_scores_or_refuses_in_one_line(case):
    """A fixed-seed fuzz (derandomize): any such input scores, or is refused in one line."""
    game, text = case
    try:
        data = cli.json_input(text.encode("utf-8", "surrogatepass"), "standard input")
        out = cli.scorer(game)(data)
    except cli.BadInput as e:
        assert str(e) and "\n" not in str(e)
        return
    except ValueError as e:
        assert str(e) and "\n" not in str(e)
        return
    json.dumps(out, ensure_ascii=False, allow_nan=False).encode("utf-8")
