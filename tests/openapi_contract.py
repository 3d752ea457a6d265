"""Checks an actual API response against the public OpenAPI schema.

tests/conftest.py runs every response of a public operation, in every test that uses Django's
test client, through `assert_conforms`, so the schema cannot drift from what the code returns.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from openapi_schema_validator import OAS30Validator

API_PREFIX = "/api/v1"


@cache
def public_schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-any-return]


def _strict(node: Any) -> Any:
    """A copy where documented objects admit no undocumented property (spec 2.3: exactly these
    fields), so the check also catches a field the code adds without documenting it."""
    if isinstance(node, dict):
        copy = {key: _strict(value) for key, value in node.items()}
        if copy.get("type") == "object" and "properties" in copy:
            copy.setdefault("additionalProperties", False)
        return copy
    if isinstance(node, list):
        return [_strict(item) for item in node]
    return node


@cache
def _strict_components() -> dict[str, Any]:
    return _strict(public_schema()["components"])  # type: ignore[no-any-return]


@cache
def _operations() -> list[tuple[re.Pattern[str], str, dict[str, Any]]]:
    operations = []
    for template, methods in public_schema()["paths"].items():
        pattern = re.compile("^" + API_PREFIX + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
        for method, operation in methods.items():
            operations.append((pattern, method.upper(), operation))
    return operations


def find_operation(method: str, path: str) -> dict[str, Any] | None:
    for pattern, op_method, operation in _operations():
        if op_method == method.upper() and pattern.match(path):
            return operation
    return None


def assert_conforms(method: str, path: str, response: Any) -> bool:
    """Raises AssertionError if `response` is not what the schema documents; returns whether
    the request was a public operation at all."""
    operation = find_operation(method, path)
    if operation is None:
        return False
    status = str(response.status_code)
    documented = operation["responses"]
    assert status in documented, f"{method} {path}: status {status} is not documented"
    spec = documented[status]
    for header, header_spec in spec.get("headers", {}).items():
        if header_spec.get("required"):
            assert response.has_header(header), f"{method} {path} {status}: no {header} header"
    if "content" not in spec:  # a 304: documented without a body
        assert not response.content, f"{method} {path} {status} has a body the schema has not"
        return True
    media = spec["content"]["application/json"]["schema"]
    body = json.loads(response.content)
    root = {**media, "components": _strict_components()}
    errors = sorted(OAS30Validator(root).iter_errors(body), key=str)
    assert not errors, f"{method} {path} {status} does not match the schema: {errors[0]}"
    return True
