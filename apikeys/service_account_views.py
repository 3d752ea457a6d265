"""An organisation's service accounts on its integrations page (docs/subsystems/api-keys.md
"Service accounts"): a new key of one (shown once,
as every new key), and its renaming. Creating one with its first key, rolling and revoking a
key are the key views' (apikeys.views, through the organisation's KeyScope)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from api.throttling import client_address
from apikeys.forms import ApiKeyCreateForm, ServiceAccountRenameForm
from apikeys.models import ServiceAccount
from apikeys.service_accounts import service_account_rename
from apikeys.services import api_key_create
from apikeys.views import key_shown_once, organisation_scope
from organisations.access import organisation_member_required
from organisations.models import OrganisationMembership


def _service_account_get(membership: OrganisationMembership, pk: uuid.UUID) -> ServiceAccount:
    """One of the organisation's service accounts; anyone else's is a 404, as a missing one."""
    service_account = ServiceAccount.objects.filter(
        organisation=membership.organisation, pk=pk
    ).first()
    if service_account is None:
        raise Http404("No such service account")
    return service_account


@never_cache
@organisation_member_required(manage=True)
@require_http_methods(["GET", "POST"])
def organisation_service_account_key_create_page(
    request: HttpRequest, membership: OrganisationMembership, service_account_id: uuid.UUID
) -> HttpResponse:
    """A new key of a service account: the same form as a first key, shown once likewise."""
    scope = organisation_scope(request, membership)
    service_account = _service_account_get(membership, service_account_id)
    form = ApiKeyCreateForm(
        request.POST if request.method == "POST" else None,
        plans=scope.holder.plans(),
        initial={"name": service_account.name},
    )
    if request.method == "POST" and form.is_valid():
        try:
            api_key, raw_key = api_key_create(
                user=scope.creator,
                service_account=service_account,
                ip_address=client_address(request),
                **form.create_kwargs(),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return key_shown_once(scope, request, api_key, raw_key, rolled=False)
    return render(
        request,
        "integrations/api_key_create.html",
        {
            "form": form,
            "service_account": service_account,
            "form_action": request.path,
            **scope.page_context(request),
        },
    )


@organisation_member_required(manage=True)
@require_http_methods(["GET", "POST"])
def organisation_service_account_rename_page(
    request: HttpRequest, membership: OrganisationMembership, service_account_id: uuid.UUID
) -> HttpResponse:
    scope = organisation_scope(request, membership)
    service_account = _service_account_get(membership, service_account_id)
    form = ServiceAccountRenameForm(
        request.POST if request.method == "POST" else None,
        initial={"name": service_account.name},
    )
    if request.method == "POST" and form.is_valid():
        try:
            service_account_rename(service_account=service_account, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"The service account is now called “{service_account}”.")
            return redirect(scope.url("list"))
    return render(
        request,
        "integrations/service_account_rename.html",
        {"form": form, "service_account": service_account, **scope.page_context(request)},
    )
