"""An organisation's webhook endpoints over the API (docs/subsystems/integrator-api.md "Webhook
endpoints over the API"):

- `GET|POST /api/v1/platform/webhooks`, `GET|PATCH|DELETE .../webhooks/{webhookId}`,
  `POST .../webhooks/{webhookId}/rotate-secret` and `.../test`;
- only a service-account key with the permission `read_write` (platform_api.webhook_access);
- the web pages' services and rules (webhooks.services: the SSRF guard, the plans the
  organisation may choose, the test events' ceiling); `Idempotency-Key` on every write, and
  the secret of a create or a rotation stored for a replay only encrypted.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.envelope import api_response
from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from api.parsers import json_object_body
from organisations.models import Organisation
from planning.models import MAX_PLAN_NUMBER, Plan
from platform_api.base import key_of
from platform_api.idempotency import IDEMPOTENCY_KEY, idempotent
from platform_api.paging import (
    CURSOR,
    LIMIT,
    limit_parse,
    next_cursor,
    page_by_pk,
    uuid_cursor_parse,
)
from platform_api.webhook_access import (
    WEBHOOK_ID,
    WebhookApi,
    WebhookEndpointSerializer,
    WebhookEndpointWithSecretSerializer,
    endpoint_shown,
    endpoints_of_key,
    managing_organisation,
    organisation_endpoint,
)
from webhooks.events import PendingTestEventsFull, endpoint_test_event_send
from webhooks.models import WebhookDelivery, WebhookEndpoint
from webhooks.services import (
    endpoint_create,
    endpoint_delete,
    endpoint_disable,
    endpoint_enable,
    endpoint_secret_roll,
    endpoint_update,
)
from webhooks.signing import secret_decrypt, secret_encrypt

_DESCRIPTION_MAX: int = WebhookEndpoint._meta.get_field("description").max_length  # type: ignore[assignment]
_PLANS_MAX = 1000


def _seal(data: Any) -> Any:
    """The answer as kept for a replay: the secret encrypted, as the endpoint keeps it."""
    return {**data, "secret": secret_encrypt(data["secret"])}


def _unseal(data: Any) -> Any:
    return {**data, "secret": secret_decrypt(data["secret"])}


class _PlansField(serializers.ListField):
    child = serializers.IntegerField(min_value=1, max_value=MAX_PLAN_NUMBER)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            allow_null=True,
            allow_empty=True,
            max_length=_PLANS_MAX,
            help_text="Plan numbers of the organisation; null: every plan it owns, now and later.",
            **kwargs,
        )


class WebhookCreateSerializer(serializers.Serializer):
    url = serializers.CharField(
        allow_blank=True, trim_whitespace=False, help_text="https, port 443 or 8443."
    )
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=_DESCRIPTION_MAX, default=""
    )
    plans = _PlansField(required=False, default=None)


class WebhookUpdateSerializer(serializers.Serializer):
    url = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    description = serializers.CharField(
        required=False, allow_blank=True, max_length=_DESCRIPTION_MAX
    )
    plans = _PlansField(required=False)
    enabled = serializers.BooleanField(
        required=False, help_text="false: no events until enabled again."
    )


class WebhookPageSerializer(serializers.Serializer):
    webhooks = WebhookEndpointSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class WebhookDeletedSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    deleted = serializers.BooleanField()


class WebhookTestSerializer(serializers.Serializer):
    event_id = serializers.CharField(help_text="The webhook.test event's id (evt_...).")
    delivery_id = serializers.IntegerField(help_text="Its delivery, in the deliveries list.")


def _valid(form: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The body's known fields, validated (unknown fields are ignored)."""
    body = json_object_body(request)
    serializer = form(data={k: v for k, v in body.items() if k in form().fields})
    if not serializer.is_valid():
        raise ApiError("validation.failed", errors=_flat(serializer.errors))
    return dict(serializer.validated_data)


def _flat(errors: Any) -> dict[str, list[str]]:
    """Each field's messages as a list of text; a list's item errors name the item."""
    flat: dict[str, list[str]] = {}
    for field, problems in errors.items():
        if isinstance(problems, dict):
            flat[field] = [
                f"Item {int(index) + 1}: {message}"
                for index, messages in problems.items()
                for message in messages
            ]
        else:
            flat[field] = [str(message) for message in problems]
    return flat


def _plans(
    request: Request, organisation: Organisation, numbers: list[int] | None
) -> list[Plan] | None:
    """The plans chosen by number; a key limited to plans chooses among them only (never
    every plan), so no endpoint it makes hears of a plan it may not read."""
    reachable = key_of(request).plan_numbers()
    if reachable is not None and (numbers is None or not set(numbers) <= set(reachable)):
        listed = ", ".join(str(number) for number in reachable)
        raise ApiError(
            "validation.failed",
            errors={"plans": [f"This key reaches only plans {listed}: choose among them."]},
        )
    if numbers is None:
        return None
    plans = list(Plan.objects.filter(number__in=numbers, organisation=organisation))
    missing = sorted(set(numbers) - {plan.number for plan in plans})
    if missing:
        listed = ", ".join(str(number) for number in missing)
        raise ApiError(
            "validation.failed",
            errors={"plans": [f"Not a plan of your organisation: {listed}."]},
        )
    return plans


def _refused(error: ValidationError) -> ApiError:
    return ApiError("validation.failed", errors=error.message_dict)


def _errors(*extra: tuple[int, str]) -> dict[int, OpenApiResponse]:
    listed: dict[int, list[str]] = {403: ["auth.insufficient_permission"]}
    for status, key in extra:
        listed.setdefault(status, []).append(key)
    return error_responses(listed)


_WRITE = [
    (400, "validation.malformed_json"),
    (400, "validation.body_not_object"),
    (400, "validation.failed"),
    (409, "idempotency.mismatch"),
    (415, "validation.unsupported_media_type"),
]
_ONE = (404, "webhook_endpoints.not_found")


class WebhookListApi(WebhookApi):
    @extend_schema(
        operation_id="listWebhooks",
        summary="List the organisation's webhook endpoints",
        description="Oldest first, paged. Needs a service-account key with read_write.",
        parameters=[LIMIT, CURSOR],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhooksEnvelope", WebhookPageSerializer()),
                description="One page of endpoints.",
            ),
            **_errors((400, "validation.query")),
        },
        tags=["webhooks"],
    )
    def get(self, request: Request) -> Response:
        organisation = managing_organisation(request)
        errors: dict[str, list[str]] = {}
        limit = limit_parse(request.query_params, errors)
        after = uuid_cursor_parse(request.query_params, "webhooks", errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        rows = endpoints_of_key(request, organisation).prefetch_related("plans")
        page, more = page_by_pk(rows, after, limit)
        cursor = next_cursor("webhooks", page, limit, more, key=lambda e: str(e.pk))
        return api_response(
            request, WebhookPageSerializer({"webhooks": page, "next_cursor": cursor}).data
        )

    @extend_schema(
        operation_id="createWebhook",
        summary="Add a webhook endpoint",
        description=(
            "As the organisation's Webhooks page: the URL passes the SSRF guard, the plans are "
            "the organisation's. The answer shows the signing secret, once."
        ),
        parameters=[IDEMPOTENCY_KEY],
        request=WebhookCreateSerializer,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer(
                    "WebhookCreatedEnvelope", WebhookEndpointWithSecretSerializer()
                ),
                description="The endpoint with its signing secret (shown only here).",
            ),
            **_errors(*_WRITE),
        },
        tags=["webhooks"],
    )
    def post(self, request: Request) -> Response:
        organisation = managing_organisation(request)
        body = _valid(WebhookCreateSerializer, request)
        plans = _plans(request, organisation, body["plans"])
        user = request.user if getattr(request.user, "pk", None) is not None else None

        def act() -> tuple[Any, str, str]:
            try:
                endpoint, secret = endpoint_create(
                    user=user,  # type: ignore[arg-type]
                    organisation=organisation,
                    url=body["url"],
                    description=body["description"],
                    plans=plans,
                )
            except ValidationError as error:
                raise _refused(error) from None
            return endpoint_shown(endpoint, secret), "Endpoint added.", "webhook_endpoints.created"

        return idempotent(request, act, seal=_seal, unseal=_unseal)


class WebhookDetailApi(WebhookApi):
    @extend_schema(
        operation_id="getWebhook",
        summary="Get a webhook endpoint",
        parameters=[WEBHOOK_ID],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhookEnvelope", WebhookEndpointSerializer()),
                description="The endpoint.",
            ),
            **_errors(_ONE),
        },
        tags=["webhooks"],
    )
    def get(self, request: Request, webhookId: str) -> Response:
        endpoint = organisation_endpoint(request, managing_organisation(request), webhookId)
        return api_response(request, endpoint_shown(endpoint))

    @extend_schema(
        operation_id="updateWebhook",
        summary="Change a webhook endpoint",
        description=(
            "Changes the fields sent: `url` (the SSRF guard again), `description`, `plans` "
            "(null: every plan), `enabled`."
        ),
        parameters=[WEBHOOK_ID, IDEMPOTENCY_KEY],
        request=WebhookUpdateSerializer,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhookUpdatedEnvelope", WebhookEndpointSerializer()),
                description="The endpoint as changed.",
            ),
            **_errors(*_WRITE, _ONE),
        },
        tags=["webhooks"],
    )
    def patch(self, request: Request, webhookId: str) -> Response:
        organisation = managing_organisation(request)
        endpoint = organisation_endpoint(request, organisation, webhookId)
        body = _valid(WebhookUpdateSerializer, request)
        changes: dict[str, Any] = {k: body[k] for k in ("url", "description") if k in body}
        if "plans" in body:
            changes["change_plans"] = True
            changes["plans"] = _plans(request, organisation, body["plans"])

        def act() -> tuple[Any, str, str]:
            try:
                endpoint_update(endpoint=endpoint, **changes)
                if body.get("enabled") is True:
                    endpoint_enable(endpoint=endpoint)
                elif body.get("enabled") is False:
                    endpoint_disable(endpoint=endpoint)
            except ValidationError as error:
                raise _refused(error) from None
            return endpoint_shown(endpoint), "Endpoint changed.", "webhook_endpoints.updated"

        return idempotent(request, act)

    @extend_schema(
        operation_id="deleteWebhook",
        summary="Delete a webhook endpoint",
        description="With its deliveries and their log.",
        parameters=[WEBHOOK_ID, IDEMPOTENCY_KEY],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhookDeletedEnvelope", WebhookDeletedSerializer()),
                description="The endpoint is deleted.",
            ),
            **_errors(_ONE, (400, "validation.failed"), (409, "idempotency.mismatch")),
        },
        tags=["webhooks"],
    )
    def delete(self, request: Request, webhookId: str) -> Response:
        organisation = managing_organisation(request)

        def act() -> tuple[Any, str, str]:
            endpoint = organisation_endpoint(request, organisation, webhookId)
            data = {"id": str(endpoint.pk), "deleted": True}
            endpoint_delete(endpoint=endpoint)
            return data, "Endpoint deleted.", "webhook_endpoints.deleted"

        return idempotent(request, act)


_EMPTY_BODY = {
    "application/json": {
        "type": "object",
        "description": "An empty object; a missing body counts as {}.",
        "example": {},
    }
}


class WebhookRotateSecretApi(WebhookApi):
    @extend_schema(
        operation_id="rotateWebhookSecret",
        summary="Rotate an endpoint's signing secret",
        description=(
            "A new secret, shown once in this answer. For 24 hours each delivery carries "
            "signatures with the new and the old secret, so the receiver switches without a gap."
        ),
        parameters=[WEBHOOK_ID, IDEMPOTENCY_KEY],
        request=_EMPTY_BODY,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer(
                    "WebhookRotatedEnvelope", WebhookEndpointWithSecretSerializer()
                ),
                description="The endpoint with its new secret (shown only here).",
            ),
            **_errors(*_WRITE, _ONE),
        },
        tags=["webhooks"],
    )
    def post(self, request: Request, webhookId: str) -> Response:
        endpoint = organisation_endpoint(request, managing_organisation(request), webhookId)
        json_object_body(request)

        def act() -> tuple[Any, str, str]:
            secret = endpoint_secret_roll(endpoint=endpoint)
            return (
                endpoint_shown(endpoint, secret),
                "Secret rotated.",
                "webhook_endpoints.secret_rotated",
            )

        return idempotent(request, act, seal=_seal, unseal=_unseal)


class WebhookTestApi(WebhookApi):
    @extend_schema(
        operation_id="sendWebhookTest",
        summary="Send a test event",
        description=(
            "A `webhook.test` event to this endpoint (even a disabled one), as the page's "
            "Send test event; its delivery appears in the deliveries."
        ),
        parameters=[WEBHOOK_ID, IDEMPOTENCY_KEY],
        request=_EMPTY_BODY,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhookTestEnvelope", WebhookTestSerializer()),
                description="The test event is queued.",
            ),
            **_errors(*_WRITE, _ONE, (409, "webhook_endpoints.test_events_pending")),
        },
        tags=["webhooks"],
    )
    def post(self, request: Request, webhookId: str) -> Response:
        endpoint = organisation_endpoint(request, managing_organisation(request), webhookId)
        json_object_body(request)

        def act() -> tuple[Any, str, str]:
            try:
                event = endpoint_test_event_send(endpoint=endpoint)
            except PendingTestEventsFull:
                raise ApiError("webhook_endpoints.test_events_pending") from None
            delivery = WebhookDelivery.objects.get(event=event, endpoint=endpoint)
            data = {"event_id": event.pk, "delivery_id": delivery.pk}
            return data, "Test event queued.", "webhook_endpoints.test_queued"

        return idempotent(request, act)
