"""The reduced public OpenAPI description: the integrator operations and nothing else.

Views describe their success payload; this module supplies the envelope around it, the error
responses with examples (from the one error catalog), the allow-list hook that keeps web-app
routes and the admin out of the public schema, and the response headers.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema_field
from rest_framework import serializers

from api.errors import ERROR_CATALOG

# (path as Django names it, method) of every operation in the public schema.
PUBLIC_OPERATIONS = {
    ("/api/v1/platform/plans/{planNumber}/suggestions", "GET"),
    ("/api/v1/auth/session/api-key", "POST"),
    ("/api/v1/platform/plans", "GET"),
    ("/api/v1/platform/plans/{planNumber}", "GET"),
    ("/api/v1/platform/plans/{planNumber}/nodes", "GET"),
    ("/api/v1/platform/plans/{planNumber}/actions", "GET"),
    ("/api/v1/platform/plans/{planNumber}/projects", "GET"),
    ("/api/v1/platform/plans/{planNumber}/suggestions/{suggestionId}/dismiss", "POST"),
    ("/api/v1/platform/plans/{planNumber}/suggestions/{suggestionId}/restore", "POST"),
    ("/api/v1/platform/plans/{planNumber}/history", "GET"),
    ("/api/v1/platform/plans/{planNumber}/funding", "GET"),
    ("/api/v1/platform/plans/{planNumber}/versions", "GET"),
    ("/api/v1/platform/plans/{planNumber}/versions/{versionId}/actions", "GET"),
    ("/api/v1/platform/events", "GET"),
    ("/api/v1/platform/portfolio", "GET"),
    ("/api/v1/platform/plans/{planNumber}/suggestions/{suggestionId}/apply", "POST"),
    ("/api/v1/platform/plans/{planNumber}/actions", "POST"),
    ("/api/v1/platform/plans/{planNumber}/actions/{actionId}", "PATCH"),
    ("/api/v1/platform/plans/{planNumber}/actions/{actionId}", "DELETE"),
    ("/api/v1/platform/plans/{planNumber}/actions/{actionId}/complete", "POST"),
    ("/api/v1/platform/webhooks", "GET"),
    ("/api/v1/platform/webhooks", "POST"),
    ("/api/v1/platform/webhooks/{webhookId}", "GET"),
    ("/api/v1/platform/webhooks/{webhookId}", "PATCH"),
    ("/api/v1/platform/webhooks/{webhookId}", "DELETE"),
    ("/api/v1/platform/webhooks/{webhookId}/rotate-secret", "POST"),
    ("/api/v1/platform/webhooks/{webhookId}/test", "POST"),
    ("/api/v1/platform/webhooks/{webhookId}/deliveries", "GET"),
    ("/api/v1/platform/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", "POST"),
}

AUTH_ERRORS = {
    401: [
        "auth.missing_api_key",
        "auth.malformed_authorization",
        "auth.invalid_api_key",
        "auth.api_key_revoked",
        "auth.api_key_expired",
    ],
    403: ["auth.account_inactive", "auth.api_access_disabled", "transport.https_required"],
    405: ["routing.method_not_allowed"],
    406: ["routing.not_acceptable"],
    411: ["request.length_required"],
    413: ["request.too_large"],
    429: ["throttle.rate_limited"],
    500: ["server.error"],
    503: ["server.unavailable"],
}


def public_operations_only(endpoints: list[tuple[Any, ...]], **kwargs: Any) -> list[Any]:
    """PREPROCESSING_HOOK: an allow-list, so a new route never leaks into the public schema."""
    return [
        (path, path_regex, method, callback)
        for path, path_regex, method, callback in endpoints
        if (path, method) in PUBLIC_OPERATIONS
    ]


@extend_schema_field(
    {
        "type": "object",
        "nullable": True,
        "description": 'null, or `{"errors": {field: [messages]}}` for field errors.',
        "properties": {
            "errors": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            }
        },
        "required": ["errors"],
    }
)
class ErrorDetails(serializers.JSONField):
    pass


class ErrorEnvelope(serializers.Serializer):
    success = serializers.BooleanField(help_text="Always false for an error.")
    message = serializers.CharField(help_text="Human-readable message.")
    messageKey = serializers.CharField(help_text="Stable dotted key, e.g. auth.invalid_api_key.")
    # The envelope calls its payload `data`, which shadows Serializer.data on purpose.
    data = ErrorDetails(allow_null=True)  # type: ignore[assignment]
    traceId = serializers.CharField(help_text="Quote it in a support request.")


def envelope_serializer(name: str, data: serializers.Field) -> type[serializers.Serializer]:
    """A success envelope component named `name` whose `data` is `data`."""
    fields = {
        "success": serializers.BooleanField(help_text="Always true for a success."),
        "message": serializers.CharField(help_text="Human-readable message."),
        "messageKey": serializers.CharField(help_text="Stable dotted key of the message."),
        "data": data,
        "traceId": serializers.CharField(help_text="Trace identifier of the request."),
    }
    return type(name, (serializers.Serializer,), {**fields, "__module__": __name__})


def _example(message_key: str, errors: dict[str, list[str]] | None = None) -> OpenApiExample:
    _status, message = ERROR_CATALOG[message_key]
    return OpenApiExample(
        message_key,
        value={
            "success": False,
            "message": message,
            "messageKey": message_key,
            "data": None if errors is None else {"errors": errors},
            "traceId": "4bf92f3577b34da6a3ce929d0e0e4736",
        },
        response_only=True,
    )


def error_responses(
    extra: dict[int, list[str]],
    *,
    field_errors: dict[str, dict[str, list[str]]] | None = None,
) -> dict[int, OpenApiResponse]:
    """Every error an integrator operation can give, with one example per messageKey;
    `field_errors` gives the example's `data.errors` for keys that carry them."""
    by_status: dict[int, list[str]] = {}
    for status, keys in (*AUTH_ERRORS.items(), *extra.items()):
        by_status.setdefault(status, []).extend(keys)
    field_errors = field_errors or {}
    return {
        status: OpenApiResponse(
            response=ErrorEnvelope,
            description=", ".join(f"`{key}`" for key in keys),
            examples=[_example(key, field_errors.get(key)) for key in keys],
        )
        for status, keys in sorted(by_status.items())
    }


# An operation's own response headers travel to `add_response_headers` in this extension key
# (drf-spectacular has no per-response headers); the hook moves them into the responses.
_HEADERS_EXTENSION = "x-response-headers"


def response_headers(headers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """`extend_schema(extensions=...)` documenting extra response headers, by status code."""
    return {_HEADERS_EXTENSION: headers}


_TRACE_HEADER = {
    "X-Request-ID": {
        "description": "The traceId of the request (also in the body).",
        "schema": {"type": "string"},
    }
}
_ERROR_HEADERS = {
    "Cache-Control": {
        "description": "`no-store` on every error: no cache may keep one.",
        "schema": {"type": "string"},
        "required": True,
    }
}
# The tightest limit that counted the request (IETF httpapi-ratelimit-headers, draft 10).
_RATE_LIMIT_HEADERS = {
    "RateLimit-Policy": {
        "description": (
            'The tightest limit that applies: its name ("key", "account" or "address"), quota '
            '`q` and window `w` in seconds, e.g. `"key";q=600;w=60`.'
        ),
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": (
            "What is left of that limit: `r` requests in the next `t` seconds, e.g. "
            '`"key";r=597;t=42`.'
        ),
        "schema": {"type": "string"},
    },
}
_STATUS_HEADERS: dict[str, dict[str, Any]] = {
    "200": _RATE_LIMIT_HEADERS,
    "304": _RATE_LIMIT_HEADERS,
    "401": {
        "WWW-Authenticate": {
            "description": "Always `Bearer` with a realm.",
            "schema": {"type": "string"},
            "required": True,
        }
    },
    "429": {
        "Retry-After": {
            "description": "Seconds to wait before the next request.",
            "schema": {"type": "integer", "minimum": 1},
            "required": True,
        },
        **_RATE_LIMIT_HEADERS,
    },
}


def add_response_headers(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """POSTPROCESSING_HOOK: document X-Request-ID, WWW-Authenticate, Retry-After, the rate-limit
    headers and the errors' Cache-Control, and the headers an operation declared with
    `response_headers`."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            own = operation.pop(_HEADERS_EXTENSION, {})
            for status, response in operation.get("responses", {}).items():
                response["headers"] = {
                    **_TRACE_HEADER,
                    **(_ERROR_HEADERS if status.isdigit() and int(status) >= 400 else {}),
                    **_STATUS_HEADERS.get(status, {}),
                    **own.get(status, {}),
                }
    return result


# Response enums that may gain values without a new API version (docs/subsystems/schema-and-sdks.md
# "Schema"): a property naming one is written as "one of these, or any other string", which
# generated clients (openapi-python-client, openapi-typescript) turn into types that keep an
# unknown value instead of failing on the whole page. Query parameters stay closed: a filter
# value the server does not know is a 400.
OPEN_ENUMS = {"SuggestionTypeEnum", "SeverityEnum", "SuggestionChangeEnum", "EventTypeEnum"}
OPEN_ENUM_NOTE = "Known values are listed; others may come: handle an unknown one gracefully."


def open_enums(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """POSTPROCESSING_HOOK: the open enums above, an event's `data` as `anyOf` the known
    shape or any object, and the recommended action's kinds as `anyOf` the known shapes or any
    object with an `action` (no discriminator, which would refuse an unknown kind)."""
    components = result.get("components", {}).get("schemas", {})
    for schema in components.values():
        for name, spec in schema.get("properties", {}).items():
            ref = spec.get("$ref", "")
            if ref.rsplit("/", 1)[-1] in OPEN_ENUMS:
                schema["properties"][name] = {
                    "anyOf": [{"$ref": ref}, {"type": "string"}],
                    "description": OPEN_ENUM_NOTE,
                }
    # An event's `data` has the shape of its `type`: a type added later carries another object.
    event = components.get("Event", {}).get("properties", {})
    if "data" in event:
        event["data"] = {
            "anyOf": [*event["data"].get("allOf", []), {"type": "object"}],
            "description": event["data"].get("description", ""),
        }
    action = components.get("RecommendedAction")
    if action is not None and "oneOf" in action:
        components["OtherRecommendedAction"] = {
            "type": "object",
            "description": (
                "A kind of recommended action this description does not know yet: read "
                "`action` and ignore the rest if you do not handle it."
            ),
            "properties": {"action": {"type": "string"}},
            "required": ["action"],
            "additionalProperties": True,
        }
        action["anyOf"] = [
            *action.pop("oneOf"),
            {"$ref": "#/components/schemas/OtherRecommendedAction"},
        ]
        action.pop("discriminator", None)
    return result
