"""The registry's descriptors (potager.core.registry) are the one place a mode is declared:
every mode it lists has all the files and host-table entries a mode takes (docs/adding-a-mode.md),
the facts the rest of the project used to copy are read from it, and a mode's modules and
records are its own."""

import ast
import sys
from pathlib import Path

import pytest

from host_tools.mpy.pureboard import PureBoard
from potager.core import registry, table

ROOT = Path(__file__).resolve().parent.parent
POTAGER = ROOT / "firmware" / "potager"
SCREEN_FUNCTIONS = ("SETUP", "new_state", "GameScreen")


def module_file(path):
    """The file of firmware module `path` (potager.x.y), whether or not it exists."""
    return ROOT / "firmware" / (path.replace(".", "/") + ".py")


def defined(path):
    """The names module `path` defines at its top level (read, not imported: a mode that is
    being added may not import yet)."""
    tree = ast.parse(module_file(path).read_text(encoding="utf-8"))
    out = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            out.update(alias.asname or alias.name for alias in node.names)
    return out


def text_keys(module):
    from potager import lang

    return set(lang.keys(module.T))


def problems(mode):
    """What descriptor `mode` lacks, one line each: a file, a field or a host table's entry."""
    import table_model
    from test_fullgames import CORNERS

    from host_tools import bgstats, explore, score
    from host_tools.pico import bench as pico_bench
    from potager.lang import en, fr

    key = mode[registry.KEY]
    out = []

    def need(ok, what):
        if not ok:
            out.append(key + ": " + what)

    low, high = mode[registry.LOW], mode[registry.HIGH]
    need(1 <= low <= high <= table.MAX_PLAYERS, "players %r-%r: 1 to 6 only" % (low, high))
    filed = mode[registry.FILED]
    need(len(filed) >= 1 and (len(filed) > 1 or filed[0] == key), "FILED: its key, or names")
    for path, functions in (
        (mode[registry.RULES], ("new", "reduce", "check")),
        (mode[registry.SCREENS], SCREEN_FUNCTIONS + (("filed",) if len(filed) > 1 else ())),
        (mode[registry.RECORDS], ("records",)),
    ):
        if path is None:
            continue
        if not module_file(path).is_file():
            need(False, "no module " + path)
            continue
        lacking = [f for f in functions if f not in defined(path)]
        need(not lacking, path + " lacks " + ", ".join(lacking))
    rules = mode[registry.RULES]
    if module_file(rules).is_file() and "PLAYERS" in defined(rules):
        found = sys.modules.get(rules) or registry.load(rules)
        need(tuple(found.PLAYERS) == (low, high), "its rules' PLAYERS are not LOW, HIGH")
    texts = mode[registry.TEXTS]
    for code in ("en", "fr"):
        shared = text_keys(en if code == "en" else fr)
        own = set()
        if texts is not None:
            path = POTAGER / "lang" / ("%s_%s.py" % (code, texts))
            need(path.is_file(), "no texts " + str(path.relative_to(ROOT)))
            if path.is_file():
                own = text_keys(registry.load("potager.lang.%s_%s" % (code, texts)))
        for name in ("m." + key, "res.mode_short_" + key):
            need(name in shared, "no %s in potager/lang/%s.py" % (name, code))
        if module_file(mode[registry.SCREENS]).is_file():
            for name in setup_problems(registry.screens(key), low, high, shared | own):
                need(False, "SETUP: %s (%s)" % (name, code))
    # the demo session, the golden scenarios, a corner game, the game `make bench` plays
    need((ROOT / "docs" / "scripts" / (key + ".txt")).is_file(), "no docs/scripts/%s.txt" % key)
    need(any((ROOT / "tests" / "golden").glob(key + "-*.json")), "no tests/golden/%s-*.json" % key)
    corners = [name for name in CORNERS if name.rsplit("-", 2)[0] == key]
    need(corners, "no corner game tests/fullgames/%s-*-tie.txt or -solo.txt in CORNERS" % key)
    for name in corners:
        need((ROOT / "tests" / "fullgames" / (name + ".txt")).is_file(), "no file for " + name)
    need((ROOT / "bench" / "games" / (key + ".txt")).is_file(), "no bench/games/%s.txt" % key)
    # the host tables a mode needs an entry in
    for name in filed:
        need(name in score.SCORERS or name in score.UNSCORED, "no score.SCORERS entry " + name)
        need(name in bgstats.GAMES or name == "free", "no bgstats.GAMES entry " + name)
    need(key in explore.MODES and key in explore.GAMES, "not in explore.MODES and GAMES")
    need(key in pico_bench.RESUME_GAMES, "not in host_tools/pico/bench.py RESUME_GAMES")
    variants = [m for m in table_model.PLAYERS if m == key or m.startswith(key + "_")]
    need(variants, "not in tests/table_model.py PLAYERS")
    need(all(table_model.PLAYERS[m] == (low, high) for m in variants), "table_model's players")
    return out


TABLE_FIELDS = ("players", "first", "last", "col")


def setup_problems(ui, low, high, texts):
    """What the setup fields a screen module declares (SETUP, potager.ui.table) get wrong."""
    from potager.ui.table import CHOICES, DEFAULT, LABEL, NAME, field

    out = []
    shape = len(field("x"))
    fields = getattr(ui, "SETUP", ())
    players = [f for f in fields if f[NAME] == "players"]
    if len(players) != 1 or not low <= players[0][DEFAULT] <= high:
        out.append("one players field, its default %r-%r" % (low, high))
    for f in fields:
        if not isinstance(f, tuple) or len(f) != shape:
            out.append("%r is not made by potager.ui.table.field" % (f,))
            continue
        for text in (f[LABEL],) + tuple(f[CHOICES] or ()):
            if text is not None and text not in texts:
                out.append("no text " + text)
        own = f[CHOICES] is None and f[NAME] not in TABLE_FIELDS
        if own and not (hasattr(ui, "setup_line") and hasattr(ui, "setup_move")):
            out.append("field %s of its own: no setup_line, setup_move" % f[NAME])
    return out


@pytest.mark.parametrize("key", registry.names())
def test_every_mode_has_all_a_mode_takes(key):
    assert problems(registry.entry(key)) == []


FAKE = (
    "zucchini", 2, 4, ("zucchini", "zucchini-grand"),
    "potager.core.games.zucchini", "potager.ui.zucchini", "zucchini", (),
    "potager.core.games.zucchini_records",
)  # fmt: skip


def test_a_mode_missing_its_files_and_entries_is_reported(monkeypatch):
    monkeypatch.setattr(registry, "MODES", registry.MODES + (FAKE,))
    found = [line for mode in registry.MODES for line in problems(mode)]
    assert found and all(line.startswith("zucchini: ") for line in found)
    text = "\n".join(found)
    for what in (
        "no module potager.core.games.zucchini\n",
        "no module potager.ui.zucchini\n",
        "no module potager.core.games.zucchini_records\n",
        "no texts firmware/potager/lang/en_zucchini.py",
        "no texts firmware/potager/lang/fr_zucchini.py",
        "no m.zucchini in potager/lang/en.py",
        "no res.mode_short_zucchini in potager/lang/fr.py",
        "no docs/scripts/zucchini.txt",
        "no tests/golden/zucchini-*.json",
        "no corner game tests/fullgames/zucchini-",
        "no bench/games/zucchini.txt",
        "no score.SCORERS entry zucchini\n",
        "no score.SCORERS entry zucchini-grand",
        "no bgstats.GAMES entry zucchini-grand",
        "not in explore.MODES and GAMES",
        "not in host_tools/pico/bench.py RESUME_GAMES",
        "not in tests/table_model.py PLAYERS",
    ):
        assert what in text + "\n", what


def test_setup_fields_lacking_a_text_or_their_functions_are_reported():
    from potager.ui import arboretum, free, table

    texts = text_keys(__import__("potager.lang.en", None, None, ["T"]))
    assert setup_problems(free, 1, 6, texts) == []
    assert setup_problems(free, 5, 6, texts) == ["one players field, its default 5-6"]
    odd = type(sys)("odd")
    odd.SETUP = free.SETUP + (table.field("zz", "z.no_such_text", ("on", "z.neither")),)
    odd.SETUP += (arboretum.SETUP[-1], ("col",))
    assert setup_problems(odd, 1, 6, texts) == [
        "no text z.no_such_text",
        "no text z.neither",
        "field sp of its own: no setup_line, setup_move",
        "('col',) is not made by potager.ui.table.field",
    ]


def test_a_lacking_function_and_a_players_range_out_of_step_are_reported():
    # HORTIS files its games under two names: its screen module must say which (filed)
    hortis = registry.entry("hortis")
    assert problems(hortis[:5] + ("potager.ui.free",) + hortis[6:]) == [
        "hortis: potager.ui.free lacks filed"
    ]
    arboretum = registry.entry("arboretum")
    assert problems(arboretum[:1] + (1, 6) + arboretum[3:]) == [
        "arboretum: its rules' PLAYERS are not LOW, HIGH",
        "arboretum: table_model's players",
    ]


# ------------------------------------------------------------------ the consumers
def test_the_host_tables_are_the_registrys():
    from host_tools import bench, score

    assert bench.PLAYER_RANGES == {
        "free": (1, 6),
        "diced_tomatoes": (1, 6),
        "horticolor": (2, 4),
        "hortis": (1, 6),
        "arboretum": (2, 4),
    }
    assert list(bench.PLAYER_RANGES) == registry.names()
    # the score CLI's games, in its order (its usage line lists them)
    assert list(score.GAMES) == [
        "diced-tomatoes", "horticolor", "hortis-automne", "hortis", "arboretum",
    ]  # fmt: skip
    assert score.GAMES["hortis-automne"] == ("hortis_score", "score_automne")


def test_a_new_mode_is_scored_and_exported_under_its_filed_names(monkeypatch):
    from host_tools import bgstats, score

    monkeypatch.setattr(registry, "MODES", registry.MODES + (FAKE,))
    monkeypatch.setitem(score.SCORERS, "zucchini", ("free", "new"))
    monkeypatch.setitem(score.SCORERS, "zucchini-grand", ("free", "new"))
    assert list(score.games())[-2:] == ["zucchini", "zucchini-grand"]
    monkeypatch.setitem(bgstats.TIE_RULES, "zucchini", "z.tie")
    assert bgstats.tie_rule("zucchini-grand") == ("potager.lang.en_zucchini", "z.tie")
    assert bgstats.tie_rule("hortis-automne") == ("potager.lang.en_hortis", "hortis.tie_rule")
    assert bgstats.tie_rule("free") is None and bgstats.tie_rule("chess") is None


def test_the_setups_player_limits_are_the_descriptors(monkeypatch):
    board = PureBoard()
    board.script("press DOWN\npress OK\npress DOWN\npress DOWN\npress OK")  # Horticolor
    app = board.app
    assert app.stack[-1].values["players"] == 4
    board.script("press RIGHT")
    assert app.stack[-1].values["players"] == 4  # 2-4
    horticolor = registry.entry("horticolor")
    wider = horticolor[:2] + (5,) + horticolor[3:]  # a descriptor allowing 5
    monkeypatch.setattr(
        registry, "MODES", tuple(wider if m is horticolor else m for m in registry.MODES)
    )
    board.script("press RIGHT")
    assert app.stack[-1].values["players"] == 5


# ------------------------------------------------------------------ the modules a mode owns
def firmware_modules():
    out = []
    for path in sorted(POTAGER.rglob("*.py")):
        parts = list(path.relative_to(POTAGER.parent).with_suffix("").parts)
        if parts[-1] != "__init__":
            out.append(".".join(parts))
    return out


def test_each_module_named_after_a_mode_is_that_modes_alone():
    owned = {}
    for name in firmware_modules():
        owners = [m[registry.KEY] for m in registry.MODES if registry.owns(m, name)]
        assert len(owners) <= 1, (name, owners)
        if owners:
            owned[name] = owners[0]
        leaf = name.rsplit(".", 1)[1]
        for key in registry.names():  # named after a mode: that mode's (unloaded with it)
            if name.startswith(("potager.ui.", "potager.core.games.")) and (
                leaf == key or leaf.startswith(key + "_")
            ):
                assert owned.get(name) == key, name
    for mode in registry.MODES:
        for path in (mode[registry.RULES], mode[registry.SCREENS], mode[registry.RECORDS]):
            assert path is None or owned[path] == mode[registry.KEY]
    assert owned["potager.lang.fr_hortis"] == "hortis" and "potager.lang.fr" not in owned


def test_unload_forgets_every_module_a_mode_owns_and_only_those():
    for key in registry.names():
        mode = registry.entry(key)
        registry.rules(key)
        registry.screens(key)
        shared = [name for name in sys.modules if name.startswith("potager.")]
        registry.unload(key)
        assert not [name for name in sys.modules if registry.owns(mode, name)]
        assert all(name in sys.modules for name in shared if not registry.owns(mode, name))


# ------------------------------------------------------------------ the records a mode keeps
def boot_with_records(rec):
    from test_nvm_images import game, journal, snapshot

    return PureBoard(journal(snapshot(game(), rec=rec)))


HORTIS = {"b": [45, None], "rec": [[0, 45]]}


def test_records_of_a_mode_are_checked_by_its_checker_and_unknown_ones_dropped_alone():
    rec = {"hortis": HORTIS, "zucchini": {"b": 1}, "last_setups": {}, "players.txt": 7}
    board = boot_with_records(rec)
    assert board.app.records == {"hortis": HORTIS, "last_setups": {}, "players.txt": 7}
    assert board.rows()[4].startswith("Records reset")  # said: some went
    board = boot_with_records({"hortis": {"b": [1.5, None], "rec": []}, "last_setups": {}})
    assert board.app.records == {"last_setups": {}}
    board = boot_with_records({"hortis": HORTIS, "last_setups": {}})
    assert board.app.records == {"hortis": HORTIS, "last_setups": {}}
    assert not board.rows()[4].startswith("Records reset")
    assert "potager.core.games.hortis_records" not in sys.modules  # checked, then forgotten


def test_a_new_mode_keeping_records_passes_the_boot_check_through_its_own_checker(monkeypatch):
    checker = type(sys)("potager.core.games.zucchini_records")
    checker.records = lambda v: v == {"best": 3}
    monkeypatch.setitem(sys.modules, checker.__name__, checker)
    load = registry.load
    monkeypatch.setattr(
        registry, "load", lambda path: checker if path == checker.__name__ else load(path)
    )
    monkeypatch.setattr(registry, "MODES", registry.MODES + (FAKE,))
    board = boot_with_records({"zucchini": {"best": 3}, "hortis": HORTIS})
    assert board.app.records == {"zucchini": {"best": 3}, "hortis": HORTIS}
    board = boot_with_records({"zucchini": {"best": 4}, "hortis": HORTIS})
    assert board.app.records == {"hortis": HORTIS}


def test_history_records_are_kept_under_every_filed_name_and_no_other():
    from potager.restore_check import record

    for name in ("free", "diced_tomatoes", "horticolor", "hortis-automne", "hortis", "arboretum"):
        assert record([1, name, [0, 1], [3, 2], [0]])
    for name in ("chess", "hortis-grove", "diced-tomatoes", "zucchini"):
        assert not record([1, name, [0, 1], [3, 2], [0]])


@pytest.mark.parametrize(("grove", "filed"), [(0, "hortis-automne"), (1, "hortis")])
def test_a_game_is_filed_under_the_name_its_mode_picks(grove, filed):
    board = PureBoard()
    board.script("press DOWN\npress OK" + "\npress DOWN" * 3 + "\npress OK")  # HORTIS's setup
    board.script("press RIGHT\n" * grove + "press OK")  # Grove or Automne; OK starts it
    app = board.app
    assert app.mode == "hortis" and app.engine.state["g"] == grove
    app.finish_game([12], [0])
    assert app.history[-1][1:5] == [filed, app.history[-1][2], [12], [0]]
    assert app.mode is None
