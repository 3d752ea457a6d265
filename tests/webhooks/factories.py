from __future__ import annotations

from accounts.models import User
from planning.models import Plan
from webhooks.models import WebhookEndpoint
from webhooks.services import endpoint_create


def endpoint_for(
    user: User, url: str = "https://93.184.215.14/hooks", plans: list[Plan] | None = None
) -> tuple[WebhookEndpoint, str]:
    """An endpoint with its raw secret; the default URL is a public address (no DNS needed)."""
    return endpoint_create(user=user, url=url, plans=plans)
