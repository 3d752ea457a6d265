"""The official Python client of Maintplan's integrator API (clients/python/README.md)."""

from maintplan.client import ActFailed, ActResult, ApiError, Client, new_idempotency_key
from maintplan.webhooks import WebhookVerificationError, verify

__all__ = [
    "ActFailed",
    "ActResult",
    "ApiError",
    "Client",
    "WebhookVerificationError",
    "new_idempotency_key",
    "verify",
]
