"""The dependency order of DESIGN.md "Layout", checked on every import of every non-test module.

`api` and `jobs` (and `config`'s settings helpers) at the bottom, then `accounts`, then
`planning`, then `integrations` and `webhooks` on top: a module may import its own app and the
layers below it, never one above. No module imports another app's `views` or `api` modules.
`config.urls` (and the WSGI and ASGI entry points) wire every app together and are exempt.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {
    "api": 0,
    "jobs": 0,
    "config": 0,
    "accounts": 1,
    "planning": 2,
    "integrations": 3,
    "webhooks": 3,
}
WIRING = {"config.urls", "config.wsgi", "config.asgi"}
ENTRY_POINT_MODULES = {"views", "api"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> Iterator[tuple[str, Path]]:
    for app in LAYERS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield _module_name(path), path


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, imported module) of every import statement, at any depth of the module."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # `from planning import views` imports the module planning.views.
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def layout_violations(modules: Iterator[tuple[str, Path]]) -> list[str]:
    found = []
    for module, path in modules:
        if module in WIRING:
            continue
        app = module.split(".")[0]
        for line, imported in _imports(module, path):
            target_app = imported.split(".")[0]
            if target_app not in LAYERS or target_app == app:
                continue
            where = f"{module}:{line} imports {imported}"
            if LAYERS[target_app] > LAYERS[app]:
                found.append(f"{where} ({target_app} is above {app})")
            elif ENTRY_POINT_MODULES & set(imported.split(".")[1:]):
                found.append(f"{where} (another app's views or api module)")
    return found


def test_no_import_points_against_the_layer_order() -> None:
    assert layout_violations(_project_modules()) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from integrations.models import ApiKey", "integrations is above accounts"),
        ("def f():\n    import planning.selectors", "planning is above accounts"),
        ("from api import views", "another app's views or api module"),
        ("from api.base import IntegratorApiView", None),
        ("from .models import User", None),
    ],
)
def test_the_check_reports_an_import_against_the_order(
    source: str, expected: str | None, tmp_path: Path
) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(source + "\n")
    violations = layout_violations(iter([("accounts.probe", probe)]))
    if expected is None:
        assert violations == []
    else:
        assert len(violations) == 1 and expected in violations[0]
