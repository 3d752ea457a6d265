"""Profile > Integrations > API keys: list, create (the key is shown once), revoke."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.models import User
from integrations.forms import ApiKeyCreateForm
from integrations.selectors import api_access_granted, api_key_get, api_key_list
from integrations.services import api_key_create, api_key_revoke


def _owner(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # every view here is login_required
    return request.user


def _screen_context(request: HttpRequest) -> dict[str, object]:
    return {
        "api_access_granted": api_access_granted(user=_owner(request)),
        "api_access_requires_grant": settings.API_ACCESS_REQUIRES_GRANT,
    }


@login_required
@require_http_methods(["GET"])
def api_key_list_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "integrations/api_key_list.html",
        {
            "api_keys": api_key_list(user=_owner(request)),
            "form": ApiKeyCreateForm(),
            **_screen_context(request),
        },
    )


@login_required
@never_cache
@require_http_methods(["GET", "POST"])
def api_key_create_page(request: HttpRequest) -> HttpResponse:
    """On success the answer itself carries the raw key, once; nothing stores it."""
    form = ApiKeyCreateForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            api_key, raw_key = api_key_create(user=_owner(request), **form.create_kwargs())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return render(
                request,
                "integrations/api_key_created.html",
                {"api_key": api_key, "raw_key": raw_key, **_screen_context(request)},
            )
    return render(request, "integrations/api_key_create.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def api_key_revoke_page(request: HttpRequest, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = api_key_get(user=_owner(request), api_key_id=api_key_id)
    if request.method == "POST":
        already_revoked = api_key.revoked_at is not None
        api_key_revoke(api_key=api_key)
        if already_revoked:
            messages.info(request, f"The key “{api_key.name}” was already revoked.")
        else:
            messages.success(request, f"The key “{api_key.name}” is revoked. It no longer works.")
        return redirect("integrations:api_key_list")
    return render(request, "integrations/api_key_revoke.html", {"api_key": api_key})
