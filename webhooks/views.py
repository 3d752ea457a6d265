"""Profile > Integrations > Webhooks: endpoints, their secrets (shown once), the delivery log.

The secret page follows a redirect after the POST that created or rolled it and shows the
secret once (accounts.shown_once, as API keys).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from accounts.shown_once import (
    secret_shown_once_forget,
    secret_shown_once_redirect,
    secret_shown_once_take,
)
from organisations.access import organisation_context, organisation_member_required
from organisations.models import Organisation, OrganisationMembership
from planning.models import Plan
from webhooks.events import PendingTestEventsFull, endpoint_test_event_send
from webhooks.forms import EndpointCreateForm
from webhooks.models import DisabledReason, WebhookEndpoint
from webhooks.selectors import (
    delivery_get,
    delivery_log_page,
    endpoint_get,
    endpoint_list,
    endpoints_disabled_for_failing,
    organisation_endpoint_list,
    organisations_held_back,
    plans_visible,
)
from webhooks.services import (
    delivery_redeliver,
    endpoint_create,
    endpoint_delete,
    endpoint_disable,
    endpoint_enable,
    endpoint_secret_roll,
)


def _owner(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # every view here is login_required
    return request.user


def _endpoint(request: HttpRequest, endpoint_id: uuid.UUID) -> WebhookEndpoint:
    return endpoint_get(user=_owner(request), endpoint_id=endpoint_id)


def _show_secret_once(request: HttpRequest, endpoint: WebhookEndpoint, secret: str) -> HttpResponse:
    url = reverse("webhooks:endpoint_secret", args=[endpoint.pk])
    return secret_shown_once_redirect(request, url=url, secret=secret)


@login_required
@require_http_methods(["GET"])
def endpoint_list_page(request: HttpRequest) -> HttpResponse:
    user = _owner(request)
    return render(
        request,
        "webhooks/endpoint_list.html",
        {
            "endpoints": endpoint_list(user=user),
            "failing": endpoints_disabled_for_failing(user=user),
            "held_back": organisations_held_back(user=user),
            "create_url": reverse("webhooks:endpoint_create"),
        },
    )


@organisation_member_required(manage=True)
@require_http_methods(["GET"])
def organisation_endpoint_list_page(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    organisation = membership.organisation
    return render(
        request,
        "webhooks/endpoint_list.html",
        {
            **organisation_context(membership, "webhooks"),
            "endpoints": organisation_endpoint_list(organisation=organisation),
            "failing": organisation_endpoint_list(organisation=organisation).filter(
                disabled_reason=DisabledReason.FAILING
            ),
            "held_back": organisations_held_back(organisation=organisation),
            "create_url": reverse(
                "webhooks:organisation_endpoint_create", args=[organisation.slug]
            ),
        },
    )


def _create(
    request: HttpRequest,
    *,
    plans: QuerySet[Plan],
    organisation: Organisation | None,
    context: dict[str, Any],
) -> HttpResponse:
    form = EndpointCreateForm(request.POST if request.method == "POST" else None, plans=plans)
    if request.method == "POST" and form.is_valid():
        try:
            endpoint, secret = endpoint_create(
                user=_owner(request), organisation=organisation, **form.create_kwargs()
            )
        except ValidationError as error:
            for field, problems in error.message_dict.items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            return _show_secret_once(request, endpoint, secret)
    return render(request, "webhooks/endpoint_create.html", {"form": form, **context})


@login_required
@require_http_methods(["GET", "POST"])
def endpoint_create_page(request: HttpRequest) -> HttpResponse:
    return _create(
        request,
        plans=plans_visible(user=_owner(request)),
        organisation=None,
        context={"list_url": reverse("webhooks:endpoint_list")},
    )


@organisation_member_required(manage=True)
@require_http_methods(["GET", "POST"])
def organisation_endpoint_create_page(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    organisation = membership.organisation
    return _create(
        request,
        plans=Plan.objects.filter(organisation=organisation).order_by("number"),
        organisation=organisation,
        context={
            **organisation_context(membership, "webhooks"),
            "list_url": reverse("webhooks:organisation_endpoints", args=[organisation.slug]),
        },
    )


@login_required
@never_cache
@require_http_methods(["GET"])
def endpoint_secret_page(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    secret, _facts = secret_shown_once_take(request)
    if secret is None:
        messages.info(
            request,
            "The signing secret is shown only once. Roll the secret to get a new one.",
        )
        return secret_shown_once_forget(request, redirect("webhooks:endpoint_detail", endpoint.pk))
    response = render(
        request, "webhooks/endpoint_secret.html", {"endpoint": endpoint, "secret": secret}
    )
    return secret_shown_once_forget(request, response)


@login_required
@require_http_methods(["GET"])
def endpoint_detail_page(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    return render(
        request,
        "webhooks/endpoint_detail.html",
        {
            "endpoint": endpoint,
            "chosen_plans": endpoint.plans.order_by("number"),
            "log": delivery_log_page(endpoint=endpoint, page_number=request.GET.get("page")),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def endpoint_roll_page(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    if request.method == "POST":
        secret = endpoint_secret_roll(endpoint=endpoint)
        return _show_secret_once(request, endpoint, secret)
    return render(request, "webhooks/endpoint_roll.html", {"endpoint": endpoint})


@login_required
@require_POST
def endpoint_disable_view(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    endpoint_disable(endpoint=endpoint)
    messages.success(request, "The endpoint is disabled: it receives no events.")
    return redirect("webhooks:endpoint_detail", endpoint.pk)


@login_required
@require_POST
def endpoint_enable_view(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    try:
        endpoint_enable(endpoint=endpoint)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, "The endpoint is enabled: new events are sent to it.")
    return redirect("webhooks:endpoint_detail", endpoint.pk)


@login_required
@require_http_methods(["GET", "POST"])
def endpoint_delete_page(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    if request.method == "POST":
        endpoint_delete(endpoint=endpoint)
        messages.success(request, f"The endpoint {endpoint.url} is deleted.")
        return redirect("webhooks:endpoint_list")
    return render(request, "webhooks/endpoint_delete.html", {"endpoint": endpoint})


@login_required
@require_POST
def endpoint_test_view(request: HttpRequest, endpoint_id: uuid.UUID) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    try:
        event = endpoint_test_event_send(endpoint=endpoint)
    except PendingTestEventsFull as pending:
        messages.error(request, str(pending))
    else:
        messages.success(
            request, f"Test event {event.pk} is queued; its delivery appears in the log below."
        )
    return redirect("webhooks:endpoint_detail", endpoint.pk)


@login_required
@require_POST
def delivery_redeliver_view(
    request: HttpRequest, endpoint_id: uuid.UUID, delivery_id: int
) -> HttpResponse:
    endpoint = _endpoint(request, endpoint_id)
    delivery = delivery_get(endpoint=endpoint, delivery_id=delivery_id)
    delivery_redeliver(delivery=delivery)
    messages.success(request, f"Event {delivery.event_id} is queued to be sent again.")
    return redirect("webhooks:endpoint_detail", endpoint.pk)
