"""Where a POST of the action-planning page sends the user, and the message they find there
(docs/subsystems/web-app.md). The confirmation is shown where the user lands, not at the top of
the page: `confirmation_redirect` keeps the anchor's card in the session (`CONFIRMATION_NEAR`)
and sends the browser to `#confirmation`, which the page renders right above that card (or
above the list when the card is gone: planning.web.views.action_planning reads it). A fix and a
dismissal carry an Undo, as Mark done does (base.html reads the session's `undo`)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from planning.models import Plan
from planning.web.access import next_url

CONFIRMATION_NEAR = "planning_confirmation_near"


def _planning_url(plan: Plan) -> str:
    return reverse("planning:action_planning", args=[plan.number])


def confirmation_redirect(
    request: HttpRequest,
    plan: Plan,
    text: str,
    *,
    error: bool = False,
    default: str | None = None,
    near: str | None = None,
    undo: str | None = None,
    undo_before: Any = None,
) -> HttpResponse:
    """Redirects to `next` (else `default`, else the planning page) with `text` shown where the
    user lands: on the planning page above the card of `next`'s anchor (or `near`, a card's
    anchor), reached as `#confirmation`; on any other page at the top. `undo`: the address of
    the Undo button the message carries, which returns to the same page; `undo_before` is kept
    for it (a fix's replaced value)."""
    target = next_url(request, plan, default or _planning_url(plan))
    page, _, anchor = target.partition("#")
    if page.split("?")[0] == _planning_url(plan) and (near or anchor):
        request.session[CONFIRMATION_NEAR] = near or anchor
        target = f"{page}#confirmation"
    if undo is not None:
        request.session["undo"] = {"url": undo, "next": page, "before": undo_before}
    if error:
        messages.error(request, text)
    else:
        messages.success(request, text, extra_tags="undo" if undo else "")
    return redirect(target)
