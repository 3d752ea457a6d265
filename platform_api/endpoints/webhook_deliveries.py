"""An organisation endpoint's deliveries over the API (docs/subsystems/integrator-api.md
"Webhook endpoints over the API"): `GET /api/v1/platform/webhooks/{webhookId}/deliveries`
(newest first, paged) and `POST .../deliveries/{deliveryId}/redeliver` (the page's Redeliver:
the same event again, as the delivery's next attempt)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.envelope import api_response
from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from api.parsers import json_object_body
from platform_api.idempotency import IDEMPOTENCY_KEY, idempotent
from platform_api.paging import CURSOR, LIMIT, int_cursor_parse, limit_parse, next_cursor
from platform_api.webhook_access import (
    WEBHOOK_ID,
    WebhookApi,
    managing_organisation,
    organisation_endpoint,
)
from webhooks.models import WebhookDelivery, WebhookEndpoint
from webhooks.selectors import deliveries_page, endpoint_delivery
from webhooks.services import delivery_redeliver

_ID_MAX = 2**63 - 1


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event_id = serializers.CharField(source="event.id")
    event_type = serializers.CharField(
        source="event.event_type",
        help_text="suggestions.changed, webhook.test, ... (more may come).",
    )
    status = serializers.CharField(
        help_text="pending, delivered, failed (gave up) or skipped (not sent); more may come."
    )
    attempts = serializers.IntegerField()
    last_status_code = serializers.IntegerField(
        allow_null=True, help_text="The HTTP status of the last attempt; null: no answer (yet)."
    )
    last_attempted_at = serializers.DateTimeField(allow_null=True)
    last_error = serializers.CharField(
        allow_null=True, allow_blank=True, help_text="Why the last attempt failed, in a few words."
    )
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class DeliveryPageSerializer(serializers.Serializer):
    deliveries = DeliverySerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


DELIVERY_ID = OpenApiParameter(
    "deliveryId",
    {"type": "integer", "minimum": 1},
    OpenApiParameter.PATH,
    description="The delivery's id (from the deliveries list).",
)


def _delivery(endpoint: WebhookEndpoint, raw: str) -> WebhookDelivery:
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) < _ID_MAX:
        raise ApiError("webhook_endpoints.delivery_not_found")
    delivery = endpoint_delivery(endpoint=endpoint, delivery_id=int(raw))
    if delivery is None:
        raise ApiError("webhook_endpoints.delivery_not_found")
    return delivery


class WebhookDeliveryListApi(WebhookApi):
    @extend_schema(
        operation_id="listWebhookDeliveries",
        summary="List an endpoint's deliveries",
        description="Newest first, paged: each event sent (or to be sent) to the endpoint.",
        parameters=[WEBHOOK_ID, LIMIT, CURSOR],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhookDeliveriesEnvelope", DeliveryPageSerializer()),
                description="One page of deliveries.",
            ),
            **error_responses(
                {
                    400: ["validation.query"],
                    403: ["auth.insufficient_permission"],
                    404: ["webhook_endpoints.not_found"],
                }
            ),
        },
        tags=["webhooks"],
    )
    def get(self, request: Request, webhookId: str) -> Response:
        endpoint = organisation_endpoint(request, managing_organisation(request), webhookId)
        errors: dict[str, list[str]] = {}
        limit = limit_parse(request.query_params, errors)
        binding = f"deliveries|{endpoint.pk}"
        before = int_cursor_parse(request.query_params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        page, more = deliveries_page(endpoint=endpoint, before=before, limit=limit)
        cursor = next_cursor(binding, page, limit, more)
        return api_response(
            request, DeliveryPageSerializer({"deliveries": page, "next_cursor": cursor}).data
        )


class WebhookRedeliverApi(WebhookApi):
    @extend_schema(
        operation_id="redeliverWebhookDelivery",
        summary="Send a delivery's event again",
        description=(
            "The same event (same id) again now, as the delivery's next attempt, as the page's "
            "Redeliver."
        ),
        parameters=[WEBHOOK_ID, DELIVERY_ID, IDEMPOTENCY_KEY],
        request={
            "application/json": {
                "type": "object",
                "description": "An empty object; a missing body counts as {}.",
                "example": {},
            }
        },
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("WebhookRedeliverEnvelope", DeliverySerializer()),
                description="The delivery, pending again.",
            ),
            **error_responses(
                {
                    400: [
                        "validation.malformed_json",
                        "validation.body_not_object",
                        "validation.failed",
                    ],
                    403: ["auth.insufficient_permission"],
                    404: ["webhook_endpoints.not_found", "webhook_endpoints.delivery_not_found"],
                    409: ["idempotency.mismatch"],
                    415: ["validation.unsupported_media_type"],
                }
            ),
        },
        tags=["webhooks"],
    )
    def post(self, request: Request, webhookId: str, deliveryId: str) -> Response:
        endpoint = organisation_endpoint(request, managing_organisation(request), webhookId)
        delivery = _delivery(endpoint, deliveryId)
        json_object_body(request)

        def act() -> tuple[Any, str, str]:
            delivery_redeliver(delivery=delivery)
            shown = DeliverySerializer(_delivery(endpoint, deliveryId)).data
            return shown, "Redelivery queued.", "webhook_endpoints.redelivery_queued"

        return idempotent(request, act)
