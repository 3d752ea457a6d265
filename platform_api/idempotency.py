"""`Idempotency-Key` on the platform's POSTs (docs/subsystems/integrator-api.md "Acts"): the same
key of the same API key with the same request within IDEMPOTENCY_HOURS replays the first answer
(`Idempotent-Replayed: true`), with another request is 409 `idempotency.mismatch`; two
concurrent requests with one key make one act (the record is claimed in the act's transaction,
under its unique constraint). The records are apikeys.models.IdempotentRequest rows."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request
from rest_framework.response import Response

from api.envelope import api_response
from api.errors import ApiError
from apikeys.models import IdempotentRequest
from platform_api.base import key_of

IDEMPOTENCY_HOURS = 24
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,255}")


def _fingerprint(request: Request) -> str:
    """The request as an act sees it: method, path and the JSON body (keys sorted), hashed."""
    body = json.dumps(request.data if isinstance(request.data, dict) else {}, sort_keys=True)
    return hashlib.sha256("\n".join([str(request.method), request.path, body]).encode()).hexdigest()


def _replay(
    request: Request, record: IdempotentRequest, unseal: Callable[[Any], Any] | None
) -> Response:
    response = api_response(
        request,
        record.data if unseal is None else unseal(record.data),
        message=record.message,
        message_key=record.message_key,
        status=record.status,
    )
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(
    request: Request,
    act: Callable[[], tuple[Any, str, str]],
    *,
    seal: Callable[[Any], Any] | None = None,
    unseal: Callable[[Any], Any] | None = None,
) -> Response:
    """`act()` (returning data, message, messageKey of a 200) once per Idempotency-Key.

    `seal` turns the data into what is stored for a replay and `unseal` back (an answer that
    shows a secret once stores it encrypted, never as plain text)."""
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        data, message, key = act()
        return api_response(request, data, message=message, message_key=key)
    if not _IDEMPOTENCY_KEY.fullmatch(raw):
        raise ApiError(
            "validation.failed",
            errors={"Idempotency-Key": ["1 to 255 printable ASCII characters, no spaces."]},
        )
    api_key = key_of(request)
    fingerprint = _fingerprint(request)
    with transaction.atomic():
        IdempotentRequest.objects.filter(
            api_key=api_key, created_at__lt=timezone.now() - timedelta(hours=IDEMPOTENCY_HOURS)
        ).delete()
        try:
            with transaction.atomic():
                record = IdempotentRequest.objects.create(
                    api_key=api_key,
                    key=raw,
                    fingerprint=fingerprint,
                    status=200,
                    message="",
                    message_key="",
                )
        except IntegrityError:  # the key was used before (or by a request running now)
            first = IdempotentRequest.objects.get(api_key=api_key, key=raw)
            if first.fingerprint != fingerprint:
                raise ApiError("idempotency.mismatch") from None
            return _replay(request, first, unseal)
        data, message, message_key = act()
        record.data = data if seal is None else seal(data)
        record.message, record.message_key = message, message_key
        record.save(update_fields=["data", "message", "message_key"])
    return api_response(request, data, message=message, message_key=message_key)


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"},
    OpenApiParameter.HEADER,
    description=(
        f"Makes a retry safe: the same key with the same request within {IDEMPOTENCY_HOURS} "
        "hours gets the first answer again (`Idempotent-Replayed: true`); with another request "
        "409 `idempotency.mismatch`."
    ),
)
