"""A secret shown once, after a redirect: API keys (integrations) and webhook signing secrets
(webhooks) take the same path (docs/subsystems/api-keys.md "Shown once").

The POST that makes the secret answers with `secret_shown_once_redirect`: the session keeps
the secret XORed with a one-time pad and the browser keeps the pad, in a cookie limited to the
page that shows the secret and to SHOWN_ONCE_SECONDS. Neither half alone is the secret, so
neither the session table nor the browser's cookie store holds it. The page takes both halves
with `secret_shown_once_take` (which drops the session half) and deletes the cookie with
`secret_shown_once_forget`: a reload, another browser or a late visit gets None.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

SHOWN_ONCE_SECONDS = 300
_SESSION_KEY = "shown_once"
_COOKIE = "shown_once_pad"


def _xor(data: bytes, pad: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, pad, strict=True))


def secret_shown_once_redirect(
    request: HttpRequest, *, url: str, secret: str, facts: dict[str, Any] | None = None
) -> HttpResponse:
    """The redirect to `url`, the page that shows `secret` once; `facts` (JSON values) come
    back with it (e.g. whether a key was rolled)."""
    raw = secret.encode()
    pad = secrets.token_bytes(len(raw))
    request.session[_SESSION_KEY] = {
        "url": url,
        "masked": _xor(raw, pad).hex(),
        "until": time.time() + SHOWN_ONCE_SECONDS,
        "facts": facts or {},
    }
    response = redirect(url)
    response.set_cookie(
        _COOKIE,
        pad.hex(),
        max_age=SHOWN_ONCE_SECONDS,
        path=url,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Strict",
    )
    return response


def secret_shown_once_take(request: HttpRequest) -> tuple[str | None, dict[str, Any]]:
    """The secret stashed for this page and its facts, once; (None, {}) afterwards, in
    another browser, after SHOWN_ONCE_SECONDS, or on another page."""
    stash = request.session.pop(_SESSION_KEY, None)
    if not stash or stash.get("url") != request.path or stash.get("until", 0) < time.time():
        return None, {}
    try:
        masked = bytes.fromhex(stash["masked"])
        pad = bytes.fromhex(request.COOKIES.get(_COOKIE, ""))
    except (KeyError, ValueError):
        return None, {}
    if len(pad) != len(masked):
        return None, {}
    try:
        return _xor(masked, pad).decode(), dict(stash.get("facts") or {})
    except UnicodeDecodeError:
        return None, {}


def secret_shown_once_forget(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Deletes the pad cookie of the page that showed (or would have shown) the secret."""
    response.delete_cookie(_COOKIE, path=request.path, samesite="Strict")
    return response
