"""Integrator routes of the integrations app: the API-key session check."""

from __future__ import annotations

from typing import Any

from django.utils.cache import patch_cache_control
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.payloads import user_payload
from api.base import IntegratorApiView
from api.envelope import api_response
from api.openapi import envelope_serializer, error_responses
from api.parsers import json_object_body
from integrations.authentication import ApiKeyAuthentication
from integrations.models import ApiKey
from integrations.selectors import api_access_granted


def api_key_payload(api_key: ApiKey) -> dict[str, Any]:
    return {
        "id": str(api_key.pk),
        "name": api_key.name,
        "hint": api_key.hint,
        "created_at": api_key.created_at,
        "expires_at": api_key.expires_at,
        "last_used_at": api_key.last_used_at,
        "plan_numbers": api_key.plan_numbers(),
    }


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
            },
        ),
        "api_access_enabled": serializers.BooleanField(),
    },
)


class ApiKeySessionCheckApi(IntegratorApiView):
    """Validates the Bearer key and answers with the identity behind it.

    ``api_access_enabled`` is whether the API access policy lets this account use the API;
    since a key that may not be used is refused with 403, it is true in every 200 answer.
    Every answer is ``Cache-Control: no-store``: it describes a credential, and no cache
    between the client and us may keep it.
    """

    authentication_classes = [ApiKeyAuthentication]

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
                    400: [
                        "validation.malformed_json",
                        "validation.body_not_object",
                        "validation.failed",
                    ],
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
                "user": user_payload(api_key.owner),
                "api_key": api_key_payload(api_key),
                "api_access_enabled": api_access_granted(user=api_key.owner),
            },
            message="The API key is valid.",
            message_key="auth.api_key_valid",
        )
