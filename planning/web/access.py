"""Access to a plan's pages, shared by every view module of planning.web.views.

Access: every page under /plans/<number>/ starts with `plan_access_get`, so a plan the user
may not see (not a member of its organisation, no grant) answers 404 exactly like a missing one,
for GET and POST alike. Someone who may see but not change the plan (a viewer; an editor on the
guests page or deleting the plan) gets 403 on a POST: the plan's existence is no secret to them,
and 403 says plainly that the change was refused. Rights: docs/subsystems/organisations.md.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.models import User
from planning.models import Plan
from planning.plans import selectors

PlanView = Callable[..., HttpResponseBase]


def plan_member_required(
    *, edit: bool = False, owner: bool = False
) -> Callable[[PlanView], PlanView]:
    """Resolves `number` to the user's PlanAccess (404 for anyone who may not see the plan) and
    refuses a POST without the needed rights with 403 (`owner`: the plan's owners, its
    organisation's owners and admins). The view receives the access as `membership`. It checks
    access and nothing else: what a change sets off (the version, the sync) is the services'
    job (planning.core.writes)."""

    def decorate(view: PlanView) -> PlanView:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, number: int, **kwargs: Any) -> HttpResponseBase:
            membership = selectors.plan_access_get(user=request.user, number=number)
            if request.method == "POST":
                if owner and not membership.can_manage:
                    raise PermissionDenied("Only an owner of this plan can do this.")
                if edit and not membership.can_edit:
                    raise PermissionDenied("You can view this plan but not change it.")
            return view(request, membership, **kwargs)

        return wrapped

    return decorate


def json_error(message: str, *, status: int, errors: dict[str, Any] | None = None) -> JsonResponse:
    """The one error shape of the pages' JSON endpoints (survey mode): a sentence for the person,
    and the fields' messages when a form refused the input."""
    return JsonResponse({"message": message, "errors": errors or {}}, status=status)


def plan_member_required_json(*, edit: bool = False) -> Callable[[PlanView], PlanView]:
    """`plan_member_required` for the JSON endpoints of a page: the same access rule
    (`plan_access_get`), answered in JSON a script can show: 401 when signed out (the script
    keeps what waits and asks to sign in), 404 for a plan one may not see, 403 on a POST a
    viewer may not make."""

    def decorate(view: PlanView) -> PlanView:
        @wraps(view)
        def wrapped(request: HttpRequest, number: int, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return json_error("Sign in again to send this.", status=401)
            try:
                membership = selectors.plan_access_get(user=request.user, number=number)
            except Http404:
                return json_error("No such plan.", status=404)
            if request.method == "POST" and edit and not membership.can_edit:
                return json_error(
                    "You can view this plan but not change it: ask an owner to make you an "
                    "editor to record a survey.",
                    status=403,
                )
            return view(request, membership, **kwargs)

        return wrapped

    return decorate


def request_user(request: HttpRequest) -> User:
    """The logged-in user of a view behind login_required."""
    assert isinstance(request.user, User)
    return request.user


def _with_query(url: str, params: dict[str, Any]) -> str:
    query = {key: value for key, value in params.items() if value not in (None, "")}
    return f"{url}?{urlencode(query)}" if query else url


def plan_url(plan: Plan, **params: Any) -> str:
    """The plan page (its Structure tab)."""
    return _with_query(reverse("planning:plan_detail", args=[plan.number]), params)


def actions_url(plan: Plan, **params: Any) -> str:
    """The plan's Actions tab, filtered by `params` (planning.web.forms.actions.ActionFilterForm's
    names; empty ones left out)."""
    return _with_query(reverse("planning:plan_actions", args=[plan.number]), params)


def next_url(request: HttpRequest, plan: Plan, default: str) -> str:
    """Where a form's POST returns to: its `next` field when that is a page of this plan on
    this site (the user stays on the filters, page and card they were on), else `default`."""
    target = request.POST.get("next", "")
    plan_root = reverse("planning:plan_detail", args=[plan.number])
    if (
        target.startswith(plan_root)
        and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()})
        and "\\" not in target
    ):
        return target
    return default
