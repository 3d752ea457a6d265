"""The one statement of the layers (LAYERS below; docs/architecture.md "Layers" shows it),
checked on every import of every non-test module, function-level imports included, and on every
dotted path in the settings.

Every first-party app sits on one layer: `core` at the bottom, then `api` and `jobs`, then
`accounts`, `organisations`, `planning`, then `apikeys` and `webhooks` side by side, then
`platform_api` on top. A module may import its own app and the layers below it, never one
above, and never an app beside it on its own layer (`apikeys` and `webhooks` know nothing of
each other; `platform_api` reads both). `config` is no layer: its settings and URLs
(`config.urls`, with the WSGI and ASGI entry points) wire every app together, and no app
imports it (settings are read through `django.conf`).
No module imports another app's `views`, `api` or `endpoints` modules, and an endpoint module
(`<app>.endpoints.<name>`) is a leaf: only its app's `urls` imports it, so what two endpoints
share lives in a module meant for it (`platform_api.params`, `platform_api.paging`).
No import circle: the graph of the project's imports has no strongly connected part.

A string in config/settings.py that names a module of a project app (`webhooks.events.x`,
`api.errors.api_exception_handler`) is an import made by whoever reads the setting:
1. Read by project code (`settings.NAME`, `getattr(settings, "NAME")` in a project module): it
   is that module's import and obeys the same order: the named app may not be above the
   reader's (`SUGGESTION_CHANGES_HOOK = "webhooks.events..."` read in planning is refused).
2. Read only by Django or a library (middleware, DRF's defaults, logging, axes, the schema
   generator): the framework calls it on behalf of every app, so it may name only the layers
   below every feature app, `core`, `api`, `jobs`, `accounts` (the user model's app, which
   Django's own hooks name) and `config`. Planning, apikeys, webhooks and platform_api never
   plug in by a settings string: they set their hooks on their own views, or connect a signal
   in their `AppConfig.ready()`. The exceptions are FRAMEWORK_WIRING, each with its reason.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {
    "core": 0,
    "api": 1,
    "jobs": 1,
    "accounts": 2,
    "organisations": 3,
    "planning": 4,
    "apikeys": 5,
    "webhooks": 5,
    "platform_api": 6,
}
# Wiring, above every layer: imported by no app.
CONFIG = "config"
WIRING_LAYER = max(LAYERS.values()) + 1
ENTRY_POINT_MODULES = {"views", "api", "endpoints"}
SETTINGS = ROOT / "config" / "settings.py"
# The highest layer a settings string read only by the framework may name (rule 2).
FRAMEWORK_HOOK_LAYER = LAYERS["accounts"]
# Settings keys (a prefix of the key path) whose strings the framework may read from any app.
FRAMEWORK_WIRING = {
    # The schema names of planning's enums: drf-spectacular imports them while it builds the
    # schema from config.urls, which wires every app together anyway.
    ("SPECTACULAR_SETTINGS", "ENUM_NAME_OVERRIDES"),
}
_APPS = [*LAYERS, CONFIG]
_DOTTED = re.compile(rf"(?:{'|'.join(_APPS)})(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def _layer(app: str) -> int:
    return WIRING_LAYER if app == CONFIG else LAYERS[app]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> Iterator[tuple[str, Path]]:
    for app in _APPS:
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
            # `from planning import views` names planning.views, a module or a name in planning.
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def order_violation(app: str, target_app: str) -> str | None:
    """Why `app` may not depend on `target_app`, or None when it may."""
    if target_app == app:
        return None
    if _layer(target_app) > _layer(app):
        return f"{target_app} is above {app}"
    if _layer(target_app) == _layer(app):
        return f"{target_app} is beside {app}"
    return None


def layout_violations(modules: Iterator[tuple[str, Path]]) -> list[str]:
    found = []
    for module, path in modules:
        app = module.split(".")[0]
        if app == CONFIG:
            continue
        for line, imported in _imports(module, path):
            target_app = imported.split(".")[0]
            if target_app not in _APPS:
                continue
            where = f"{module}:{line} imports {imported}"
            parts = imported.split(".")
            if reason := order_violation(app, target_app):
                found.append(f"{where} ({reason})")
            elif target_app != app and ENTRY_POINT_MODULES & set(parts[1:]):
                found.append(f"{where} (another app's views, api or endpoints module)")
            elif "endpoints" in parts[1:-1] and module != f"{app}.urls":
                found.append(f"{where} (an endpoint module: only its app's urls imports it)")
    return found


def test_no_import_points_against_the_layer_order() -> None:
    assert layout_violations(_project_modules()) == []


def test_every_first_party_app_has_its_layer() -> None:
    """An app added to INSTALLED_APPS without a row in LAYERS would escape every check."""
    first_party = {
        config.name.split(".")[0]
        for config in apps.get_app_configs()
        if Path(config.path).resolve().parent == ROOT
    }
    assert first_party == set(LAYERS)


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("accounts.probe", "from apikeys.models import ApiKey", "apikeys is above accounts"),
        (
            "accounts.probe",
            "def f():\n    import planning.plans.selectors",
            "planning is above accounts",
        ),
        ("accounts.probe", "from api import views", "another app's views, api or endpoints"),
        ("accounts.probe", "from api.base import IntegratorApiView", None),
        ("accounts.probe", "from .models import User", None),
        ("accounts.probe", "from jobs.registry import periodic_register", None),
        ("webhooks.probe", "from apikeys.models import ApiKey", "apikeys is beside webhooks"),
        ("apikeys.probe", "from webhooks.services import events_expire", "webhooks is beside"),
        ("api.probe", "from jobs.leases import lease_claim", "jobs is beside api"),
        ("platform_api.probe", "from webhooks.selectors import events_page", None),
        ("platform_api.probe", "from platform_api.paging import cursor_parse", None),
        ("platform_api.probe", "from platform_api.endpoints import acts", "an endpoint module"),
        ("platform_api.endpoints.probe", "from .acts import idempotent", "an endpoint module"),
        ("platform_api.urls", "from platform_api.endpoints import acts", None),
        ("accounts.probe", "from config.urls import urlpatterns", "config is above accounts"),
        ("api.probe", "from core.tokens import random_base62", None),
        ("webhooks.probe", "from platform_api.endpoints import events", "platform_api is above"),
    ],
)
def test_the_check_reports_an_import_against_the_order(
    module: str, source: str, expected: str | None, tmp_path: Path
) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(source + "\n")
    violations = layout_violations(iter([(module, probe)]))
    if expected is None:
        assert violations == []
    else:
        assert len(violations) == 1 and expected in violations[0], violations


# --- dotted paths in the settings ---------------------------------------------------------------


def _names_a_module(dotted: str) -> bool:
    """`app.module[.Name]` whose `app/module` exists (not an app label such as `accounts.User`)."""
    app, module = dotted.split(".")[:2]
    return (ROOT / app / f"{module}.py").exists() or (ROOT / app / module).is_dir()


def _strings(node: ast.AST, keys: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], str]]:
    """(key path, string) of every string constant under `node`, dict keys followed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield keys, node.value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            name = key.value if isinstance(key, ast.Constant) else "?"
            yield from _strings(value, (*keys, str(name)))
    else:
        for child in ast.iter_child_nodes(node):
            yield from _strings(child, keys)


def settings_dotted_paths(source: str) -> Iterator[tuple[tuple[str, ...], int, str]]:
    """(key path starting with the setting's name, line, dotted path) of every string in the
    settings module that names a module of a project app."""
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            for keys, text in _strings(value, (target.id,)):
                if _DOTTED.fullmatch(text) and _names_a_module(text):
                    yield keys, statement.lineno, text


def settings_read(source: str) -> set[str]:
    """The settings a module reads: `settings.NAME` and `getattr(settings, "NAME", ...)`."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "settings"
        ):
            found.add(node.attr)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "settings"
            and isinstance(node.args[1], ast.Constant)
        ):
            found.add(str(node.args[1].value))
    return found


def settings_violations(settings_source: str, readers: Iterable[tuple[str, str]]) -> list[str]:
    """The settings' dotted paths that point up the layers (the module docstring's two rules);
    `readers` are (module, source) of the project modules."""
    read_by: dict[str, list[str]] = {}
    for module, source in readers:
        if module.split(".")[0] == CONFIG:
            continue
        for name in settings_read(source):
            read_by.setdefault(name, []).append(module)
    found = []
    for keys, line, dotted in settings_dotted_paths(settings_source):
        target_app = dotted.split(".")[0]
        where = f"settings:{line} {'.'.join(keys)} = {dotted!r}"
        readers_of = read_by.get(keys[0], [])
        for module in readers_of:
            if reason := order_violation(module.split(".")[0], target_app):
                found.append(f"{where} read by {module} ({reason})")
        if readers_of or any(keys[: len(prefix)] == prefix for prefix in FRAMEWORK_WIRING):
            continue
        if target_app != CONFIG and _layer(target_app) > FRAMEWORK_HOOK_LAYER:
            found.append(
                f"{where} read by the framework for every app ({target_app} is a feature app)"
            )
    return found


def test_no_dotted_path_in_the_settings_points_against_the_layer_order() -> None:
    readers = ((module, path.read_text()) for module, path in _project_modules())
    assert settings_violations(SETTINGS.read_text(), readers) == []


def test_the_settings_check_sees_the_settings_dotted_paths() -> None:
    found = {dotted for _keys, _line, dotted in settings_dotted_paths(SETTINGS.read_text())}
    assert {"config.urls", "api.errors.api_exception_handler", "planning.models.Severity"} <= found


@pytest.mark.parametrize(
    ("settings_source", "reader", "expected"),
    [
        (
            'SUGGESTION_CHANGES_HOOK = "webhooks.events.suggestion_changes_record"',
            ("planning.suggestions.events", "path = settings.SUGGESTION_CHANGES_HOOK"),
            "read by planning.suggestions.events (webhooks is above planning)",
        ),
        (
            'API_KEY_AUTHENTICATION_CLASS = "apikeys.authentication.ApiKeyAuthentication"',
            ("api.base", 'cls = getattr(settings, "API_KEY_AUTHENTICATION_CLASS")'),
            "read by api.base (apikeys is above api)",
        ),
        (
            'REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": '
            '["apikeys.authentication.ApiKeyAuthentication"]}',
            None,
            "REST_FRAMEWORK.DEFAULT_AUTHENTICATION_CLASSES = "
            "'apikeys.authentication.ApiKeyAuthentication' read by the framework",
        ),
        ('MIDDLEWARE = ["planning.web.access.Anything"]', None, "planning is a feature app"),
        ('REST_FRAMEWORK = {"EXCEPTION_HANDLER": "api.errors.api_exception_handler"}', None, None),
        ('MIDDLEWARE = ["accounts.middleware.NoStoreWhenSignedInMiddleware"]', None, None),
        (
            'PLAN_HOOK = "planning.plans.services.plans.plan_create"',
            ("webhooks.x", "settings.PLAN_HOOK"),
            None,
        ),
        (
            'KEY_HOOK = "apikeys.services.api_key_create"',
            ("webhooks.x", "settings.KEY_HOOK"),
            "read by webhooks.x (apikeys is beside webhooks)",
        ),
        (
            'PLAN_HOOK = "planning.plans.services.plans.plan_create"',
            ("planning.x", "settings.PLAN_HOOK"),
            None,
        ),
        (
            'AUTH_USER_MODEL = "accounts.User"',
            ("planning.models", "settings.AUTH_USER_MODEL"),
            None,
        ),
        ('SERVER = "api.example.com"', None, None),
    ],
)
def test_the_settings_check_reports_a_dotted_path_naming_a_higher_layer(
    settings_source: str, reader: tuple[str, str] | None, expected: str | None
) -> None:
    violations = settings_violations(settings_source, [reader] if reader else [])
    if expected is None:
        assert violations == []
    else:
        assert len(violations) == 1 and expected in violations[0], violations


# --- import circles ------------------------------------------------------------------------------


def import_graph(modules: Iterable[tuple[str, Path]]) -> dict[str, set[str]]:
    """Each project module and the project modules it imports, at any depth of the module
    (an import inside a function is an edge too: it still has to run, in some order).
    `from a.b import c` is an edge to `a.b.c` when that is a module, else to `a.b`."""
    paths = dict(modules)

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        targets = {known(imported) for _line, imported in _imports(module, path)}
        graph[module] = {target for target in targets if target and target != module}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative): each is a set of modules that import each other, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_no_import_circle() -> None:
    assert import_circles(import_graph(_project_modules())) == []


def test_the_circle_check_sees_a_circle_through_a_function_level_import(tmp_path: Path) -> None:
    first, second, third = tmp_path / "first.py", tmp_path / "second.py", tmp_path / "third.py"
    first.write_text("from planning.second import thing\n")
    second.write_text("def thing():\n    from planning import third\n")
    third.write_text("import planning.first\n")
    lone = tmp_path / "lone.py"
    lone.write_text("from planning.first import thing\n")
    modules = [
        ("planning.first", first),
        ("planning.second", second),
        ("planning.third", third),
        ("planning.lone", lone),
    ]
    assert import_circles(import_graph(modules)) == [
        ["planning.first", "planning.second", "planning.third"]
    ]


# --- the map in docs/architecture.md -------------------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
TABLE_START, TABLE_END = "<!-- layers:start -->", "<!-- layers:end -->"


def layer_table() -> str:
    """LAYERS as the Markdown table docs/architecture.md shows, lowest layer first."""
    rows = ["| Layer | Apps |", "|---|---|"]
    for layer in sorted(set(LAYERS.values())):
        apps = ", ".join(f"`{app}`" for app, at in LAYERS.items() if at == layer)
        rows.append(f"| {layer} | {apps} |")
    return "\n".join(rows)


def test_the_architecture_map_shows_this_layer_table() -> None:
    text = ARCHITECTURE.read_text()
    shown = text.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip()
    assert shown == layer_table(), (
        f"docs/architecture.md's layer table differs from tests/test_layout.py's LAYERS; put "
        f"this between {TABLE_START} and {TABLE_END}:\n{layer_table()}"
    )


# --- module size ---------------------------------------------------------------------------------

MODULE_MAX_LINES = 450


def test_no_module_is_over_450_lines() -> None:
    """A module past one screenful of concerns becomes a package (docs/architecture.md "Layers");
    migrations, tests and the SDKs' generated code aside."""
    long = [
        f"{module}: {lines} lines"
        for module, path in _project_modules()
        if (lines := len(path.read_text().splitlines())) > MODULE_MAX_LINES
    ]
    assert long == []
