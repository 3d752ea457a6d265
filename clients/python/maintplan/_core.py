"""What the sync and the async client share: the error types, the retry policy, the lists the
API has (one `ListSpec` a list) and a walk's state (its cursor, the ids it yielded, its restart
after 410). No I/O here: `maintplan.client` and `maintplan.aio` send the requests."""

from __future__ import annotations

import email.utils
import random
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from maintplan._generated.models.action import Action
from maintplan._generated.models.event import Event
from maintplan._generated.models.history_entry import HistoryEntry
from maintplan._generated.models.node import Node
from maintplan._generated.models.plan_item import PlanItem
from maintplan._generated.models.portfolio_plan import PortfolioPlan
from maintplan._generated.models.project import Project
from maintplan._generated.models.suggestion import Suggestion
from maintplan._generated.models.suggestion_with_status import SuggestionWithStatus
from maintplan._generated.models.version import Version
from maintplan._generated.models.version_action import VersionAction
from maintplan._version import VERSION

API_PREFIX = "/api/v1"
USER_AGENT = f"maintplan-python/{VERSION}"
CURSOR_EXPIRED = "pagination.cursor_expired"
ParamValue: TypeAlias = str | int | None
Params: TypeAlias = Mapping[str, ParamValue]
Headers: TypeAlias = Mapping[str, str]
T = TypeVar("T")


class ApiError(Exception):
    """An error answer: `status`, the envelope's `message_key`, `message`, `data` (field errors,
    or None), `trace_id` (quote it to support), the answer's `headers` (a case-insensitive
    mapping) and `retry_after` (seconds from its Retry-After header, or None)."""

    def __init__(
        self,
        status: int,
        message_key: str,
        message: str,
        data: Any = None,
        trace_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{status} {message_key}: {message}")
        self.status = status
        self.message_key = message_key
        self.message = message
        self.data = data
        self.trace_id = trace_id
        self.headers: Mapping[str, str] = headers if headers is not None else {}
        self.retry_after = retry_after_seconds(self.headers)


class ActFailed(Exception):
    """An act whose answer never came (a timeout, a dropped connection, after every retry): it
    may or may not have been done. Send it again with `idempotency_key`: it is done once."""

    def __init__(self, idempotency_key: str, cause: Exception) -> None:
        super().__init__(f"no answer ({cause}); retry with idempotency_key={idempotency_key!r}")
        self.idempotency_key = idempotency_key


@dataclass(frozen=True)
class ActResult:
    """The suggestion as the act left it, the key it was sent with, and whether the answer is a
    replay of an earlier request with that key (the act was done once, by the first)."""

    suggestion: SuggestionWithStatus
    idempotency_key: str
    replayed: bool


@dataclass(frozen=True)
class Acted:
    """Any act's answer: its `data` as sent, the key and whether it was a replay."""

    data: Any
    idempotency_key: str
    replayed: bool


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Retry-After in seconds (delta-seconds or an HTTP date), None when absent or unreadable."""
    value = next((v for k, v in headers.items() if k.lower() == "retry-after"), None)
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


def api_error(status: int, headers: Mapping[str, str], body: bytes) -> ApiError:
    import json

    try:
        envelope = json.loads(body)
    except ValueError:
        envelope = None
    if not isinstance(envelope, dict):
        text = body.decode("utf-8", "replace")[:200]
        return ApiError(status, "http.error", text, headers=headers)
    return ApiError(
        status,
        str(envelope.get("messageKey", "")),
        str(envelope.get("message", "")),
        envelope.get("data"),
        envelope.get("traceId"),
        headers=headers,
    )


@dataclass(frozen=True)
class RetryPolicy:
    """Which answers are sent again and how long to wait first: 429, 503 and network errors,
    at most `max_attempts` sends in all (1: never again). The wait is the answer's Retry-After
    when it has one (refused as too long past `max_retry_after`: the error is raised with its
    `retry_after`), else `base` x 2^(attempt-1) capped at `cap`, with jitter (half to all of
    it). An act is sent again with the same Idempotency-Key, so it is done at most once."""

    max_attempts: int = 4
    base: float = 0.5
    cap: float = 20.0
    max_retry_after: float = 60.0
    statuses: frozenset[int] = field(default_factory=lambda: frozenset({429, 503}))

    def backoff(self, attempt: int) -> float:
        ceiling = min(self.cap, self.base * 2 ** (attempt - 1))
        return random.uniform(ceiling / 2, ceiling)  # noqa: S311 (jitter, not a secret)

    def wait(self, attempt: int, status: int | None, headers: Mapping[str, str]) -> float | None:
        """Seconds to wait before send `attempt + 1`, or None for no further send. `status`
        None means a network error."""
        if attempt >= self.max_attempts or (status is not None and status not in self.statuses):
            return None
        retry_after = retry_after_seconds(headers) if status is not None else None
        if retry_after is None:
            return self.backoff(attempt)
        if retry_after > self.max_retry_after:
            return None
        return retry_after + random.uniform(0, min(1.0, retry_after / 10))  # noqa: S311


NO_RETRY = RetryPolicy(max_attempts=1)


def query_of(params: Params | None) -> dict[str, str]:
    """The parameters that are set, as strings, in a stable order."""
    return {name: str(value) for name, value in sorted((params or {}).items()) if value is not None}


@dataclass(frozen=True)
class ListSpec(Generic[T]):
    """One list of the API: its path (with `{plan}`, `{version}`), the page's list `key`, the
    row's model (`parse`) and the field that identifies a row (what a restarted walk skips)."""

    path: str
    key: str
    parse: Callable[[Mapping[str, Any]], T]
    id_field: str = "id"


# Every list of the schema is one line here (and a one-line method per client).
PLANS = ListSpec("/platform/plans", "plans", PlanItem.from_dict)
NODES = ListSpec("/platform/plans/{plan}/nodes", "nodes", Node.from_dict)
ACTIONS = ListSpec("/platform/plans/{plan}/actions", "actions", Action.from_dict)
PROJECTS = ListSpec("/platform/plans/{plan}/projects", "projects", Project.from_dict)
HISTORY = ListSpec("/platform/plans/{plan}/history", "entries", HistoryEntry.from_dict)
VERSIONS = ListSpec("/platform/plans/{plan}/versions", "versions", Version.from_dict)
VERSION_ACTIONS = ListSpec(
    "/platform/plans/{plan}/versions/{version}/actions",
    "actions",
    VersionAction.from_dict,
    "action_id",
)
SUGGESTIONS = ListSpec("/platform/plans/{plan}/suggestions", "suggestions", Suggestion.from_dict)
EVENTS = ListSpec("/platform/events", "events", Event.from_dict)
# An organisation's portfolio (a personal key names the organisation): plans by number.
PORTFOLIO = ListSpec("/platform/portfolio", "plans", PortfolioPlan.from_dict, "number")
# The lists a key reads without naming an organisation (the SDK's own tests walk each of them).
LISTS: tuple[ListSpec[Any], ...] = (
    PLANS,
    NODES,
    ACTIONS,
    PROJECTS,
    HISTORY,
    VERSIONS,
    VERSION_ACTIONS,
    SUGGESTIONS,
    EVENTS,
)
MAX_RESTARTS = 3


class Walk(Generic[T]):
    """A walk over every page of one list: the query of the next page, the ids already yielded,
    and the restart from the first page (skipping those ids) when a cursor expired (410)."""

    def __init__(self, spec: ListSpec[T], params: Params | None, **path: object) -> None:
        self.spec = spec
        self.path = spec.path.format(**path)
        self.start = query_of({"limit": 100, **(params or {})})
        self.query = dict(self.start)
        self.seen: set[str] = set()
        self.restarts = 0
        self.done = False

    def rows(self, data: Mapping[str, Any]) -> list[T]:
        """The page's rows not yielded yet, typed; moves on to the next page."""
        fresh = []
        for row in data[self.spec.key]:
            ident = str(row.get(self.spec.id_field))
            if ident not in self.seen:
                self.seen.add(ident)
                fresh.append(self.spec.parse(row))
        cursor = data.get("next_cursor")
        if cursor is None:
            self.done = True
        else:  # `after` (event replay) names the start; the cursor carries on from there
            self.query = {**{k: v for k, v in self.query.items() if k != "after"}}
            self.query["cursor"] = str(cursor)
        return fresh

    def restart(self, error: ApiError) -> bool:
        """Whether the walk starts again after `error` (an expired cursor, a few times)."""
        if (
            error.status != 410
            or error.message_key != CURSOR_EXPIRED
            or "cursor" not in self.query
            or self.restarts >= MAX_RESTARTS
        ):
            return False
        self.restarts += 1
        self.query = dict(self.start)
        return True
