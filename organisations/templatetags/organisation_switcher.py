"""`{% organisation_switcher %}`: the top bar's choice of organisation (a GET form to the plan
list, so it works without JavaScript)."""

from __future__ import annotations

from typing import Any

from django import template

from organisations.current import current_membership, user_memberships

register = template.Library()


@register.inclusion_tag("organisations/_switcher.html", takes_context=True)
def organisation_switcher(context: Any) -> dict[str, Any]:
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return {"memberships": []}
    current = current_membership(request)
    return {
        "memberships": user_memberships(request),
        "current": current.organisation.slug if current else "",
    }
