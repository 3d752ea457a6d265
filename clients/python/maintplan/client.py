"""The hand-written layer over the generated client (`maintplan._generated`): retries with
backoff, typed paged iterators for every list (a walk whose cursor expired starts again and
skips what it yielded), conditional polls, the acts with idempotency keys and event replay.
Every call raises `ApiError` for an error answer (clients/python/README.md)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar
from urllib.parse import urlencode

import httpx

from maintplan._core import (
    ACTIONS,
    API_PREFIX,
    EVENTS,
    HISTORY,
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
    Headers,
    ListSpec,
    Params,
    ParamValue,
    RetryPolicy,
    Walk,
    api_error,
    new_idempotency_key,
    query_of,
)
from maintplan._generated import AuthenticatedClient
from maintplan._generated.models.action import Action
from maintplan._generated.models.event import Event
from maintplan._generated.models.history_entry import HistoryEntry
from maintplan._generated.models.node import Node
from maintplan._generated.models.plan_item import PlanItem
from maintplan._generated.models.portfolio_page import PortfolioPage
from maintplan._generated.models.portfolio_plan import PortfolioPlan
from maintplan._generated.models.project import Project
from maintplan._generated.models.suggestion import Suggestion
from maintplan._generated.models.suggestion_with_status import SuggestionWithStatus
from maintplan._generated.models.version import Version
from maintplan._generated.models.version_action import VersionAction

T = TypeVar("T")


def _error(response: httpx.Response) -> ApiError:
    return api_error(response.status_code, response.headers, response.content)


def _url(path: str, query: Mapping[str, str]) -> str:
    return path + ("?" + urlencode(query) if query else "")


def _timeout(seconds: float | None) -> Any:
    return httpx.USE_CLIENT_DEFAULT if seconds is None else httpx.Timeout(seconds)


def suggestion_act_path(plan: int, suggestion_id: str | uuid.UUID, act: str) -> str:
    return f"/platform/plans/{plan}/suggestions/{uuid.UUID(str(suggestion_id))}/{act}"


class Client:
    """A client of one Maintplan server with one API key:

        client = Client("https://maintplan.example", api_key)

    `retry` says what is sent again (RetryPolicy(); NO_RETRY for never); `timeout` is each
    request's default (every call takes its own `timeout=` and extra `headers=`). `api` is the
    generated client (`maintplan._generated.AuthenticatedClient`) with the same base URL, key
    and User-Agent, for the typed operations of `maintplan._generated.api`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        headers: Headers | None = None,
        httpx_args: dict[str, Any] | None = None,
    ) -> None:
        self.api = AuthenticatedClient(
            base_url=base_url.rstrip("/") + API_PREFIX,
            token=api_key,
            timeout=httpx.Timeout(timeout),
            headers={"User-Agent": USER_AGENT, **(headers or {})},
            httpx_args=httpx_args or {},
        )
        self.retry = retry or RetryPolicy()
        self._etags: dict[str, tuple[str, Any]] = {}
        self.sleep: Callable[[float], None] = time.sleep  # a test may count the waits

    @property
    def http(self) -> httpx.Client:
        return self.api.get_httpx_client()

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def send(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        body: Any = None,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> httpx.Response:
        """One request (path under /api/v1), sent again as `retry` says; the last answer."""
        attempt = 0
        while True:
            attempt += 1
            try:
                response = self.http.request(
                    method,
                    path,
                    params=params,
                    json=body,
                    headers=dict(headers or {}),
                    timeout=_timeout(timeout),
                )
            except httpx.TransportError:
                wait = self.retry.wait(attempt, None, {})
                if wait is None:
                    raise
                self.sleep(wait)
                continue
            wait = self.retry.wait(attempt, response.status_code, response.headers)
            if wait is None:
                return response
            response.close()
            self.sleep(wait)

    # Reads

    def get(
        self,
        path: str,
        params: Params | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Any:
        """The `data` of a GET of `path` (under /api/v1, e.g. "/platform/plans/1")."""
        response = self.send("GET", path, params=query_of(params), headers=headers, timeout=timeout)
        if response.status_code != 200:
            raise _error(response)
        return response.json()["data"]

    def pages(
        self,
        path: str,
        params: Params | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Every page (its `data`, untyped) of a list, following `next_cursor` with the same
        filters until it is null. `params` may hold `limit` (the page size) and the filters."""
        query = query_of(params)
        while True:
            page = self.get(path, query, headers=headers, timeout=timeout)
            yield page
            cursor = page.get("next_cursor")
            if cursor is None:
                return
            # Replay (`after`) names the start; the cursor carries on from there.
            query = {**{k: v for k, v in query.items() if k != "after"}, "cursor": cursor}

    def walk(
        self,
        spec: ListSpec[T],
        params: Params | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
        **path: object,
    ) -> Iterator[T]:
        """Every row of the list `spec` (maintplan.LISTS), typed, over all its pages (`limit`
        100 unless `params` says): a cursor that expired (410) starts the walk again, and the
        rows already yielded (by id) are not yielded twice. `path` fills the path's `{plan}`,
        `{version}`."""
        walk = Walk(spec, params, **path)
        while not walk.done:
            try:
                data = self.get(walk.path, walk.query, headers=headers, timeout=timeout)
            except ApiError as error:
                if walk.restart(error):
                    continue
                raise
            yield from walk.rows(data)

    def plans(self, **params: ParamValue) -> Iterator[PlanItem]:
        """The plans the key may read."""
        return self.walk(PLANS, params)

    def nodes(self, plan: int, **filters: ParamValue) -> Iterator[Node]:
        """A plan's structure nodes (filters: kind, parent_id, under, updated_since, limit)."""
        return self.walk(NODES, filters, plan=plan)

    def actions(self, plan: int, **filters: ParamValue) -> Iterator[Action]:
        """A plan's actions (filters: kind, status, project_id, structure_node_id, year_from,
        year_to, updated_since, limit)."""
        return self.walk(ACTIONS, filters, plan=plan)

    def projects(self, plan: int, **params: ParamValue) -> Iterator[Project]:
        """A plan's projects (filters: updated_since, limit)."""
        return self.walk(PROJECTS, params, plan=plan)

    def history(self, plan: int, **filters: ParamValue) -> Iterator[HistoryEntry]:
        """A plan's history entries (filters: entity, since, limit)."""
        return self.walk(HISTORY, filters, plan=plan)

    def versions(self, plan: int, **params: ParamValue) -> Iterator[Version]:
        """A plan's adopted versions, newest first."""
        return self.walk(VERSIONS, params, plan=plan)

    def version_actions(
        self, plan: int, version: str | uuid.UUID, **params: ParamValue
    ) -> Iterator[VersionAction]:
        """The actions of an adopted version, as adopted."""
        return self.walk(VERSION_ACTIONS, params, plan=plan, version=version)

    def suggestions(self, plan: int, **filters: ParamValue) -> Iterator[Suggestion]:
        """A plan's open suggestions (filters: severity, suggestion_type, structure_node_id)."""
        return self.walk(SUGGESTIONS, filters, plan=plan)

    def portfolio(self, **params: ParamValue) -> Iterator[PortfolioPlan]:
        """Every plan of an organisation's portfolio by number, typed (params: `organisation`, a
        slug, needed with a personal key; `q`, a part of the name; `limit`). Its years, prices
        and totals: `portfolio_page`."""
        return self.walk(PORTFOLIO, params)

    def portfolio_page(self, **params: ParamValue) -> PortfolioPage:
        """The portfolio's first page with its years, prices and the totals over every matching
        plan (per currency)."""
        return PortfolioPage.from_dict(self.get("/platform/portfolio", params))

    def events(
        self,
        *,
        after: str | None = None,
        plan: int | None = None,
        type: str | None = None,
        limit: int | None = 100,
    ) -> Iterator[Event]:
        """The events of the last 30 days the key may read, oldest first; with `after` (the id
        of the last event processed) exactly the ones after it."""
        return self.walk(EVENTS, {"after": after, "plan": plan, "type": type, "limit": limit})

    def poll(
        self,
        path: str,
        params: Params | None = None,
        *,
        keep_last: bool = False,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Any:
        """A conditional GET: the `data` when it changed since this client's last poll of the
        same path and parameters (the first poll always); on 304 Not Modified None, or with
        `keep_last=True` the data of the last poll. The ETag is kept per URL, in memory."""
        query = query_of(params)
        url = _url(path, query)
        known = self._etags.get(url)
        sent = {**(headers or {}), **({"If-None-Match": known[0]} if known else {})}
        response = self.send("GET", path, params=query, headers=sent, timeout=timeout)
        if response.status_code == 304:
            return known[1] if keep_last and known else None
        if response.status_code != 200:
            raise _error(response)
        data = response.json()["data"]
        if etag := response.headers.get("ETag"):
            self._etags[url] = (etag, data)
        return data

    # Acts

    def act(
        self,
        path: str,
        body: Any,
        *,
        idempotency_key: str | None = None,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Acted:
        """A POST of `body` to `path` with an Idempotency-Key (a new UUID when None), the same
        key on every retry: done at most once. Raises ActFailed when no answer came."""
        key = idempotency_key or new_idempotency_key()
        sent = {**(headers or {}), "Idempotency-Key": key}
        try:
            response = self.send("POST", path, body=body, headers=sent, timeout=timeout)
        except httpx.TransportError as error:
            raise ActFailed(key, error) from error
        if response.status_code not in (200, 201):
            raise _error(response)
        replayed = response.headers.get("Idempotent-Replayed", "").lower() == "true"
        return Acted(response.json()["data"], key, replayed)

    def dismiss(
        self,
        plan: int,
        suggestion_id: str | uuid.UUID,
        reason: str,
        comment: str = "",
        idempotency_key: str | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> ActResult:
        """Dismisses an open suggestion (`reason`: not_applicable, accepted, planned_elsewhere,
        false_positive). The same key again within 24 hours acts no second time."""
        acted = self.act(
            suggestion_act_path(plan, suggestion_id, "dismiss"),
            {"reason": reason, "comment": comment},
            idempotency_key=idempotency_key,
            headers=headers,
            timeout=timeout,
        )
        return _act_result(acted)

    def restore(
        self,
        plan: int,
        suggestion_id: str | uuid.UUID,
        idempotency_key: str | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> ActResult:
        """Puts a dismissed suggestion back to open; idempotent like `dismiss`."""
        acted = self.act(
            suggestion_act_path(plan, suggestion_id, "restore"),
            {},
            idempotency_key=idempotency_key,
            headers=headers,
            timeout=timeout,
        )
        return _act_result(acted)


def _act_result(acted: Acted) -> ActResult:
    suggestion = SuggestionWithStatus.from_dict(acted.data)
    return ActResult(suggestion, acted.idempotency_key, acted.replayed)
