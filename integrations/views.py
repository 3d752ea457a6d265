"""Profile > Integrations > API keys: list, create and roll (the new key is shown once, after a
redirect), revoke; the integrator guide.

A POST that creates or rolls a key answers with a redirect, so reloading never creates a second
key; the page it leads to shows the new key once (accounts.shown_once, as webhook secrets).
"""

from __future__ import annotations

import uuid
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.models import User
from accounts.shown_once import (
    secret_shown_once_forget,
    secret_shown_once_redirect,
    secret_shown_once_take,
)
from api.throttling import client_address
from integrations.forms import ApiKeyCreateForm, ApiKeyRollForm
from integrations.models import ApiKey
from integrations.selectors import (
    api_access_granted,
    api_key_get,
    api_key_list,
    api_keys_at_limit,
)
from integrations.services import api_key_create, api_key_revoke, api_key_roll

GUIDE = Path(settings.BASE_DIR) / "docs" / "integrators.md"


def _owner(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # every view here is login_required
    return request.user


def _screen_context(request: HttpRequest) -> dict[str, object]:
    return {
        "api_access_granted": api_access_granted(user=_owner(request)),
        "api_access_requires_grant": settings.API_ACCESS_REQUIRES_GRANT,
    }


def _shown_once(
    request: HttpRequest, api_key: ApiKey, raw_key: str, *, rolled: bool
) -> HttpResponse:
    """The redirect to the page that shows `raw_key` once (accounts.shown_once)."""
    url = reverse("integrations:api_key_created", args=[api_key.pk])
    return secret_shown_once_redirect(request, url=url, secret=raw_key, facts={"rolled": rolled})


@login_required
@require_http_methods(["GET"])
def api_key_list_page(request: HttpRequest) -> HttpResponse:
    user = _owner(request)
    return render(
        request,
        "integrations/api_key_list.html",
        {
            "api_keys": api_key_list(user=user),
            "form": ApiKeyCreateForm(user=user),
            "now": timezone.now(),
            **_screen_context(request),
        },
    )


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def api_key_create_page(request: HttpRequest) -> HttpResponse:
    user = _owner(request)
    form = ApiKeyCreateForm(request.POST if request.method == "POST" else None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            api_key, raw_key = api_key_create(
                user=user, ip_address=client_address(request), **form.create_kwargs()
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return _shown_once(request, api_key, raw_key, rolled=False)
    return render(
        request, "integrations/api_key_create.html", {"form": form, **_screen_context(request)}
    )


@login_required
@never_cache
@require_http_methods(["GET"])
def api_key_created_page(request: HttpRequest, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = api_key_get(user=_owner(request), api_key_id=api_key_id)
    raw_key, facts = secret_shown_once_take(request)
    response = render(
        request,
        "integrations/api_key_created.html",
        {
            "api_key": api_key,
            "raw_key": raw_key,
            "rolled": bool(facts.get("rolled")),
            "no_expiry": api_key.expires_at is None,
            "plan_numbers": api_key.plan_numbers(),
            **_screen_context(request),
        },
    )
    return secret_shown_once_forget(request, response)


@login_required
@require_http_methods(["GET", "POST"])
def api_key_roll_page(request: HttpRequest, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = api_key_get(user=_owner(request), api_key_id=api_key_id)
    form = ApiKeyRollForm(
        request.POST if request.method == "POST" else None,
        at_limit=api_keys_at_limit(user=_owner(request)),
    )
    if request.method == "POST" and form.is_valid():
        try:
            new_key, raw_key = api_key_roll(
                api_key=api_key,
                grace=form.cleaned_data["grace"],
                ip_address=client_address(request),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return _shown_once(request, new_key, raw_key, rolled=True)
    return render(request, "integrations/api_key_roll.html", {"api_key": api_key, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def api_key_revoke_page(request: HttpRequest, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = api_key_get(user=_owner(request), api_key_id=api_key_id)
    if request.method == "POST":
        already_revoked = api_key.revoked_at is not None
        api_key_revoke(api_key=api_key, ip_address=client_address(request))
        if already_revoked:
            messages.info(request, f"The key “{api_key.name}” was already revoked.")
        else:
            messages.success(request, f"The key “{api_key.name}” is revoked. It no longer works.")
        return redirect("integrations:api_key_list")
    return render(request, "integrations/api_key_revoke.html", {"api_key": api_key})


@require_http_methods(["GET"])
def integrator_guide(request: HttpRequest) -> HttpResponse:
    """docs/integrators.md as it is in the repository (Markdown reads well as plain text)."""
    return HttpResponse(GUIDE.read_text(encoding="utf-8"), content_type="text/plain; charset=utf-8")
