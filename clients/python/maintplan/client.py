"""The hand-written layer over the generated client (`maintplan._generated`): pages, conditional
polls, the acts with idempotency keys and event replay. Every call raises `ApiError` for an
error answer (the envelope's `messageKey` in `message_key`)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias
from urllib.parse import urlencode

import httpx

from maintplan._generated import AuthenticatedClient
from maintplan._generated.api.plans import dismiss_suggestion, restore_suggestion
from maintplan._generated.models.dismiss_body import DismissBody
from maintplan._generated.models.error_envelope import ErrorEnvelope
from maintplan._generated.models.event import Event
from maintplan._generated.models.portfolio_page import PortfolioPage
from maintplan._generated.models.portfolio_plan import PortfolioPlan
from maintplan._generated.models.reason_enum import ReasonEnum
from maintplan._generated.models.restore_suggestion_body import RestoreSuggestionBody
from maintplan._generated.models.suggestion import Suggestion
from maintplan._generated.models.suggestion_with_status import SuggestionWithStatus
from maintplan._generated.types import Response

API_PREFIX = "/api/v1"
ParamValue: TypeAlias = str | int | None
Params: TypeAlias = Mapping[str, ParamValue]


class ApiError(Exception):
    """An error answer: `status`, the envelope's `message_key`, `message`, `data` (field errors,
    or None) and `trace_id` (quote it to support)."""

    def __init__(
        self,
        status: int,
        message_key: str,
        message: str,
        data: Any = None,
        trace_id: str | None = None,
    ) -> None:
        super().__init__(f"{status} {message_key}: {message}")
        self.status = status
        self.message_key = message_key
        self.message = message
        self.data = data
        self.trace_id = trace_id


class ActFailed(Exception):
    """An act whose answer never came (a timeout, a dropped connection): it may or may not have
    been done. Send it again with `idempotency_key`: it is done at most once."""

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


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


def _error(response: httpx.Response) -> ApiError:
    try:
        envelope = response.json()
    except ValueError:
        envelope = None
    if not isinstance(envelope, dict):
        return ApiError(response.status_code, "http.error", response.text[:200])
    return ApiError(
        response.status_code,
        str(envelope.get("messageKey", "")),
        str(envelope.get("message", "")),
        envelope.get("data"),
        envelope.get("traceId"),
    )


def _query(params: Params | None) -> dict[str, str]:
    """The parameters that are set, as strings, in a stable order."""
    return {name: str(value) for name, value in sorted((params or {}).items()) if value is not None}


def _items_of(page: Mapping[str, Any], key: str | None) -> list[Any]:
    if key is not None:
        items: list[Any] = page[key]
        return items
    lists = [value for value in page.values() if isinstance(value, list)]
    if len(lists) != 1:
        raise ValueError("this page has no single list: name it with key=")
    return lists[0]


class Client:
    """A client of one Maintplan server with one API key:

        client = Client("https://maintplan.example", api_key)

    `api` is the generated client (`maintplan._generated.AuthenticatedClient`) with the same
    base URL and key, for the typed operations of `maintplan._generated.api`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        httpx_args: dict[str, Any] | None = None,
    ) -> None:
        self.api = AuthenticatedClient(
            base_url=base_url.rstrip("/") + API_PREFIX,
            token=api_key,
            timeout=httpx.Timeout(timeout),
            httpx_args=httpx_args or {},
        )
        self._etags: dict[str, tuple[str, dict[str, Any]]] = {}

    @property
    def http(self) -> httpx.Client:
        return self.api.get_httpx_client()

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # Reads

    def get(self, path: str, params: Params | None = None) -> dict[str, Any]:
        """The `data` of a GET of `path` (under /api/v1, e.g. "/platform/plans/1")."""
        response = self.http.get(path, params=_query(params))
        if response.status_code != 200:
            raise _error(response)
        data: dict[str, Any] = response.json()["data"]
        return data

    def pages(self, path: str, params: Params | None = None) -> Iterator[dict[str, Any]]:
        """Every page (its `data`) of a list, following `next_cursor` with the same filters
        until it is null. `params` may hold `limit` (the page size) and the list's filters."""
        query = _query(params)
        while True:
            page = self.get(path, query)
            yield page
            cursor = page.get("next_cursor")
            if cursor is None:
                return
            # Replay (`after`) names the start; the cursor carries on from there (and the
            # server refuses both together).
            query = {**{k: v for k, v in query.items() if k != "after"}, "cursor": cursor}

    def items(
        self, path: str, params: Params | None = None, *, key: str | None = None
    ) -> Iterator[dict[str, Any]]:
        """Every item of a list over all its pages: the page's list `key` (by default its only
        list, e.g. "suggestions", "events", "entries")."""
        for page in self.pages(path, params):
            yield from _items_of(page, key)

    def suggestions(
        self, plan: int, *, limit: int | None = 100, **filters: ParamValue
    ) -> Iterator[Suggestion]:
        """A plan's open suggestions (filters: severity, suggestion_type, structure_node_id),
        every page, as the generated `Suggestion` model."""
        path = f"/platform/plans/{plan}/suggestions"
        for item in self.items(path, {**filters, "limit": limit}, key="suggestions"):
            yield Suggestion.from_dict(item)

    def events(
        self,
        *,
        after: str | None = None,
        plan: int | None = None,
        type: str | None = None,
        limit: int | None = 100,
    ) -> Iterator[Event]:
        """The events of the last 30 days the key may read, oldest first, every page; with
        `after` (the id of the last event processed) exactly the ones after it."""
        params: dict[str, ParamValue] = {"after": after, "plan": plan, "type": type}
        for item in self.items("/platform/events", {**params, "limit": limit}, key="events"):
            yield Event.from_dict(item)

    def portfolio(
        self,
        *,
        organisation: str | None = None,
        q: str | None = None,
        limit: int | None = 100,
    ) -> Iterator[PortfolioPlan]:
        """Every plan of an organisation's portfolio (its ten-year planned cost, maintenance
        debt, FCI, open critical suggestions, years over budget), by number, every page, as the
        generated `PortfolioPlan` model. `organisation` (a slug) is required with a personal
        key; `q` keeps the plans whose name contains it. Its totals: `portfolio_page`."""
        params: dict[str, ParamValue] = {"organisation": organisation, "q": q, "limit": limit}
        for item in self.items("/platform/portfolio", params, key="plans"):
            yield PortfolioPlan.from_dict(item)

    def portfolio_page(
        self, *, organisation: str | None = None, q: str | None = None, limit: int | None = 100
    ) -> PortfolioPage:
        """The first page of the portfolio with its years, prices and the totals over every
        matching plan (per currency), as the generated `PortfolioPage` model."""
        params = {"organisation": organisation, "q": q, "limit": limit}
        return PortfolioPage.from_dict(self.get("/platform/portfolio", params))

    def poll(self, path: str, params: Params | None = None) -> dict[str, Any] | None:
        """A conditional GET: the `data` when it changed since this client's last poll of the
        same path and parameters (the first poll always), None when the server answered
        304 Not Modified. The ETag is kept per URL, in memory."""
        query = _query(params)
        url = path + ("?" + urlencode(query) if query else "")
        known = self._etags.get(url)
        headers = {"If-None-Match": known[0]} if known else {}
        response = self.http.get(path, params=query, headers=headers)
        if response.status_code == 304:
            return None
        if response.status_code != 200:
            raise _error(response)
        data: dict[str, Any] = response.json()["data"]
        if etag := response.headers.get("ETag"):
            self._etags[url] = (etag, data)
        return data

    # Acts

    def dismiss(
        self,
        plan: int,
        suggestion_id: str | uuid.UUID,
        reason: str,
        comment: str = "",
        idempotency_key: str | None = None,
    ) -> ActResult:
        """Dismisses an open suggestion (`reason`: not_applicable, accepted, planned_elsewhere,
        false_positive). Sent with `idempotency_key` (a new UUID when None; the result
        carries it): the same key again within 24 hours acts no second time."""
        key = idempotency_key or new_idempotency_key()
        body = DismissBody(reason=ReasonEnum(reason), comment=comment)
        try:
            response = dismiss_suggestion.sync_detailed(
                plan, uuid.UUID(str(suggestion_id)), client=self.api, body=body, idempotency_key=key
            )
        except httpx.TransportError as error:
            raise ActFailed(key, error) from error
        return self._act_result(response, key)

    def restore(
        self, plan: int, suggestion_id: str | uuid.UUID, idempotency_key: str | None = None
    ) -> ActResult:
        """Puts a dismissed suggestion back to open; idempotent like `dismiss`."""
        key = idempotency_key or new_idempotency_key()
        try:
            response = restore_suggestion.sync_detailed(
                plan,
                uuid.UUID(str(suggestion_id)),
                client=self.api,
                body=RestoreSuggestionBody(),
                idempotency_key=key,
            )
        except httpx.TransportError as error:
            raise ActFailed(key, error) from error
        return self._act_result(response, key)

    @staticmethod
    def _act_result(response: Response[Any], key: str) -> ActResult:
        parsed = response.parsed
        if response.status_code != 200 or isinstance(parsed, ErrorEnvelope) or parsed is None:
            raise _error(httpx.Response(response.status_code, content=response.content)) from None
        replayed = response.headers.get("Idempotent-Replayed", "").lower() == "true"
        suggestion: SuggestionWithStatus = parsed.data
        return ActResult(suggestion=suggestion, idempotency_key=key, replayed=replayed)
