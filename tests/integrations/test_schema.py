from __future__ import annotations

from typing import Any

from drf_spectacular.generators import SchemaGenerator


def test_session_check_is_secured_by_the_api_key_auth_bearer_scheme(db: Any) -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    scheme = schema["components"]["securitySchemes"]["ApiKeyAuth"]
    assert scheme["type"] == "http"
    assert scheme["scheme"] == "bearer"
    operation = schema["paths"]["/auth/session/api-key"]["post"]
    assert operation["security"] == [{"ApiKeyAuth": []}]
