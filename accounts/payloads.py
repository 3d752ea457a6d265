"""How an account is shown in JSON answers (the web-app routes and the session check)."""

from __future__ import annotations

from typing import Any

from accounts.models import User


def user_payload(user: User) -> dict[str, Any]:
    return {"id": str(user.pk), "email": user.email, "name": user.name}
