"""The `ApiKeyAuth` security scheme of the public schema; the rest of the schema machinery
(envelope, error responses, hooks) is in api.openapi."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiKeyAuthScheme(OpenApiAuthenticationExtension):
    """The `ApiKeyAuth` security scheme (HTTP bearer) for ApiKeyAuthentication. Registered with
    drf-spectacular by being imported (PlatformApiConfig.ready)."""

    target_class = "apikeys.authentication.ApiKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A user API key, created under Profile > Integrations > API keys: "
                "`Authorization: Bearer mpk_...`."
            ),
        }
