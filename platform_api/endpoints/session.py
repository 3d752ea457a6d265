"""Integrator route of the key: the API-key session check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from api.base import IntegratorApiView
from api.envelope import api_response
from api.openapi import envelope_serializer, error_responses
from api.parsers import IgnoredJsonParser, json_object_body
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey
from organisations.models import Organisation
from platform_api.serializers import OrganisationSerializer, UtcDateTimeField


@dataclass(frozen=True)
class ServiceAccountUser:
    """A service account where the answer's first shape had a person (`user`, kept for its
    clients): the service account's id (the same through its keys' rolls), an address that
    reaches no one, its name."""

    id: str
    email: str
    name: str


@dataclass(frozen=True)
class KeyIdentity:
    """Who a key speaks for: a person (its own key, which reaches the plans of every
    organisation the person belongs to: no `organisation`) or a service account of an
    organisation."""

    api_key: ApiKey
    user: User | ServiceAccountUser
    principal_type: str
    organisation: Organisation | None
    # A key the policy refuses never gets here (403 auth.api_access_disabled).
    api_access_enabled: bool = True


def key_identity(api_key: ApiKey) -> KeyIdentity:
    if api_key.organisation is None:
        assert api_key.owner is not None  # one holder (integrations_apikey_one_holder)
        return KeyIdentity(
            api_key=api_key, user=api_key.owner, principal_type="user", organisation=None
        )
    organisation = api_key.organisation
    service_account = api_key.service_account
    assert service_account is not None  # an organisation's key has one (one-holder constraint)
    user = ServiceAccountUser(
        id=str(service_account.pk),
        email=f"service-account@{organisation.slug}.invalid",
        name=service_account.name,
    )
    return KeyIdentity(
        api_key=api_key,
        user=user,
        principal_type="service_account",
        organisation=organisation,
    )


@extend_schema_field(
    {
        "type": "object",
        "nullable": True,
        "properties": {
            "id": {"type": "string", "format": "uuid"},
            "slug": {"type": "string"},
            "name": {"type": "string"},
        },
        "required": ["id", "slug", "name"],
    }
)
class _OrganisationField(serializers.JSONField):
    """An object or null, written out inline: OpenAPI 3.0 cannot make a referenced component
    nullable in a way every validator and generated client reads alike. Rendered as the
    plans' `organisation`."""

    def to_representation(self, value: Any) -> Any:  # an Organisation
        return OrganisationSerializer(value).data


# The classes' names are the schema's component names; a docstring would become the
# component's description.
class ApiKeySessionUserSerializer(serializers.Serializer):
    id = serializers.CharField()
    email = serializers.EmailField()
    name = serializers.CharField()


class ApiKeySessionKeySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    hint = serializers.CharField()
    created_at = UtcDateTimeField()
    expires_at = UtcDateTimeField(allow_null=True)
    last_used_at = UtcDateTimeField(allow_null=True)
    plan_numbers = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        allow_null=True,
        help_text="The plans the key is limited to; null: every plan its owner can see.",
    )
    permission = serializers.CharField(
        help_text="`read` (every read route) or `read_write` (also acts on suggestions: "
        "dismiss, restore); more may come.",
    )


class ApiKeyPrincipalSerializer(serializers.Serializer):
    type = serializers.CharField(
        source="principal_type",
        help_text="`user` (a person's own key) or `service_account` (a key of one of an "
        "organisation's service accounts). More kinds may come: treat an unknown one like "
        "`service_account`.",
    )
    id = serializers.CharField(
        source="user.id",
        help_text="The person's id, or the service account's: the same through its keys' rolls, "
        "new keys and revocations, so it is what to key an integration's identity on.",
    )
    name = serializers.CharField(
        source="user.name", help_text="The person's name, or the service account's."
    )


class ApiKeyIdentitySerializer(serializers.Serializer):
    user = ApiKeySessionUserSerializer()
    api_key = ApiKeySessionKeySerializer()
    api_access_enabled = serializers.BooleanField()
    principal = ApiKeyPrincipalSerializer(source="*")
    organisation = _OrganisationField(
        help_text="The organisation a service account belongs to; null for a person's key.",
    )


class ApiKeySessionCheckApi(IntegratorApiView):
    """Validates the Bearer key and answers with the identity behind it.

    ``api_access_enabled`` is whether the API access policy lets this key be used; since a key
    that may not be used is refused with 403, it is true in every 200 answer. ``principal`` and
    ``organisation`` say whose key it is (additions to the first shape; ``user`` stays).
    Every answer is ``Cache-Control: no-store``: it describes a credential, and no cache
    between the client and us may keep it.
    """

    authentication_classes = [ApiKeyAuthentication]
    # The body is any JSON object and is ignored: its text is never kept, so a NUL in a key is
    # no reason to refuse it (the schema says "any object").
    parser_classes = [IgnoredJsonParser]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        patch_cache_control(response, no_store=True)
        return response

    @extend_schema(
        operation_id="checkApiKeySession",
        summary="Check an API key",
        description="Validates the key of the Authorization header and returns who it belongs to.",
        request={
            "application/json": {
                "type": "object",
                "description": "An empty object; a missing body counts as {}.",
                "example": {},
            }
        },
        responses={
            200: envelope_serializer("ApiKeySessionEnvelope", ApiKeyIdentitySerializer()),
            **error_responses(
                {
                    400: ["validation.malformed_json", "validation.body_not_object"],
                    415: ["validation.unsupported_media_type"],
                }
            ),
        },
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        json_object_body(request)
        api_key = request.auth
        assert isinstance(api_key, ApiKey)  # ApiKeyAuthentication raises otherwise
        return api_response(
            request,
            ApiKeyIdentitySerializer(key_identity(api_key)).data,
            message="The API key is valid.",
            message_key="auth.api_key_valid",
        )
