"""Every reference in the repository's text points at something that exists.

What is read: every tracked `.py` file outside `migrations/`, every `.html` and `.md` file;
test modules only for rules (a) and (b). In Python, rules (c) and (d) read docstrings and
comments only (code is checked by running it). The rules, also listed in docs/architecture.md
"Pointing at the docs":

(a) `docs/subsystems/sync.md "Scopes"` names a heading of that page (any level; the same for
    `docs/architecture.md`, `docs/adr/NNNN-title.md` and every other page under docs/), and
    `docs/subsystems/sync.md "Sync" > "Scopes"` a deeper heading inside that heading's
    section (the reference may wrap over lines; `docs/subsystems/sync.md#scopes` must be a
    heading's anchor). The page must exist.
(b) No file is named `design.md`: docs/design.md is gone (its text lives in the pages above),
    and the product design lives outside the repository.
(c) A path that starts with a top-level folder of the repository (`planning/figures/budget.py`,
    `scripts/with-postgres.sh`, `docs/examples/`) is a tracked file or folder; a template name
    (`planning/plan_list.html`) may also be one under `templates/`. In Markdown, a relative
    link (`[Sync](sync.md#scopes)`) names a tracked file or folder, and its anchor a heading.
(d) A dotted name that starts with one of the project's apps
    (`planning.tree.selectors.node_ancestors`, backticked or not) imports and resolves, or is an
    `app_label.Model`; a backticked `name()` is a function or class the project defines or
    calls; a backticked snake_case name appears somewhere in the project's code or templates
    (not only in prose); in `Class.attribute` with a project class, the attribute does.
(e) `manage.py <command>` names a command that exists.

And the docs keep their shape: docs/architecture.md, the map, is at most
ARCHITECTURE_MAX_CHARACTERS long, holds the layer table between its markers and links every
subsystem page and ADR; each subsystem page is at most SUBSYSTEM_MAX_LINES lines.
"""

from __future__ import annotations

import ast
import importlib
import io
import posixpath
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

from tests.test_layout import TABLE_END, TABLE_START

ROOT = Path(__file__).resolve().parent.parent
SELF = "tests/test_design_references.py"
ARCHITECTURE = "docs/architecture.md"
ARCHITECTURE_MAX_CHARACTERS = 12_000
SUBSYSTEM_MAX_LINES = 400
# The apps a dotted name may start with (`integrations`: apikeys' app label, `integrations.ApiKey`).
APPS = (
    "accounts",
    "api",
    "apikeys",
    "config",
    "core",
    "integrations",
    "jobs",
    "organisations",
    "planning",
    "platform_api",
    "webhooks",
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


# --- the docs' pages ----------------------------------------------------------------------------


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


def page_headings(text: str) -> list[Heading]:
    """Every heading of a Markdown page, in order (fenced code left out)."""
    headings: list[Heading] = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"(#{1,6}) (.+?)\s*$", line)):
            headings.append(Heading(len(match.group(1)), match.group(2)))
    return headings


def headings_under(headings: list[Heading], parent: str) -> set[str]:
    """The deeper headings inside the first section headed `parent`."""
    found: set[str] = set()
    for index, heading in enumerate(headings):
        if heading.text == parent:
            for deeper in headings[index + 1 :]:
                if deeper.level <= heading.level:
                    break
                found.add(deeper.text)
            break
    return found


@cache
def _page(page: str) -> list[Heading] | None:
    path = ROOT / page
    return page_headings(path.read_text()) if path.is_file() else None


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
# A page of the docs named by its path from the repository's root.
_PAGE = re.compile(r"(?<![\w./-])docs/(?:[\w-]+/)*[\w.-]+\.md")
# What may follow the path: an anchor, or a quoted heading and quoted deeper headings after `>`.
_REFERENCE_TAIL = re.compile(
    r'`?(?:#(?P<anchor>[\w-]+)|\s+"(?P<section>[^"]+)"(?P<subs>(?:\s*>\s*"[^"]+")*))?'
)
_LINK = re.compile(r"\]\(([^()\s]+)\)")
_COMMAND = re.compile(r"manage\.py ([a-z][a-z_]*)")
_HOST_PARTS = frozenset({"com", "org", "net", "io", "example", "test", "localhost", "internal"})
# A file's name (`jobs.md`, `jobs.py`) is no dotted name.
_FILE_SUFFIXES = frozenset({"md", "py", "html", "css", "js", "json", "csv", "xlsx", "pdf", "toml"})
_BACKTICKED = re.compile(r"``([^`]+)``|`([^`]+)`")
_NAME = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\(.*\))?")
_APP_DOTTED = re.compile(rf"(?<![\w./@-])((?:{'|'.join(APPS)})(?:\.[A-Za-z_]\w*)+)(?![\w/-])")


def reference_problems(path: str, text: str) -> Iterator[str]:
    """Rules (a) and (b) over a whole file."""
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        where = f"{path}:{number}"
        for mention in _DESIGN_MENTION.finditer(line):
            if line[: mention.start()].endswith("docs/") and mention.group() == "design.md":
                yield (
                    f"{where}: docs/design.md is gone: point to docs/architecture.md, a page of "
                    "docs/subsystems/ or an ADR of docs/adr/"
                )
            else:
                yield f"{where}: names a design.md (the product design is outside the repository)"
        for page in _PAGE.finditer(line):
            if page.group() == "docs/design.md":
                continue  # reported above
            following = _joined("\n".join([line[page.end() :], *lines[number : number + 2]]))
            yield from _heading_problems(where, page.group(), following.replace('\\"', '"'))


def _heading_problems(where: str, page: str, tail: str) -> Iterator[str]:
    headings = _page(page)
    if headings is None:
        yield f"{where}: no page {page}"
        return
    match = _REFERENCE_TAIL.match(tail)
    assert match is not None  # every part of the pattern is optional
    if match.group("anchor"):
        if match.group("anchor") not in {_slug(h.text) for h in headings}:
            yield f"{where}: {page}#{match.group('anchor')} is no heading's anchor"
        return
    section = match.group("section")
    if section is None:
        return
    section = " ".join(section.split())
    if section not in {h.text for h in headings}:
        yield f'{where}: {page} has no heading "{section}"'
        return
    parent = section
    for sub in re.findall(r'"([^"]+)"', match.group("subs")):
        sub = " ".join(sub.split())
        if sub not in headings_under(headings, parent):
            yield f'{where}: {page} has no heading "{sub}" under "{parent}"'
            return
        parent = sub


def link_problems(path: str, text: str) -> Iterator[str]:
    """Rule (c) for the relative links of a Markdown file."""
    folder = posixpath.dirname(path)
    for number, line in enumerate(text.splitlines(), start=1):
        for link in _LINK.finditer(line):
            target = link.group(1)
            if re.match(r"[a-z][a-z+.-]*:", target) or target.startswith("/"):
                continue  # a URL, or a path of the site
            if _PAGE.match(target):
                continue  # a page named from the repository's root: rule (a)
            file, _, anchor = target.partition("#")
            resolved = posixpath.normpath(posixpath.join(folder, file)) if file else path
            where = f"{path}:{number}"
            if file and not _path_exists(resolved):
                yield f"{where}: no file or folder {resolved} (linked as {target})"
                continue
            if anchor and resolved.endswith(".md"):
                headings = page_headings(text) if resolved == path else _page(resolved) or []
                if anchor not in {_slug(h.text) for h in headings}:
                    yield f"{where}: {resolved}#{anchor} is no heading's anchor"


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
        if _PAGE.fullmatch(candidate):
            continue  # a page of the docs: rule (a)
        if not _path_exists(candidate):
            yield f"{where}: no file or folder {candidate}"
    words = vocabulary()
    for found in _COMMAND.finditer(prose.text):
        if found.group(1) not in get_commands():
            yield f"{where}: no command manage.py {found.group(1)}"
    for found in _APP_DOTTED.finditer(prose.text):
        if _HOST_PARTS & set(found.group(1).split(".")):
            continue  # a host name such as api.example.com
        if found.group(1).rpartition(".")[2] in _FILE_SUFFIXES:
            continue
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
    problems = list(reference_problems(path, text))
    if path.startswith("tests/") or "/migrations/" in path:
        return problems
    if path.endswith(".md"):
        problems.extend(link_problems(path, text))
    prose = python_prose(text) if path.endswith(".py") else markdown_prose(text)
    for part in prose:
        problems.extend(prose_problems(path, part))
    return problems


def _scanned() -> Iterator[str]:
    for path in tracked_files():
        if path.endswith((".py", ".html", ".md")) and "/migrations/" not in path and path != SELF:
            yield path


def _pages(folder: str) -> list[str]:
    return [p for p in tracked_files() if p.startswith(f"{folder}/") and p.endswith(".md")]


# --- the tests ----------------------------------------------------------------------------------


def test_every_reference_points_at_something_that_exists() -> None:
    problems = [p for path in _scanned() for p in file_problems(path, (ROOT / path).read_text())]
    assert problems == []


def test_the_map_is_short() -> None:
    length = len((ROOT / ARCHITECTURE).read_text())
    assert length <= ARCHITECTURE_MAX_CHARACTERS, f"{ARCHITECTURE}: {length} characters"


def test_each_subsystem_page_is_short() -> None:
    long = {
        page: lines
        for page in _pages("docs/subsystems")
        if (lines := len((ROOT / page).read_text().splitlines())) > SUBSYSTEM_MAX_LINES
    }
    assert long == {}


def test_the_map_holds_the_layer_table_and_links_every_page() -> None:
    text = (ROOT / ARCHITECTURE).read_text()
    start, end = text.find(TABLE_START), text.find(TABLE_END)
    assert 0 <= start < end, f"{ARCHITECTURE}: no layer table between {TABLE_START} and {TABLE_END}"
    assert "| Layer | Apps |" in text[start:end]
    linked = {
        posixpath.normpath(posixpath.join("docs", link.partition("#")[0]))
        for link in _LINK.findall(text)
    }
    pages = _pages("docs/subsystems") + _pages("docs/adr")
    assert [page for page in pages if page not in linked] == []


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("planning/probe.py", '"""See docs/subsystems/sync.md "Scopes"."""\n', None),
        ("planning/probe.py", '"""See docs/subsystems/sync.md "Synch"."""\n', 'no heading "Synch"'),
        ("planning/probe.py", '# docs/subsystems/sync.md "Sync" >\n# "Scopes"\n', None),
        ("planning/probe.py", '# docs/subsystems/sync.md "Sync" >\n# "Nowhere"\n', "Nowhere"),
        ("planning/probe.py", '"""docs/subsystems/sync.md "Scopes" > "Sync"."""\n', '"Sync" under'),
        ("planning/probe.py", '"""See docs/architecture.md "Layers"."""\n', None),
        ("planning/probe.py", '"""See docs/subsystems/synch.md "Sync"."""\n', "no page docs/subs"),
        ("tests/test_probe.py", '"""See docs/adr/0999-nothing.md."""\n', "no page docs/adr/"),
        ("README.md", "See [Sync](docs/subsystems/sync.md#scopes).\n", None),
        ("README.md", "See [it](docs/subsystems/sync.md#synch).\n", "no heading's anchor"),
        ("planning/probe.py", '"""See docs/design.md "Sync"."""\n', "docs/design.md is gone"),
        ("tests/test_probe.py", '"""See docs/design.md."""\n', "docs/design.md is gone"),
        ("planning/probe.py", '"""As DESIGN.md "Sync" says."""\n', "outside the repository"),
        ("docs/subsystems/probe.md", "See [Scopes](sync.md#scopes).\n", None),
        ("docs/subsystems/probe.md", "See [it](synch.md).\n", "no file or folder docs/subsystems/"),
        ("docs/subsystems/probe.md", "See [it](sync.md#synch).\n", "no heading's anchor"),
        ("docs/subsystems/probe.md", "# Probe\n\n## Here\n\nSee [it](#here).\n", None),
        ("docs/subsystems/probe.md", "# Probe\n\nSee [it](#there).\n", "no heading's anchor"),
        ("docs/probe.md", "See [it](../README.md) and [this](https://example.com/x.md).\n", None),
        ("planning/probe.py", '"""Read planning/figures/budget.py."""\n', None),
        ("planning/probe.py", '"""Read planning/trees.py."""\n', "no file or folder planning/"),
        ("README.md", "Run `scripts/with-postgresql.sh`.\n", "no file or folder scripts/with-"),
        ("planning/probe.py", "# rendered as planning/plan_list.html\n", None),
        ("planning/probe.py", '"""`planning.tree.selectors.node_ancestors`."""\n', None),
        ("planning/probe.py", '"""`planning.tree.node_parents`."""\n', "does not resolve"),
        ("planning/probe.py", '"""Done by planning.imports.jobs."""\n', "does not resolve"),
        ("docs/subsystems/probe.md", "See [Jobs](jobs.md) and `webhooks.py`.\n", None),
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
