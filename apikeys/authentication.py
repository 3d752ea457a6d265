"""Bearer API-key authentication for the integrator endpoints (the ``ApiKeyAuth`` scheme).

Every failure raises ``ApiError`` with its own messageKey (never ``None``, so DRF's generic
errors never show). Outcomes, in the order they are checked: no header (or an empty one) ->
missing_api_key; not exactly "Bearer <token>" (other scheme, no token, extra whitespace) ->
malformed_authorization; wrong prefix, non-base62 or non-ASCII characters, wrong length, bad
checksum, or no such key -> invalid_api_key; then revoked, expired (401), account inactive (a
person's key), API access not granted anywhere (403; a plan of an organisation without it is
refused when the view reads it: apikeys.selectors.plan_for_key). The work does not depend
on what is wrong with a token (docs/subsystems/api-keys.md "Authentication").
"""

from __future__ import annotations

import hmac
import re
from typing import Any

from django.utils import timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from api.errors import BEARER_CHALLENGE, ApiError
from api.throttling import client_address
from apikeys.keys import key_hash, key_is_well_formed
from apikeys.lookup import plan_number_of
from apikeys.models import ApiKey
from apikeys.selectors import api_key_access_granted, api_key_by_hash
from apikeys.services import api_key_address_note, api_key_mark_used

# "Bearer", one space, a token without whitespace; the scheme is case-insensitive (RFC 9110).
_BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] (\S+)")


def bearer_token(header: str | None) -> str:
    """The token of an ``Authorization: Bearer <token>`` header, or the ApiError that applies."""
    if header is None or not header.strip():
        raise ApiError("auth.missing_api_key")
    match = _BEARER.fullmatch(header)
    if match is None:
        raise ApiError("auth.malformed_authorization")
    return match.group(1)


def api_key_authenticate(raw: str, *, plan_number: int | None = None) -> ApiKey:
    """The usable ApiKey (owner loaded) for a raw key, or the ApiError that applies.
    `plan_number`: the plan the request names, read with the key (`api_key_by_hash`)."""
    digest = key_hash(raw)
    if not key_is_well_formed(raw):
        raise ApiError("auth.invalid_api_key")
    api_key = api_key_by_hash(key_hash=digest, plan_number=plan_number)
    # The index matched the hash already; compare_digest keeps the check constant-time should
    # the lookup ever become a prefix or partial match.
    if api_key is None or not hmac.compare_digest(api_key.key_hash, digest):
        raise ApiError("auth.invalid_api_key")
    now = timezone.now()
    state = api_key.state_at(now)
    if state is ApiKey.State.REVOKED:
        raise ApiError("auth.api_key_revoked")
    if state is ApiKey.State.EXPIRED:
        raise ApiError("auth.api_key_expired")
    if api_key.owner is not None and not api_key.owner.is_active:
        raise ApiError("auth.account_inactive")
    if not api_key_access_granted(api_key=api_key):
        raise ApiError("auth.api_access_disabled")
    api_key_mark_used(api_key=api_key, now=now)
    return api_key


def _plan_number_read(request: Request) -> int | None:
    """The plan a GET's path names (`planNumber`), read with its key: one statement for both
    (docs/subsystems/api-lookup.md "The key and the plan of a request"). Not for other
    methods: a write reads its plan when it acts."""
    if request.method not in ("GET", "HEAD"):
        return None
    raw = (request.parser_context or {}).get("kwargs", {}).get("planNumber")
    return plan_number_of(raw) if isinstance(raw, str) else None


class ServiceAccountPrincipal:
    """``request.user`` of a service account's key: authenticated, but no person. Views read
    plans through the key (``request.auth``, apikeys.selectors.plan_for_key); who acts is the
    key's service account (accounts.actor.Actor.service)."""

    is_authenticated = True
    is_anonymous = False
    is_active = True
    pk = None

    def __init__(self, api_key: ApiKey) -> None:
        self.api_key = api_key

    def __str__(self) -> str:
        return f"service account {self.api_key.service_account or self.api_key.name}"


class ApiKeyAuthentication(BaseAuthentication):
    """``request.user`` is the key's owner (or a ServiceAccountPrincipal), ``request.auth`` the
    ApiKey."""

    def authenticate(self, request: Request) -> tuple[Any, ApiKey]:
        api_key = api_key_authenticate(
            bearer_token(request.META.get("HTTP_AUTHORIZATION")),
            plan_number=_plan_number_read(request),
        )
        api_key_address_note(api_key=api_key, ip_address=client_address(request._request))
        return api_key.owner or ServiceAccountPrincipal(api_key), api_key

    def authenticate_header(self, request: Request) -> str:
        return BEARER_CHALLENGE["WWW-Authenticate"]
