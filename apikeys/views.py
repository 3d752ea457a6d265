"""API keys pages, for a person's own keys (Profile > Integrations > API keys) and for an
organisation's service accounts (Organisation > Integrations > API keys): list, create and roll
(the new key is shown once, after a redirect), revoke; an organisation's API access and the
requests for it; the integrator guide.

One set of views serves both holders through a `KeyScope` (whose keys, which URLs, which
header). A POST that creates or rolls a key answers with a redirect, so reloading never creates
a second key; the page it leads to shows the new key once (accounts.shown_once).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from accounts.selectors import security_events_for_organisation
from accounts.shown_once import (
    secret_shown_once_forget,
    secret_shown_once_redirect,
    secret_shown_once_take,
)
from api.throttling import client_address
from apikeys.forms import ApiKeyCreateForm, ApiKeyRollForm
from apikeys.holders import KeyHolder
from apikeys.models import ApiAccessRequest, ApiKey
from apikeys.selectors import (
    api_access_granted,
    api_access_requests_pending,
    api_keys_at_limit,
    key_list,
    organisations_without_api_access,
    service_accounts_with_keys,
)
from apikeys.services import (
    api_access_request,
    api_access_request_decide,
    api_key_create,
    api_key_revoke,
    api_key_roll,
    organisation_api_access_set,
)
from organisations.access import organisation_context, organisation_member_required
from organisations.models import OrganisationMembership

GUIDE = Path(settings.BASE_DIR) / "docs" / "integrators.md"
SECURITY_EVENTS_PER_PAGE = 50


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # every view here is login_required
    return request.user


@dataclass
class KeyScope:
    """Whose keys a page shows, and where its links go."""

    holder: KeyHolder
    creator: User
    url_names: dict[str, str]
    url_args: list[Any]
    context: dict[str, Any] = field(default_factory=dict)

    def url(self, name: str, *args: Any) -> str:
        return reverse(self.url_names[name], args=[*self.url_args, *args])

    def key_get(self, api_key_id: uuid.UUID) -> ApiKey:
        """One of the holder's keys; anyone else's is a 404, exactly like a missing one."""
        api_key = self.holder.keys().filter(pk=api_key_id).first()
        if api_key is None:
            raise Http404("No such API key")
        return api_key

    def page_context(self, request: HttpRequest) -> dict[str, Any]:
        return {
            **self.context,
            "urls": {name: self.url(name) for name in ("list", "create")},
            "api_access_requires_grant": settings.API_ACCESS_REQUIRES_GRANT,
        }


PERSONAL_URLS = {
    "list": "integrations:api_key_list",
    "create": "integrations:api_key_create",
    "created": "integrations:api_key_created",
    "roll": "integrations:api_key_roll",
    "revoke": "integrations:api_key_revoke",
}
ORGANISATION_URLS = {
    "list": "integrations:organisation_api_keys",
    "create": "integrations:organisation_api_key_create",
    "created": "integrations:organisation_api_key_created",
    "roll": "integrations:organisation_api_key_roll",
    "revoke": "integrations:organisation_api_key_revoke",
}


def _personal_scope(request: HttpRequest) -> KeyScope:
    user = _user(request)
    return KeyScope(
        holder=KeyHolder(user=user),
        creator=user,
        url_names=PERSONAL_URLS,
        url_args=[],
        context={
            "api_access_granted": api_access_granted(user=user),
            "organisations_without_access": organisations_without_api_access(user=user),
            "access_requests": api_access_requests_pending(user=user),
        },
    )


def organisation_scope(request: HttpRequest, membership: OrganisationMembership) -> KeyScope:
    organisation = membership.organisation
    return KeyScope(
        holder=KeyHolder(organisation=organisation),
        creator=_user(request),
        url_names=ORGANISATION_URLS,
        url_args=[organisation.slug],
        context={
            **organisation_context(membership, "api_keys"),
            "api_access_granted": organisation.api_access_enabled,
        },
    )


ScopedView = Callable[..., HttpResponse]


def _personal(view: ScopedView) -> ScopedView:
    @login_required
    def wrapped(request: HttpRequest, **kwargs: Any) -> HttpResponse:
        return view(request, _personal_scope(request), **kwargs)

    return wrapped


def _of_organisation(view: ScopedView) -> ScopedView:
    @organisation_member_required(manage=True)
    def wrapped(request: HttpRequest, membership: OrganisationMembership, **kwargs: Any) -> Any:
        return view(request, organisation_scope(request, membership), **kwargs)

    return wrapped


def key_shown_once(
    scope: KeyScope, request: HttpRequest, api_key: ApiKey, raw: str, *, rolled: bool
) -> HttpResponse:
    """The redirect to the page that shows `raw` once (accounts.shown_once)."""
    url = scope.url("created", api_key.pk)
    return secret_shown_once_redirect(request, url=url, secret=raw, facts={"rolled": rolled})


@require_http_methods(["GET"])
def _list(request: HttpRequest, scope: KeyScope) -> HttpResponse:
    now = timezone.now()
    keys = key_list(
        scope.holder.keys().prefetch_related("plans").select_related("created_by"), now=now
    )
    for api_key in [*keys.live, *keys.past]:
        api_key.roll_url = scope.url("roll", api_key.pk)  # type: ignore[attr-defined]
        api_key.revoke_url = scope.url("revoke", api_key.pk)  # type: ignore[attr-defined]
    context: dict[str, Any] = {}
    if scope.holder.organisation is not None:
        context["service_accounts"] = service_accounts_with_keys(scope.holder.organisation, keys)
    return render(
        request,
        "integrations/api_key_list.html",
        {
            "live_keys": keys.live,
            "past_keys": keys.past,
            "past_count": keys.past_counts.get(None, 0),
            "form": ApiKeyCreateForm(plans=scope.holder.plans()),
            "now": now,
            **context,
            **scope.page_context(request),
        },
    )


@never_cache
@require_http_methods(["GET", "POST"])
def _create(request: HttpRequest, scope: KeyScope) -> HttpResponse:
    form = ApiKeyCreateForm(
        request.POST if request.method == "POST" else None, plans=scope.holder.plans()
    )
    if request.method == "POST" and form.is_valid():
        try:
            api_key, raw_key = api_key_create(
                user=scope.creator,
                organisation=scope.holder.organisation,
                ip_address=client_address(request),
                **form.create_kwargs(),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return key_shown_once(scope, request, api_key, raw_key, rolled=False)
    return render(
        request, "integrations/api_key_create.html", {"form": form, **scope.page_context(request)}
    )


@never_cache
@require_http_methods(["GET"])
def _created(request: HttpRequest, scope: KeyScope, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = scope.key_get(api_key_id)
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
            **scope.page_context(request),
        },
    )
    return secret_shown_once_forget(request, response)


@require_http_methods(["GET", "POST"])
def _roll(request: HttpRequest, scope: KeyScope, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = scope.key_get(api_key_id)
    form = ApiKeyRollForm(
        request.POST if request.method == "POST" else None,
        at_limit=api_keys_at_limit(holder=scope.holder),
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
            return key_shown_once(scope, request, new_key, raw_key, rolled=True)
    return render(
        request,
        "integrations/api_key_roll.html",
        {"api_key": api_key, "form": form, **scope.page_context(request)},
    )


@require_http_methods(["GET", "POST"])
def _revoke(request: HttpRequest, scope: KeyScope, api_key_id: uuid.UUID) -> HttpResponse:
    api_key = scope.key_get(api_key_id)
    if request.method == "POST":
        already_revoked = api_key.revoked_at is not None
        api_key_revoke(api_key=api_key, ip_address=client_address(request))
        if already_revoked:
            messages.info(request, f"The key “{api_key.name}” was already revoked.")
        else:
            messages.success(request, f"The key “{api_key.name}” is revoked. It no longer works.")
        return redirect(scope.url("list"))
    return render(
        request,
        "integrations/api_key_revoke.html",
        {"api_key": api_key, **scope.page_context(request)},
    )


api_key_list_page = _personal(_list)
api_key_create_page = _personal(_create)
api_key_created_page = _personal(_created)
api_key_roll_page = _personal(_roll)
api_key_revoke_page = _personal(_revoke)

organisation_api_key_list_page = _of_organisation(_list)
organisation_api_key_create_page = _of_organisation(_create)
organisation_api_key_created_page = _of_organisation(_created)
organisation_api_key_roll_page = _of_organisation(_roll)
organisation_api_key_revoke_page = _of_organisation(_revoke)


# --- an organisation's API access -------------------------------------------------------------


@organisation_member_required()
@require_http_methods(["GET"])
def organisation_api_access_page(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    """Every member sees the state; owners and admins switch it and decide the requests;
    the others, while it is off, may ask for it."""
    organisation = membership.organisation
    context = organisation_context(membership, "api_access")
    mine = ApiAccessRequest.objects.filter(
        organisation=organisation, requested_by=_user(request), decided_at__isnull=True
    ).exists()
    context.update(
        {
            "api_access_requires_grant": settings.API_ACCESS_REQUIRES_GRANT,
            "requests": (
                ApiAccessRequest.objects.filter(
                    organisation=organisation, decided_at__isnull=True
                ).select_related("requested_by")
                if membership.can_manage
                else []
            ),
            "my_request_pending": mine,
        }
    )
    if membership.can_manage:
        events = security_events_for_organisation(
            organisation_id=organisation.pk, now=timezone.now()
        )
        context["log_page"] = Paginator(events, SECURITY_EVENTS_PER_PAGE).get_page(
            request.GET.get("page")
        )
        context["log_days"] = settings.SECURITY_LOG_DAYS
    return render(request, "integrations/organisation_api_access.html", context)


@organisation_member_required(manage=True)
@require_POST
def organisation_api_access_switch(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    enabled = request.POST.get("enabled") == "1"
    organisation_api_access_set(
        organisation=membership.organisation,
        enabled=enabled,
        by=_user(request),
        ip_address=client_address(request),
    )
    messages.success(request, f"API access {'enabled' if enabled else 'withdrawn'}.")
    return redirect("integrations:organisation_api_access", slug=membership.organisation.slug)


@organisation_member_required()
@require_POST
def organisation_api_access_ask(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    organisation = membership.organisation
    if organisation.api_access_enabled:
        messages.info(request, "This organisation has API access already.")
    else:
        api_access_request(organisation=organisation, user=_user(request))
        messages.success(
            request, "Request sent: the organisation's owners and admins have been emailed."
        )
    return redirect("integrations:organisation_api_access", slug=organisation.slug)


@organisation_member_required(manage=True)
@require_POST
def organisation_api_access_decide(
    request: HttpRequest, membership: OrganisationMembership, request_id: int
) -> HttpResponse:
    access_request = ApiAccessRequest.objects.filter(
        organisation=membership.organisation, pk=request_id
    ).first()
    if access_request is None:
        raise Http404("No such request")
    approve = request.POST.get("decision") == "approve"
    if api_access_request_decide(
        access_request=access_request,
        approve=approve,
        by=_user(request),
        ip_address=client_address(request),
    ):
        messages.success(request, "Request approved." if approve else "Request declined.")
    else:
        messages.info(request, "Someone decided this request a moment ago.")
    return redirect("integrations:organisation_api_access", slug=membership.organisation.slug)


@require_http_methods(["GET"])
def integrator_guide(request: HttpRequest) -> HttpResponse:
    """docs/integrators.md as it is in the repository (Markdown reads well as plain text)."""
    return HttpResponse(GUIDE.read_text(encoding="utf-8"), content_type="text/plain; charset=utf-8")
