"""Every reference in the repository's text points at something that exists.

What is read: every tracked `.py` file outside `migrations/`, every `.html` and `.md` file;
test modules only for rules (a) and (b). In Python, rules (c) and (d) read docstrings and
comments only (code is checked by running it). The rules, also listed at the top of
docs/design.md:

(a) `docs/design.md "Section"` names a `## ` heading of docs/design.md, and
    `docs/design.md "Section" > "Sub-section"` a deeper heading inside that section (the
    reference may wrap over lines; `docs/design.md#anchor` must be a heading's anchor).
(b) No other file is named `design.md`: the product design lives outside the repository.
(c) A path that starts with a top-level folder of the repository (`planning/figures/budget.py`,
    `scripts/with-postgres.sh`, `docs/examples/`) is a tracked file or folder; a template name
    (`planning/plan_list.html`) may also be one under `templates/`.
(d) A dotted name that starts with one of the project's apps (`planning.tree.node_ancestors`,
    backticked or not) imports and resolves, or is an `app_label.Model`; a backticked
    `name()` is a function or class the project defines or calls; a backticked snake_case
    name appears somewhere in the project's code or templates (not only in prose); in
    `Class.attribute` with a project class, the attribute does.
(e) `manage.py <command>` names a command that exists.
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import subprocess
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parent.parent
SELF = "tests/test_design_references.py"
DESIGN = "docs/design.md"
APPS = ("accounts", "api", "apikeys", "config", "planning", "platform_api", "webhooks")
SECTIONS = (
    "Domain",
    "Structure tree",
    "Suggestion rules",
    "Sync",
    "Writes to plan data",
    "Integrator API",
    "Errors",
    "API keys",
    "Webhooks",
    "Jobs",
    "Imports",
    "Exports",
    "Money",
    "Web app",
    "Limits",
    "Layers",
    "Health",
    "Caching",
)


@cache
def tracked_files() -> tuple[str, ...]:
    try:
        listed = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):  # no git: what is on disk
        skip = {".venv", ".git", "data", "node_modules"}
        listed = [
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
        ]
    return tuple(sorted(path for path in listed if (ROOT / path).exists()))


@cache
def tracked_folders() -> frozenset[str]:
    return frozenset(
        "/".join(parts[:i])
        for parts in (p.split("/") for p in tracked_files())
        for i in range(1, len(parts))
    )


# --- docs/design.md -------------------------------------------------------------------------


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def design_headings(text: str) -> dict[str, set[str]]:
    """`## ` headings, each with the deeper headings under it (fenced code left out)."""
    headings: dict[str, set[str]] = {}
    current: set[str] | None = None
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"(#{2,6}) (.+?)\s*$", line)):
            if match.group(1) == "##":
                current = headings.setdefault(match.group(2), set())
            elif current is not None:
                current.add(match.group(2))
    return headings


@cache
def _design() -> dict[str, set[str]]:
    path = ROOT / DESIGN
    return design_headings(path.read_text()) if path.exists() else {}


# --- the project's vocabulary -----------------------------------------------------------------

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


@dataclass
class Vocabulary:
    words: set[str]  # every identifier of code and templates, prose left out
    defined_or_called: set[str]  # functions and classes defined, and names called
    classes: set[str]


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


@cache
def vocabulary() -> Vocabulary:
    words: set[str] = set()
    defined: set[str] = set()
    classes: set[str] = set()
    for path in tracked_files():
        if path == SELF:  # its examples name what does not exist
            continue
        words.add(Path(path).stem)
        if path.endswith(".html"):
            for tag in re.findall(r"\{[{%](.*?)[%}]\}", (ROOT / path).read_text(), re.S):
                words.update(_IDENTIFIER.findall(tag))
        if not path.endswith(".py"):
            continue
        tree = ast.parse((ROOT / path).read_text())
        docstrings = _docstring_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
                words.add(node.name)
                if isinstance(node, ast.ClassDef):
                    classes.add(node.name)
            elif isinstance(node, ast.Name):
                words.add(node.id)
            elif isinstance(node, ast.Attribute):
                words.add(node.attr)
            elif isinstance(node, ast.arg | ast.keyword) and node.arg:
                words.add(node.arg)
            elif isinstance(node, ast.alias):
                words.update((node.asname or node.name).split("."))
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                words.update(_IDENTIFIER.findall(node.value))
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    defined.add(func.id)
                elif isinstance(func, ast.Attribute):
                    defined.add(func.attr)
    return Vocabulary(words=words, defined_or_called=defined, classes=classes)


def dotted_name_resolves(name: str) -> bool:
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attribute in parts[split:]:
                found = getattr(found, attribute)
        except AttributeError:
            break
        return True
    if len(parts) == 2:
        try:
            apps.get_model(parts[0], parts[1])
        except (LookupError, ValueError):
            return False
        return True
    return False


# --- reading the files ------------------------------------------------------------------------


@dataclass(frozen=True)
class Prose:
    line: int
    text: str  # line breaks (and a comment's `#`) joined into single spaces


def _joined(text: str) -> str:
    return re.sub(r"\s*\n\s*(?:#+\s?)?", " ", text)


def python_prose(source: str) -> Iterator[Prose]:
    """Docstrings, and comments (consecutive comment lines as one)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                line = node.body[0].lineno
                yield Prose(line, _joined(docstring))
    block: list[str] = []
    start = last = 0
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        row = token.start[0]
        if block and row != last + 1:
            yield Prose(start, _joined("\n".join(block)))
            block = []
        if not block:
            start = row
        block.append(token.string.lstrip("#").strip())
        last = row
    if block:
        yield Prose(start, _joined("\n".join(block)))


def markdown_prose(text: str) -> Iterator[Prose]:
    """Paragraphs, fenced code included (it names files too)."""
    line = 1
    for paragraph in re.split(r"\n\s*\n", text):
        yield Prose(line, _joined(paragraph))
        line += paragraph.count("\n") + 2


# --- the rules ----------------------------------------------------------------------------------

_DESIGN_MENTION = re.compile(r"(?i)design\.md")
# What may follow the path: an anchor, or a quoted section and quoted sub-sections after `>`.
_REFERENCE_TAIL = re.compile(
    r'`?(?:#(?P<anchor>[\w-]+)|\s+"(?P<section>[^"]+)"(?P<subs>(?:\s*>\s*"[^"]+")*))?'
)
_COMMAND = re.compile(r"manage\.py ([a-z][a-z_]*)")
_HOST_PARTS = frozenset({"com", "org", "net", "io", "example", "test", "localhost", "internal"})
_BACKTICKED = re.compile(r"``([^`]+)``|`([^`]+)`")
_NAME = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\(.*\))?")
_APP_DOTTED = re.compile(rf"(?<![\w./@-])((?:{'|'.join(APPS)})(?:\.[A-Za-z_]\w*)+)(?![\w/-])")


def design_problems(path: str, text: str) -> Iterator[str]:
    """Rules (a) and (b) over a whole file."""
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        for mention in _DESIGN_MENTION.finditer(line):
            where = f"{path}:{number}"
            if not (line[: mention.start()].endswith("docs/") and mention.group() == "design.md"):
                yield f"{where}: names a design.md other than {DESIGN} (outside the repository?)"
                continue
            following = _joined("\n".join([line[mention.end() :], *lines[number : number + 2]]))
            yield from _reference_problems(where, following.replace('\\"', '"'))


def _reference_problems(where: str, tail: str) -> Iterator[str]:
    headings = _design()
    match = _REFERENCE_TAIL.match(tail)
    assert match is not None  # every part of the pattern is optional
    if match.group("anchor"):
        anchors = {_slug(h) for h in headings} | {_slug(s) for v in headings.values() for s in v}
        if match.group("anchor") not in anchors:
            yield f"{where}: {DESIGN}#{match.group('anchor')} is no heading's anchor"
        return
    section = match.group("section")
    if section is None:
        return
    section = " ".join(section.split())
    if section not in headings:
        yield f'{where}: {DESIGN} has no section "{section}"'
        return
    for sub in re.findall(r'"([^"]+)"', match.group("subs")):
        sub = " ".join(sub.split())
        if sub not in headings[section]:
            yield f'{where}: {DESIGN} "{section}" has no sub-section "{sub}"'


def _path_exists(candidate: str) -> bool:
    if candidate.endswith("/"):
        return candidate.rstrip("/") in tracked_folders()
    files = set(tracked_files())
    return (
        candidate in files
        or candidate in tracked_folders()
        or (candidate.endswith(".html") and f"templates/{candidate}" in files)
    )


@cache
def _path_pattern() -> re.Pattern[str]:
    tops = sorted({p.split("/")[0] for p in tracked_files() if "/" in p}, key=len, reverse=True)
    top = "|".join(re.escape(t) for t in tops)
    return re.compile(rf"(?<![\w./:@<-])((?:{top})/[\w./-]*)")


def prose_problems(path: str, prose: Prose) -> Iterator[str]:
    """Rules (c) and (d) over one docstring, comment or paragraph."""
    where = f"{path}:{prose.line}"
    for found in _path_pattern().finditer(prose.text):
        candidate = found.group(1).rstrip(".-")
        if not _path_exists(candidate):
            yield f"{where}: no file or folder {candidate}"
    words = vocabulary()
    for found in _COMMAND.finditer(prose.text):
        if found.group(1) not in get_commands():
            yield f"{where}: no command manage.py {found.group(1)}"
    for found in _APP_DOTTED.finditer(prose.text):
        if _HOST_PARTS & set(found.group(1).split(".")):
            continue  # a host name such as api.example.com
        if not dotted_name_resolves(found.group(1)):
            yield f"{where}: {found.group(1)} does not resolve"
    for found in _BACKTICKED.finditer(prose.text):
        match = _NAME.fullmatch((found.group(1) or found.group(2)).strip())
        if match is None:
            continue
        name, called = match.group(1), match.group(2)
        parts = name.split(".")
        if len(parts) > 1:
            if parts[0] in words.classes and parts[-1] not in words.words:
                yield f"{where}: `{name}`: no {parts[-1]} in the project's code"
            continue  # an app's dotted names are checked above; others are not ours
        if called and name not in words.defined_or_called:
            yield f"{where}: `{name}()` is neither defined nor called anywhere"
        elif not called and "_" in name.strip("_") and name.islower() and name not in words.words:
            yield f"{where}: `{name}` appears in no code, only in prose"


def file_problems(path: str, text: str) -> list[str]:
    problems = list(design_problems(path, text))
    if path.startswith("tests/") or "/migrations/" in path:
        return problems
    prose = python_prose(text) if path.endswith(".py") else markdown_prose(text)
    for part in prose:
        problems.extend(prose_problems(path, part))
    return problems


def _scanned() -> Iterator[str]:
    for path in tracked_files():
        if path.endswith((".py", ".html", ".md")) and "/migrations/" not in path and path != SELF:
            yield path


# --- the tests ----------------------------------------------------------------------------------


def test_every_reference_points_at_something_that_exists() -> None:
    problems = [p for path in _scanned() for p in file_problems(path, (ROOT / path).read_text())]
    assert problems == []


def test_the_design_has_the_agreed_sections() -> None:
    assert [s for s in SECTIONS if s not in _design()] == []


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("planning/probe.py", '"""See docs/design.md "Sync"."""\n', None),
        ("planning/probe.py", '"""See docs/design.md "Synch"."""\n', 'no section "Synch"'),
        ("planning/probe.py", '# docs/design.md "Sync" >\n# "Nowhere"\n', 'sub-section "Nowhere"'),
        ("README.md", "See [Sync](docs/design.md#sync).\n", None),
        ("README.md", "See [it](docs/design.md#synch).\n", "no heading's anchor"),
        ("planning/probe.py", '"""As DESIGN.md "Sync" says."""\n', "other than docs/design.md"),
        ("tests/test_probe.py", '"""Per DESIGN.md."""\n', "other than docs/design.md"),
        ("planning/probe.py", '"""Read planning/figures/budget.py."""\n', None),
        ("planning/probe.py", '"""Read planning/trees.py."""\n', "no file or folder planning/"),
        ("README.md", "Run `scripts/with-postgresql.sh`.\n", "no file or folder scripts/with-"),
        ("planning/probe.py", "# rendered as planning/plan_list.html\n", None),
        ("planning/probe.py", '"""`planning.tree.node_ancestors`."""\n', None),
        ("planning/probe.py", '"""`planning.tree.node_parents`."""\n', "does not resolve"),
        ("planning/probe.py", '"""Done by planning.imports.jobs."""\n', "does not resolve"),
        ("api/probe.py", '"""``accounts.management.command_text``."""\n', "does not resolve"),
        ("api/probe.py", "# request.auth is an integrations.ApiKey row\n", None),
        ("README.md", "Point it at api.example.com, not at localhost.\n", None),
        ("planning/probe.py", '"""Deleted by `plan_changes_discard`."""\n', "only in prose"),
        ("planning/probe.py", '"""Calls `plan_sync_later()`."""\n', "neither defined nor called"),
        ("planning/probe.py", '"""Calls `suggestion_sync(full=True)`."""\n', None),
        ("planning/probe.py", '"""Reads `Plan.number_of_things`."""\n', "no number_of_things"),
        ("README.md", "Run `manage.py resume_jobs`.\n", None),
        ("README.md", "Run `manage.py resume_imports`.\n", "no command manage.py resume_imports"),
    ],
)
def test_the_checker_reports_a_dangling_reference(
    path: str, text: str, expected: str | None
) -> None:
    problems = file_problems(path, text)
    if expected is None:
        assert problems == []
    else:
        assert len(problems) == 1 and expected in problems[0], problems
