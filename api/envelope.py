"""The /api/v1 envelope: every answer, success or error, is
``{success, message, messageKey, data, traceId}``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from rest_framework.response import Response

from core.observability import current_trace_id


def envelope(
    request: HttpRequest, *, success: bool, message: str, message_key: str, data: Any
) -> dict[str, Any]:
    return {
        "success": success,
        "message": message,
        "messageKey": message_key,
        "data": data,
        "traceId": current_trace_id(request),
    }


def api_response(
    request: HttpRequest,
    data: Any,
    *,
    message: str = "OK",
    message_key: str = "ok",
    status: int = 200,
) -> Response:
    """A success answer in the envelope."""
    return Response(
        envelope(request, success=True, message=message, message_key=message_key, data=data),
        status=status,
    )
