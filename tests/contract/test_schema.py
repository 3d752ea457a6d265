"""The reduced public OpenAPI schema at /api/v1/schema/ (spec 4.3, DESIGN "Schema")."""

from __future__ import annotations

import gzip
import json
import warnings

import pytest
import yaml
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from openapi_spec_validator import validate

pytestmark = pytest.mark.django_db

LIST = "/platform/plans/{planNumber}/suggestions"
SESSION = "/auth/session/api-key"
HISTORY = "/platform/plans/{planNumber}/history"
VERSIONS = "/platform/plans/{planNumber}/versions"
VERSION_ACTIONS = "/platform/plans/{planNumber}/versions/{versionId}/actions"
RESOURCES = [
    "/platform/plans",
    "/platform/plans/{planNumber}",
    "/platform/plans/{planNumber}/nodes",
    "/platform/plans/{planNumber}/actions",
    "/platform/plans/{planNumber}/projects",
    "/platform/plans/{planNumber}/funding",
]
DISMISS = "/platform/plans/{planNumber}/suggestions/{suggestionId}/dismiss"
RESTORE = "/platform/plans/{planNumber}/suggestions/{suggestionId}/restore"
EVENTS = "/platform/events"
PORTFOLIO = "/platform/portfolio"
APPLY = "/platform/plans/{planNumber}/suggestions/{suggestionId}/apply"
ACTION = "/platform/plans/{planNumber}/actions/{actionId}"
COMPLETE = "/platform/plans/{planNumber}/actions/{actionId}/complete"
WEBHOOK = "/platform/webhooks/{webhookId}"
WEBHOOK_OPERATIONS = {
    ("/platform/webhooks", "get"),
    ("/platform/webhooks", "post"),
    (WEBHOOK, "get"),
    (WEBHOOK, "patch"),
    (WEBHOOK, "delete"),
    (f"{WEBHOOK}/rotate-secret", "post"),
    (f"{WEBHOOK}/test", "post"),
    (f"{WEBHOOK}/deliveries", "get"),
    (f"{WEBHOOK}/deliveries/{{deliveryId}}/redeliver", "post"),
}
PATHS = {
    LIST,
    SESSION,
    HISTORY,
    VERSIONS,
    VERSION_ACTIONS,
    DISMISS,
    RESTORE,
    EVENTS,
    PORTFOLIO,
    APPLY,
    ACTION,
    COMPLETE,
    *RESOURCES,
    *(path for path, _method in WEBHOOK_OPERATIONS),
}
ERROR_STATUSES = {"400", "401", "403", "405", "406", "413", "429", "500", "503"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def test_schema_is_served_as_json_by_default_without_a_key(client):
    response = client.get("/api/v1/schema/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert json.loads(response.content)["openapi"].startswith("3.")


def test_schema_is_served_as_json_to_accept_application_json(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["paths"].keys() == PATHS


def test_schema_is_served_as_yaml_to_accept_openapi_yaml(client):
    response = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.safe_load(response.content)["paths"].keys() == PATHS


def test_schema_is_served_as_yaml_on_request(client):
    response = client.get("/api/v1/schema/?format=yaml")

    assert response.status_code == 200
    assert yaml.safe_load(response.content)["paths"].keys() == PATHS


def test_schema_is_a_valid_openapi_document(client):
    validate(json.loads(client.get("/api/v1/schema/").content))


def test_schema_generation_has_no_warnings_or_errors():
    GENERATOR_STATS.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SchemaGenerator().get_schema(request=None, public=True)

    assert not GENERATOR_STATS  # drf-spectacular counts every warning and error it emits


def test_schema_has_exactly_the_integrator_operations(schema):
    operations = {(path, method) for path, ops in schema["paths"].items() for method in ops}

    assert operations == {
        (LIST, "get"),
        (SESSION, "post"),
        (HISTORY, "get"),
        (VERSIONS, "get"),
        (VERSION_ACTIONS, "get"),
        *((path, "get") for path in RESOURCES),
        (DISMISS, "post"),
        (RESTORE, "post"),
        (EVENTS, "get"),
        (PORTFOLIO, "get"),
        (APPLY, "post"),
        ("/platform/plans/{planNumber}/actions", "post"),
        (ACTION, "patch"),
        (ACTION, "delete"),
        (COMPLETE, "post"),
        *WEBHOOK_OPERATIONS,
    }
    assert schema["servers"] == [{"url": "/api/v1", "description": "This server"}]


def test_web_app_routes_and_admin_stay_out(schema):
    text = json.dumps(schema)

    for hidden in ("/auth/login/user", "/auth/register/user", "admin", "/schema/", "/docs/"):
        assert not any(hidden in path for path in schema["paths"])
    assert "password" not in text


def test_security_scheme_is_api_key_auth_http_bearer_on_both_operations(schema):
    scheme = dict(schema["components"]["securitySchemes"]["ApiKeyAuth"])
    assert scheme.pop("description")
    assert scheme == {"type": "http", "scheme": "bearer"}
    for path, method in ((LIST, "get"), (SESSION, "post")):
        assert schema["paths"][path][method]["security"] == [{"ApiKeyAuth": []}]


def test_plan_number_is_an_integer_of_at_least_one(schema):
    parameters = schema["paths"][LIST]["get"]["parameters"]
    (parameter,) = [p for p in parameters if p["in"] == "path"]

    assert parameter["name"] == "planNumber"
    assert parameter["required"] is True
    assert parameter["schema"]["type"] == "integer"
    assert parameter["schema"]["minimum"] == 1
    assert parameter["schema"]["maximum"] == 2_147_483_647


def test_named_components_for_envelope_list_suggestion_and_identity(schema):
    components = schema["components"]["schemas"]

    for name in (
        "ErrorEnvelope",
        "SuggestionListEnvelope",
        "SuggestionList",
        "Suggestion",
        "ApiKeySessionEnvelope",
        "ApiKeyIdentity",
    ):
        assert name in components
    assert set(components["Suggestion"]["properties"]) == {
        "id",
        "suggestion_type",
        "severity",
        "title",
        "body",
        "structure_node_id",
        "recommended_action_json",
        "created_at",
    }
    assert set(components["SuggestionList"]["properties"]) == {
        "plan_id",
        "plan_number",
        "open_count",
        "suggestions",
        "next_cursor",
    }
    assert set(components["ErrorEnvelope"]["properties"]) == {
        "success",
        "message",
        "messageKey",
        "data",
        "traceId",
    }


def test_suggestion_type_and_severity_are_enums(schema):
    components = schema["components"]["schemas"]

    assert components["SuggestionTypeEnum"]["enum"] == [
        "missing_code",
        "deviation",
        "project_grouping",
        "condition",
        "overdue",
        "budget_peak",
    ]
    assert components["SeverityEnum"]["enum"] == ["info", "warning", "critical"]
    # Open in answers: one of them, or another string a later version may send.
    for name, enum in (("suggestion_type", "SuggestionTypeEnum"), ("severity", "SeverityEnum")):
        assert components["Suggestion"]["properties"][name]["anyOf"] == [
            {"$ref": f"#/components/schemas/{enum}"},
            {"type": "string"},
        ]


def test_recommended_action_is_documented_per_action_kind(schema):
    components = schema["components"]["schemas"]
    field_ref = components["Suggestion"]["properties"]["recommended_action_json"]["allOf"][0]
    field = components[field_ref["$ref"].rsplit("/", 1)[1]]

    # Open: the known kinds or any object with an `action` (no discriminator to refuse others).
    kinds = {ref["$ref"].rsplit("/", 1)[1] for ref in field["anyOf"]}
    assert kinds == {
        "AssignCodeAction",
        "ReviewAction",
        "CreateProjectAction",
        "PlanAction",
        "MoveActions",
        "OtherRecommendedAction",
    }
    assert "discriminator" not in field
    assert components["OtherRecommendedAction"]["required"] == ["action"]
    action_enum = components["AssignCodeAction"]["properties"]["action"]["$ref"].rsplit("/", 1)[1]
    assert components[action_enum]["enum"] == ["assign_code"]
    assert "prefill_code_ids" in components["AssignCodeAction"]["properties"]
    assert {"action_ids", "filter", "reference"} <= set(components["ReviewAction"]["properties"])
    assert {"group_item_ids", "proposed_project_name", "year", "total_cost"} <= set(
        components["CreateProjectAction"]["properties"]
    )
    assert {"node_id", "condition_grade", "latest_year"} <= set(
        components["PlanAction"]["properties"]
    )
    move = components["MoveActions"]
    assert set(move["properties"]) == {
        "action",
        "year",
        "budget",
        "total",
        "excess",
        "candidate_action_ids",
        "target_year",
    }
    assert move["properties"]["target_year"]["nullable"] is True


@pytest.mark.parametrize(
    ("path", "method", "statuses"),
    [
        (LIST, "get", ERROR_STATUSES | {"404"}),
        (SESSION, "post", ERROR_STATUSES | {"415"}),
    ],
)
def test_every_error_response_has_the_error_envelope_and_examples(schema, path, method, statuses):
    responses = schema["paths"][path][method]["responses"]

    assert statuses <= set(responses)
    for status in statuses:
        content = responses[status]["content"]["application/json"]
        assert content["schema"] == {"$ref": "#/components/schemas/ErrorEnvelope"}
        assert content["examples"], f"{method} {path} {status} has no example"
        for example in content["examples"].values():
            assert example["value"]["success"] is False
            assert example["value"]["messageKey"]


@pytest.mark.parametrize(("path", "method"), [(LIST, "get"), (SESSION, "post")])
def test_auth_and_throttle_headers_are_documented(schema, path, method):
    responses = schema["paths"][path][method]["responses"]

    assert responses["401"]["headers"]["WWW-Authenticate"]["required"] is True
    assert responses["429"]["headers"]["Retry-After"]["required"] is True
    assert "X-Request-ID" in responses["200"]["headers"]


def test_success_responses_reference_the_envelopes(schema):
    list_200 = schema["paths"][LIST]["get"]["responses"]["200"]["content"]["application/json"]
    session_200 = schema["paths"][SESSION]["post"]["responses"]["200"]["content"][
        "application/json"
    ]

    assert list_200["schema"] == {"$ref": "#/components/schemas/SuggestionListEnvelope"}
    assert session_200["schema"] == {"$ref": "#/components/schemas/ApiKeySessionEnvelope"}


def test_the_schema_has_an_etag_gzip_and_yaml_and_its_errors_are_json(client):
    first = client.get("/api/v1/schema/", HTTP_ACCEPT_ENCODING="gzip")
    assert first.status_code == 200
    assert first["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(first.content))["openapi"].startswith("3.")
    again = client.get("/api/v1/schema/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    as_yaml = client.get("/api/v1/schema/", HTTP_ACCEPT="application/yaml")
    assert as_yaml.status_code == 200 and as_yaml["Content-Type"].startswith("application/yaml")
    assert yaml.safe_load(as_yaml.content)["paths"].keys() == PATHS
    refused = client.get("/api/v1/schema/", HTTP_ACCEPT="text/html")
    assert refused.status_code == 406
    assert refused["Content-Type"] == "application/json"
    assert refused.json()["messageKey"] == "routing.not_acceptable"


def test_no_internal_note_leaks_into_the_schema(schema):
    text = json.dumps(schema)
    internals = ("suggestion_payload", "built directly", "api.errors", "docs/subsystems/", ".py")
    for internal in internals:
        assert internal not in text
