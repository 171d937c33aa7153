"""No import circles in the firmware or the host tools, and the host tools import nothing from
tests/.

The graph is static: every ``import`` and ``from ... import`` of a module, those inside
functions too (the firmware's lazy imports, which save RAM on the board, are dependencies all
the same), resolved to the project's modules (firmware/potager as ``potager.*``, host_tools as
``host_tools.*``). Importing ``a.b.c`` runs the ``__init__`` of ``a`` and ``a.b`` first: it
depends on them too, unless the importer is itself inside that package (its own import already
needed the package, so it adds nothing); ``from a.b import name``, where ``name`` is not a
module, needs what ``a.b``'s ``__init__`` defines, wherever the importer is.
"""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"

# a circle known and not yet broken goes here, struck off once gone
# (test_the_pending_circles_are_still_there says so)
PENDING: list[set[str]] = []


def modules(top, base):
    """{dotted name: path} of the .py files under `top`, named from `base`."""
    out = {}
    for path in sorted(top.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if "node_modules" in parts or "__pycache__" in parts:
            continue
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def project_modules(root=ROOT):
    found = modules(root / "firmware" / "potager", root / "firmware")
    found.update(modules(root / "host_tools", root))
    return found


def imported(node, name, is_package):
    """(module, names) of an import node in module `name`: the module a `from` names (relative
    ones resolved) and the names it takes; for `import a.b`, each module with no names."""
    if isinstance(node, ast.Import):
        return [(alias.name, ()) for alias in node.names]
    if node.level:
        parts = name.split(".") if is_package else name.split(".")[:-1]
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    return [(base, tuple(alias.name for alias in node.names))]


def ancestors(name):
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def edges(found):
    """{module: the project modules it depends on}."""
    graph = {}
    for name, path in found.items():
        is_package = path.name == "__init__.py"
        inside = set(ancestors(name)) | ({name} if is_package else set())
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for module, names in imported(node, name, is_package):
                targets = [module + "." + n for n in names if module + "." + n in found]
                if len(targets) < len(names):  # a name its __init__ (or module) defines
                    targets.append(module)
                if not names:
                    targets.append(module)
                for target in targets:
                    while target and target not in found:
                        target = target.rpartition(".")[0]  # a name in a module: the module
                    if not target:
                        continue  # not the project's
                    deps.add(target)
                    deps.update(a for a in ancestors(target) if a in found and a not in inside)
        deps.discard(name)
        graph[name] = deps
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def describe(components):
    return "\n".join("import circle: " + " <-> ".join(c) for c in components)


def test_no_import_circle_in_the_firmware_or_the_host_tools():
    found = circles(edges(project_modules()))
    left = [c for c in found if set(c) not in PENDING]
    assert left == [], describe(left)


def test_the_pending_circles_are_still_there():
    found = [set(c) for c in circles(edges(project_modules()))]
    gone = [sorted(c) for c in PENDING if c not in found]
    assert gone == [], "no longer a circle, strike it off PENDING: " + describe(gone)


def write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return modules(root, root)


def test_the_finder_sees_a_circle_made_by_an_import_inside_a_function(tmp_path):
    found = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import LIMIT\n",
            "pkg/b.py": "LIMIT = 6\n\n\ndef check():\n    from pkg import a\n",
        },
    )
    assert circles(edges(found)) == [["pkg.a", "pkg.b"]]
    assert "pkg.a <-> pkg.b" in describe(circles(edges(found)))


def test_importing_a_module_depends_on_its_package_init_from_outside(tmp_path):
    files = {
        "pkg/__init__.py": "from pkg.run import main\n",
        "pkg/run.py": "from pkg.parts import PART\n\n\ndef main():\n    import tool\n",
        "pkg/parts.py": "PART = 1\n",
        "tool.py": "from pkg.parts import PART\n",
    }
    # tool imports pkg.parts: pkg's __init__ runs first, which imports run, which imports tool
    assert circles(edges(write(tmp_path, files))) == [["pkg", "pkg.run", "tool"]]


def test_a_module_importing_a_sibling_needs_no_more_of_its_own_package(tmp_path):
    files = {
        "pkg/__init__.py": "from pkg.run import main\n",
        "pkg/run.py": "from pkg import parts\n\n\ndef main():\n    return parts.PART\n",
        "pkg/parts.py": "PART = 1\n",
    }
    assert circles(edges(write(tmp_path, files))) == []
    files["pkg/parts.py"] = "from pkg import main\n"  # a name pkg's __init__ defines
    assert circles(edges(write(tmp_path, files))) == [["pkg", "pkg.parts", "pkg.run"]]


# ----------------------------------------------------------- the host tools and tests/
def modules_of_tests():
    """The top-level names a module under tests/ can be imported by."""
    return {path.stem for path in TESTS.rglob("*.py")} | {"tests"}


def names_in(expression, assigned, seen=None):
    """The string constants an expression is made of, following the names assigned in the
    module (ROOT / "tests" / "mpy" through MPY_TESTS)."""
    seen = set() if seen is None else seen
    out = []
    for node in ast.walk(expression):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
        elif isinstance(node, ast.Name) and node.id not in seen:
            seen.add(node.id)
            for value in assigned.get(node.id, ()):
                out += names_in(value, assigned, seen)
    return out


def uses_of_tests(path):
    """Where a host tool imports a module that lives under tests/, or puts a folder of tests/
    on an import path (sys.path, MICROPYPATH, PYTHONPATH): "line: what"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assigned = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets, value = (
                node.targets if isinstance(node, ast.Assign) else [node.target],
                node.value,
            )
        elif isinstance(node, (ast.For, ast.comprehension)):
            targets, value = [node.target], node.iter  # a loop's variable: what it goes over
        else:
            continue
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    assigned.setdefault(name.id, []).append(value)
    forbidden = modules_of_tests()
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0):
            heads = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                heads = [node.module or ""]
            for head in heads:
                if head.split(".")[0] in forbidden:
                    problems.append("%d: imports %s" % (node.lineno, head))
        paths = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = ast.unparse(node.func.value)
            if owner == "sys.path" and node.func.attr in ("insert", "append", "extend"):
                paths = node.args
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(ast.unparse(t).startswith("sys.path") for t in targets):
                paths = [node.value]
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in ("MICROPYPATH", "PYTHONPATH"):
                    paths.append(value)
        for expression in paths:
            words = names_in(expression, assigned)
            if any(w == "tests" or "tests/" in w or "/tests" in w for w in words):
                where = ast.unparse(expression)
                problems.append("%d: puts tests/ on a path: %s" % (node.lineno, where))
    return sorted(problems, key=lambda problem: int(problem.split(":")[0]))


def test_the_host_tools_import_nothing_from_tests():
    problems = []
    for path in sorted((ROOT / "host_tools").rglob("*.py")):
        if "node_modules" not in path.parts:
            rel = path.relative_to(ROOT)
            problems += ["%s:%s" % (rel, problem) for problem in uses_of_tests(path)]
    assert problems == []


def test_the_tests_check_finds_an_import_and_a_path(tmp_path):
    tool = tmp_path / "tool.py"
    tool.write_text(
        "import sys\nfrom pathlib import Path\n\nROOT = Path(__file__).parent\n"
        'MPY = ROOT / "tests" / "mpy"\n\n\ndef run():\n'
        "    sys.path.insert(0, str(MPY))\n    from mpy_runner import run\n"
        '    env = {"MICROPYPATH": f"{ROOT}:{MPY}"}\n'
        '    for path in (str(ROOT / "firmware"), str(ROOT / "tests")):\n'
        "        sys.path.append(path)\n"
    )
    found = uses_of_tests(tool)
    assert [p.split(":")[0] for p in found] == ["9", "10", "11", "13"], found
