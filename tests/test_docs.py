"""The README, CONTRIBUTING.md and the pages of docs/: every relative link and picture resolves
inside the repository (its #anchor too), the README stays a page a newcomer reads, and every
command they show exists: `python -m host_tools VERB --flag ...` against the verb's own
`--help`, `make TARGET` against the Makefile's rules."""

import ast
import functools
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250
# pages whose first paragraph does not link back to the README yet (each one leaves this set
# as it gains the link: the test below fails on a page listed here that has it)
NO_BACK_LINK_YET: set[str] = set()

FENCE = re.compile(r"^ {0,3}(```+|~~~+)[ \t]*([^`\s]*)[^\n]*\n(.*?)^ {0,3}\1[ \t]*$", re.M | re.S)
SHELL_INFO = {"", "sh", "shell", "bash", "console", "zsh"}
INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
HTML_REF = re.compile(r"""<(?:img|a|source)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)
HTML_ID = re.compile(r"""<a\b[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']""", re.I)
HOST_TOOLS = re.compile(
    r"(?:^|[\s|;&(])(?:[\w./$~-]*/)?python3?\s+-m\s+host_tools(\.[\w.]+|\s+[\w-]+)?"
)
MAKE = re.compile(r"(?:^|[\s;&|(])make\s+(.*)")
FLAG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*)")


def without_code(text):
    """The text with fenced blocks and inline code blanked (a link shown as code is no link)."""
    text = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return INLINE_CODE.sub(lambda m: " " * len(m.group(0)), text)


def slug(heading):
    """GitHub's anchor for a heading: its text (links and code marks dropped), lower case,
    punctuation removed, spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page):
    """Every anchor a page offers: its headings' slugs (a repeated one gets -1, -2 ...), and
    the ids of its <a> tags."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    seen = {}
    out = set(HTML_ID.findall(text))
    for heading in HEADING.findall(text):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else "%s-%d" % (base, n))
    return out


def link_targets(text):
    """The link, picture and reference targets of a Markdown text, code left out."""
    bare = without_code(text)
    return LINK.findall(bare) + REFERENCE.findall(bare) + HTML_REF.findall(bare)


def link_problems(page, text=None, root=ROOT):
    """What is wrong with the relative links of page (its own text unless given): a target
    that is missing, outside the repository, or an anchor the target page lacks."""
    problems = []
    for target in link_targets(page.read_text(encoding="utf-8") if text is None else text):
        if not target or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", target):
            continue  # a web address, mailto: ...: not a file of the repository
        path_part, _, anchor = target.partition("#")
        path = (page.parent / unquote(path_part)).resolve() if path_part else page
        where = "%s: (%s)" % (page.relative_to(root), target)
        if not path.is_relative_to(root):
            problems.append(where + " points outside the repository")
        elif not path.exists():
            problems.append(where + " does not exist")
        elif anchor and path.suffix == ".md" and unquote(anchor) not in anchors(path):
            problems.append(where + " names no heading of " + str(path.relative_to(root)))
    return problems


def shell_commands(text):
    """The shell lines of a page: those of its shell code blocks (a backslash continues a
    line), then its inline code that starts with a command."""
    lines = []
    for fence in FENCE.finditer(text):
        if fence.group(2).lower() in SHELL_INFO:
            lines += fence.group(3).replace("\\\n", " ").splitlines()
    for span in INLINE_CODE.finditer(FENCE.sub("", text)):
        code = " ".join(span.group(2).split())
        if re.match(r"^(\$ )?([\w./$~-]*/)?(python3?|make) ", code):
            lines.append(code)
    return lines


def uncommented(rest):
    """A command's arguments up to its comment, `;`, `&&`, or a pipe into another command
    (a `|` between options, as in a usage line, is kept)."""
    rest = re.split(r"(?:^|\s)#", rest, maxsplit=1)[0]
    rest = re.split(r"&&|;|\|\|", rest, maxsplit=1)[0]
    return re.split(r"\|\s+(?=[^\s-])", rest, maxsplit=1)[0]


def invocations(line):
    """(kind, name, flags) for each host tool and make run in a shell line: ("verb", VERB,
    [--flags]), ("module", host_tools.X, [--flags]) or ("make", TARGET, [])."""
    found = []
    for m in HOST_TOOLS.finditer(line):
        word = (m.group(1) or "").strip()
        rest = uncommented(line[m.end() :])
        if word.startswith("."):
            found.append(("module", "host_tools" + word, FLAG.findall(rest)))
        elif word and not word.isupper():  # COMMAND, VERB: a placeholder
            found.append(("verb", word, FLAG.findall(rest)))
    for m in MAKE.finditer(re.split(r"(?:^|\s)#", line, maxsplit=1)[0]):
        rest = uncommented(m.group(1))
        try:
            words = shlex.split(rest)
        except ValueError:
            words = rest.split()
        found += [("make", w, []) for w in words if "=" not in w and not w.startswith("-")]
    return found


@functools.cache
def make_targets():
    """The targets the Makefile has a rule for (not variables, not pattern or $(...) names)."""
    targets = set()
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([^\s#=:][^#=:]*?)\s*:(?![=:])", line)
        if m:
            names = m.group(1).split()
            targets.update(n for n in names if not n.startswith(".") and not set("$%") & set(n))
    return targets


def module_sources(module):
    """The source files of a host_tools module or package."""
    path = ROOT / Path(*module.split("."))
    return sorted(path.glob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def compared_flags(sources):
    """The --flags a module compares its arguments against (`"--resume" in args`)."""
    flags = set()
    for source in sources:
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for part in ast.walk(node):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        flags.update(FLAG.findall(part.value))
    return flags


@functools.cache
def accepted_flags(module):
    """The --flags `python -m MODULE` accepts, from its own --help when it answers one (an
    argparse module, or one that handles --help), else from the flags its code compares its
    arguments with (a tool without help would start working on --help)."""
    sources = module_sources(module)
    code = "".join(s.read_text(encoding="utf-8") for s in sources if s.exists())
    if "argparse" not in code and '"--help"' not in code:
        return frozenset(compared_flags(s for s in sources if s.exists()))
    run = [sys.executable, "-m", *command_of(module), "--help"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, "%s --help: exit %d\n%s" % (module, done.returncode, done.stderr)
    return frozenset(FLAG.findall(done.stdout + done.stderr)) | {"--help"}  # (it answered)


def verb_modules():
    from host_tools.__main__ import COMMANDS

    return {"host_tools." + verb: verb for verb in COMMANDS}


def command_of(module):
    """How a module is run: `host_tools VERB` for a command, `host_tools.X` otherwise."""
    verb = verb_modules().get(module)
    return ["host_tools", verb] if verb else [module]


def command_problems(page, text=None):
    """What the shell commands of page show that does not exist: an unknown verb, module,
    make target, or a --flag the tool does not accept."""
    from host_tools.__main__ import COMMANDS

    problems = []
    name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
    for line in shell_commands(page.read_text(encoding="utf-8") if text is None else text):
        for kind, what, flags in invocations(line):
            where = "%s: `%s`" % (name, line.strip())
            if kind == "make":
                if what not in make_targets():
                    problems.append("%s: make has no target %r" % (where, what))
                continue
            if kind == "verb" and what not in COMMANDS:
                problems.append("%s: host_tools has no command %r" % (where, what))
                continue
            module = "host_tools." + what if kind == "verb" else what
            if not any(s.exists() for s in module_sources(module)):
                problems.append("%s: no module %s" % (where, module))
                continue
            if flags:
                unknown = sorted(set(flags) - accepted_flags(module))
                if unknown:
                    problems.append("%s: %s takes no %s" % (where, module, ", ".join(unknown)))
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_picture_resolves_inside_the_repository(page):
    assert link_problems(page) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_shown_exists_with_the_flags_it_shows(page):
    assert command_problems(page) == []


def test_the_readme_is_a_page_a_newcomer_reads():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, "README.md: %d lines, at most %d" % (
        len(lines),
        README_MAX_LINES,
    )
    # each reference page is reachable from the README, and starts by saying what it covers
    targets = {(ROOT / t.partition("#")[0]).resolve() for t in link_targets("\n".join(lines))}
    for page in PAGES[2:]:
        assert page.resolve() in targets, "README.md does not link docs/" + page.name
        text = page.read_text(encoding="utf-8")
        assert text.startswith("# "), page.name + ": no title"
        back = "(../README.md)" in text.split("\n\n", 2)[1]
        assert back != (page.name in NO_BACK_LINK_YET), page.name + (
            ": links the README now: take it out of NO_BACK_LINK_YET"
            if back
            else ": its first paragraph says what it covers and links back to the README"
        )


def test_the_checks_find_a_broken_link_an_anchor_and_a_path_outside():
    page = ROOT / "docs" / "modes.md"
    text = (
        "[gone](no-such-page.md) ![gone](img/no-such.png) [ok](table.md) [ok](#the-keys)\n"
        "[no heading](table.md#no-such-heading) [outside](../../elsewhere/spec.md)\n"
        "`[as code](no-such-page.md)` [web](https://example.org/x.md)\n"
    )
    problems = link_problems(page, text)
    assert len(problems) == 4, problems
    assert [p.split(" (")[1].split(")")[0] for p in problems] == [
        "no-such-page.md",
        "img/no-such.png",
        "table.md#no-such-heading",
        "../../elsewhere/spec.md",
    ]


def test_the_checks_find_an_unknown_verb_flag_and_make_target():
    text = (
        "```sh\n"
        ".venv/bin/python -m host_tools export --port /dev/ttyACM0 --no-such-flag  # --ignored\n"
        "python -m host_tools frobnicate --x\n"
        "make no-such-target SHOTS=x\n"
        "make test\n"
        ".venv/bin/python -m host_tools sim --headless --script FILE \\\n"
        "    [--frames OUT.jsonl] [--no-such-either]\n"
        "echo '{}' | .venv/bin/python -m host_tools score horticolor\n"
        "```\n"
        "Inline too: `python -m host_tools deploy --to X --dry-runs`, not `--prose-flag`.\n"
    )
    problems = command_problems(ROOT / "docs" / "sample.md", text)
    assert len(problems) == 5, problems
    assert problems[0].endswith("host_tools.export takes no --no-such-flag")  # not --ignored
    assert "no command 'frobnicate'" in problems[1]
    assert "no target 'no-such-target'" in problems[2]
    assert "takes no --no-such-either" in problems[3]
    assert "takes no --dry-runs" in problems[4]


def test_a_tool_without_help_is_checked_against_the_flags_its_code_reads(tmp_path):
    tool = tmp_path / "tool.py"
    tool.write_text('import sys\nif "--fast" in sys.argv or sys.argv[1:] == ["--now"]:\n    pass\n')
    assert compared_flags([tool]) == {"--fast", "--now"}
    assert "--resume" in accepted_flags("host_tools.bench")  # (its --help, not a measure)
    assert {"--to", "--dry-run", "--py"} <= accepted_flags("host_tools.deploy")
