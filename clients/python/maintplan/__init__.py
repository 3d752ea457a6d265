"""The official Python client of Maintplan's integrator API (clients/python/README.md)."""

from maintplan._core import (
    ACTIONS,
    EVENTS,
    HISTORY,
    LISTS,
    NO_RETRY,
    NODES,
    PLANS,
    PORTFOLIO,
    PROJECTS,
    SUGGESTIONS,
    USER_AGENT,
    VERSION_ACTIONS,
    VERSIONS,
    Acted,
    ActFailed,
    ActResult,
    ApiError,
    ListSpec,
    RetryPolicy,
    new_idempotency_key,
)
from maintplan._version import VERSION
from maintplan.aio import AsyncClient
from maintplan.client import Client
from maintplan.webhooks import WebhookVerificationError, verify

__version__ = VERSION
__all__ = [
    "ACTIONS",
    "EVENTS",
    "HISTORY",
    "LISTS",
    "NODES",
    "NO_RETRY",
    "PLANS",
    "PORTFOLIO",
    "PROJECTS",
    "SUGGESTIONS",
    "USER_AGENT",
    "VERSIONS",
    "VERSION_ACTIONS",
    "ActFailed",
    "ActResult",
    "Acted",
    "ApiError",
    "AsyncClient",
    "Client",
    "ListSpec",
    "RetryPolicy",
    "WebhookVerificationError",
    "__version__",
    "new_idempotency_key",
    "verify",
]
