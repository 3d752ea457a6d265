"""What the webhook operations of the API share (platform_api.endpoints.webhooks and
.webhook_deliveries; docs/subsystems/integrator-api.md "Webhook endpoints over the API"): who
may manage endpoints, an endpoint of the key's organisation, and how one is shown."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request

from api.base import IntegratorApiView
from api.errors import ApiError
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey
from organisations.models import Organisation
from planning.models import Plan
from platform_api.base import key_of
from webhooks.models import WebhookEndpoint

PERSONAL_KEY_REFUSED = (
    "Webhook endpoints are managed over the API with an organisation's service-account key "
    "with the read and write permission. A person's key may not: manage your own endpoints on "
    "Profile > Integrations > Webhooks."
)
READ_KEY_REFUSED = (
    "This API key may only read. Managing webhook endpoints needs a service-account key with "
    "the read and write permission."
)


class WebhookApi(IntegratorApiView):
    authentication_classes = [ApiKeyAuthentication]


def managing_organisation(request: Request) -> Organisation:
    """The organisation whose endpoints the key manages: a service-account key with the
    read_write permission; any other key is 403 `auth.insufficient_permission`."""
    api_key = key_of(request)
    if api_key.organisation_id is None:
        raise ApiError("auth.insufficient_permission", PERSONAL_KEY_REFUSED)
    if api_key.permission != ApiKey.Permission.READ_WRITE:
        raise ApiError("auth.insufficient_permission", READ_KEY_REFUSED)
    assert api_key.organisation is not None
    return api_key.organisation


def endpoints_of_key(request: Request, organisation: Organisation) -> QuerySet[WebhookEndpoint]:
    """The organisation's endpoints the key may see and manage: every one, or for a key limited
    to some plans only those covering chosen plans among them (never one covering every plan,
    whose events reach plans the key may not read)."""
    endpoints = WebhookEndpoint.objects.filter(organisation=organisation)
    reachable = key_of(request).plan_numbers()
    if reachable is None:
        return endpoints
    outside = Plan.objects.filter(organisation=organisation).exclude(number__in=reachable)
    return endpoints.filter(all_plans=False).exclude(plans__in=outside)


def organisation_endpoint(
    request: Request, organisation: Organisation, endpoint_id: str
) -> WebhookEndpoint:
    """The organisation's endpoint as the key sees it (`endpoints_of_key`); another's, one the
    key may not see, or none, is 404 `webhook_endpoints.not_found`."""
    try:
        pk = uuid.UUID(endpoint_id)
    except ValueError:
        raise ApiError("webhook_endpoints.not_found") from None
    endpoint = (
        endpoints_of_key(request, organisation).filter(pk=pk).select_related("organisation").first()
    )
    if endpoint is None:
        raise ApiError("webhook_endpoints.not_found")
    return endpoint


class _PlanNumbersField(serializers.ListField):
    """The chosen plans' numbers, or null for every plan of the organisation."""

    child = serializers.IntegerField()

    def get_attribute(self, instance: WebhookEndpoint) -> Any:
        if instance.all_plans:
            return None
        return sorted(plan.number for plan in instance.plans.all())

    def to_representation(self, data: Any) -> Any:
        return None if data is None else super().to_representation(data)


class WebhookEndpointSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    url = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    plans = _PlanNumbersField(
        allow_null=True,
        help_text="The numbers of the plans it covers; null: every plan of the organisation.",
    )
    enabled = serializers.BooleanField(source="is_active")
    disabled_reason = serializers.CharField(
        allow_blank=True, help_text="owner or failing (more may come); empty while enabled."
    )
    secret_hint = serializers.CharField(help_text="The first characters of the secret.")
    previous_secret_until = serializers.DateTimeField(
        allow_null=True,
        help_text="Until then deliveries are signed with the secret before the last rotation too.",
    )
    failing_since = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class WebhookEndpointWithSecretSerializer(WebhookEndpointSerializer):
    secret = serializers.CharField(help_text="The signing secret, shown only in this answer.")


def endpoint_shown(endpoint: WebhookEndpoint, secret: str | None = None) -> dict[str, Any]:
    if secret is None:
        return dict(WebhookEndpointSerializer(endpoint).data)
    endpoint.secret = secret  # type: ignore[attr-defined]
    return dict(WebhookEndpointWithSecretSerializer(endpoint).data)


WEBHOOK_ID = OpenApiParameter(
    "webhookId",
    {"type": "string", "format": "uuid"},
    OpenApiParameter.PATH,
    description="The endpoint's id (from the list).",
)
