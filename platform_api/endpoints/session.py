"""Integrator route of the key: the API-key session check."""

from __future__ import annotations

from typing import Any

from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.payloads import user_payload
from api.base import IntegratorApiView
from api.envelope import api_response
from api.openapi import envelope_serializer, error_responses
from api.parsers import IgnoredJsonParser, json_object_body
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey


def api_key_payload(api_key: ApiKey) -> dict[str, Any]:
    return {
        "id": str(api_key.pk),
        "name": api_key.name,
        "hint": api_key.hint,
        "created_at": api_key.created_at,
        "expires_at": api_key.expires_at,
        "last_used_at": api_key.last_used_at,
        "plan_numbers": api_key.plan_numbers(),
        "permission": api_key.permission,
    }


def principal_payloads(api_key: ApiKey) -> dict[str, Any]:
    """Who the key speaks for: `user` (kept for clients of the first shape: for a service
    account, three strings describing it), `principal` and `organisation` (null for a person's
    own key, which reaches the plans of every organisation its owner belongs to)."""
    if api_key.organisation is None:
        assert api_key.owner is not None  # one holder (integrations_apikey_one_holder)
        user = user_payload(api_key.owner)
        return {
            "user": user,
            "principal": {"type": "user", "id": user["id"], "name": user["name"]},
            "organisation": None,
        }
    organisation = api_key.organisation
    return {
        "user": {
            "id": str(api_key.pk),
            "email": f"service-account@{organisation.slug}.invalid",
            "name": api_key.name,
        },
        "principal": {"type": "service_account", "id": str(api_key.pk), "name": api_key.name},
        "organisation": {
            "id": str(organisation.pk),
            "slug": organisation.slug,
            "name": organisation.name,
        },
    }


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
    nullable in a way every validator and generated client reads alike."""


_SESSION_DATA = inline_serializer(
    "ApiKeyIdentity",
    {
        "user": inline_serializer(
            "ApiKeySessionUser",
            {
                "id": serializers.CharField(),
                "email": serializers.EmailField(),
                "name": serializers.CharField(),
            },
        ),
        "api_key": inline_serializer(
            "ApiKeySessionKey",
            {
                "id": serializers.UUIDField(),
                "name": serializers.CharField(),
                "hint": serializers.CharField(),
                "created_at": serializers.DateTimeField(),
                "expires_at": serializers.DateTimeField(allow_null=True),
                "last_used_at": serializers.DateTimeField(allow_null=True),
                "plan_numbers": serializers.ListField(
                    child=serializers.IntegerField(min_value=1),
                    allow_null=True,
                    help_text="The plans the key is limited to; null: every plan its owner "
                    "can see.",
                ),
                "permission": serializers.CharField(
                    help_text="`read` (every read route) or `read_write` (also acts on "
                    "suggestions: dismiss, restore); more may come.",
                ),
            },
        ),
        "api_access_enabled": serializers.BooleanField(),
        "principal": inline_serializer(
            "ApiKeyPrincipal",
            {
                "type": serializers.CharField(
                    help_text="`user` (a person's own key) or `service_account` (a key that "
                    "belongs to an organisation). More kinds may come: treat an unknown one "
                    "like `service_account`.",
                ),
                "id": serializers.CharField(
                    help_text="The person's id, or the service account's (its key's id)."
                ),
                "name": serializers.CharField(),
            },
        ),
        "organisation": _OrganisationField(
            help_text="The organisation a service account belongs to; null for a person's key.",
        ),
    },
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
            200: envelope_serializer("ApiKeySessionEnvelope", _SESSION_DATA),
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
            {
                **principal_payloads(api_key),
                "api_key": api_key_payload(api_key),
                # A key the policy refuses never gets here (403 auth.api_access_disabled).
                "api_access_enabled": True,
            },
            message="The API key is valid.",
            message_key="auth.api_key_valid",
        )
