"""The public schema of the list's parameters, conditional answers and new errors."""

from __future__ import annotations

from typing import Any

import pytest

from tests.openapi_contract import public_schema

pytestmark = pytest.mark.django_db

LIST = "/platform/plans/{planNumber}/suggestions"


@pytest.fixture
def operation() -> dict[str, Any]:
    result: dict[str, Any] = public_schema()["paths"][LIST]["get"]
    return result


def parameters(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in operation["parameters"]}


def test_every_list_parameter_is_documented(operation: dict[str, Any]) -> None:
    documented = parameters(operation)

    assert set(documented) == {
        "planNumber",
        "severity",
        "suggestion_type",
        "structure_node_id",
        "limit",
        "cursor",
        "If-None-Match",
    }
    for name, parameter in documented.items():
        assert parameter["description"], name
        assert parameter.get("required", False) is (name == "planNumber"), name


def test_parameters_whose_values_fit_any_plan_have_examples(operation: dict[str, Any]) -> None:
    documented = parameters(operation)

    for name in ("planNumber", "severity", "suggestion_type", "limit", "If-None-Match"):
        assert documented[name]["examples"], name


def test_filters_are_comma_separated_enum_lists(operation: dict[str, Any]) -> None:
    documented = parameters(operation)

    for name, values in (
        ("severity", ["info", "warning", "critical"]),
        (
            "suggestion_type",
            [
                "missing_code",
                "deviation",
                "project_grouping",
                "condition",
                "overdue",
                "budget_peak",
            ],
        ),
    ):
        parameter = documented[name]
        assert (parameter["style"], parameter["explode"]) == ("form", False)
        assert parameter["schema"]["items"]["enum"] == values
    assert documented["limit"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 1000}
    assert documented["structure_node_id"]["schema"]["format"] == "uuid"


def test_next_cursor_is_optional_and_nullable() -> None:
    suggestion_list = public_schema()["components"]["schemas"]["SuggestionList"]

    assert suggestion_list["properties"]["next_cursor"]["nullable"] is True
    assert "next_cursor" not in suggestion_list["required"]


def test_the_200_has_an_example_page_and_documents_etag(operation: dict[str, Any]) -> None:
    ok = operation["responses"]["200"]

    (example,) = ok["content"]["application/json"]["examples"].values()
    assert example["value"]["data"]["next_cursor"]
    assert ok["headers"]["ETag"]["required"] is True
    assert {"Cache-Control", "Vary", "Content-Encoding", "X-Request-ID"} <= set(ok["headers"])


def test_the_304_has_no_body_and_an_etag(operation: dict[str, Any]) -> None:
    not_modified = operation["responses"]["304"]

    assert "content" not in not_modified
    assert not_modified["headers"]["ETag"]["required"] is True
    assert "X-Request-ID" in not_modified["headers"]


@pytest.mark.parametrize(
    ("status", "message_key"),
    [
        ("400", "validation.query"),
        ("400", "validation.plan_number"),
        ("406", "routing.not_acceptable"),
        ("413", "request.too_large"),
    ],
)
def test_error_answers_have_examples(
    operation: dict[str, Any], status: str, message_key: str
) -> None:
    examples = operation["responses"][status]["content"]["application/json"]["examples"]

    values = {e["value"]["messageKey"]: e["value"] for e in examples.values()}
    assert message_key in values


def test_the_query_error_example_names_parameters(operation: dict[str, Any]) -> None:
    examples = operation["responses"]["400"]["content"]["application/json"]["examples"]

    (query_error,) = [
        e["value"] for e in examples.values() if e["value"]["messageKey"] == "validation.query"
    ]
    assert set(query_error["data"]["errors"]) == {"limit", "severity"}
