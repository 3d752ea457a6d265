"""The per-account limit on invitations (a form whose answers could otherwise be harvested or
used to send mail in bulk): MAINTPLAN_THROTTLE_RATES["member_add"], shared with the plan's
guest form."""

from __future__ import annotations

import math

from django.http import HttpRequest

from api.throttling import UserThrottle


class InviteThrottle(UserThrottle):
    scope = "member_add"


def invite_wait_minutes(request: HttpRequest) -> int | None:
    """None when this invitation may be sent now; else the minutes to wait (and it counts)."""
    throttle = InviteThrottle()
    if throttle.allow_request(request, None):  # type: ignore[arg-type]
        return None
    return max(1, math.ceil((throttle.wait() or 60) / 60))


def too_many_invitations(minutes: int) -> str:
    return f"Too many invitations sent. Try again in {minutes} minutes."
