"""The async client: the same calls as `maintplan.Client`, awaited (`async for` over the
iterators), with the same retries, walks and acts, over httpx's AsyncClient."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any, TypeVar

import httpx

from maintplan._core import (
    ACTIONS,
    API_PREFIX,
    EVENTS,
    HISTORY,
    NODES,
    PLANS,
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
from maintplan._generated.models.project import Project
from maintplan._generated.models.suggestion import Suggestion
from maintplan._generated.models.suggestion_with_status import SuggestionWithStatus
from maintplan._generated.models.version import Version
from maintplan._generated.models.version_action import VersionAction
from maintplan.client import _timeout, _url, suggestion_act_path

T = TypeVar("T")


class AsyncClient:
    """`async with AsyncClient("https://maintplan.example", api_key) as client: ...`; the same
    options as `maintplan.Client`."""

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
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    @property
    def http(self) -> httpx.AsyncClient:
        return self.api.get_async_httpx_client()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def send(
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
                response = await self.http.request(
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
                await self.sleep(wait)
                continue
            wait = self.retry.wait(attempt, response.status_code, response.headers)
            if wait is None:
                return response
            await response.aclose()
            await self.sleep(wait)

    async def get(
        self,
        path: str,
        params: Params | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Any:
        """The `data` of a GET of `path` (under /api/v1)."""
        response = await self.send(
            "GET", path, params=query_of(params), headers=headers, timeout=timeout
        )
        if response.status_code != 200:
            raise api_error(response.status_code, response.headers, response.content)
        return response.json()["data"]

    async def walk(
        self,
        spec: ListSpec[T],
        params: Params | None = None,
        *,
        headers: Headers | None = None,
        timeout: float | None = None,
        **path: object,
    ) -> AsyncIterator[T]:
        """Every row of the list `spec`, typed, as `Client.walk` (410 restarts, no row twice)."""
        walk = Walk(spec, params, **path)
        while not walk.done:
            try:
                data = await self.get(walk.path, walk.query, headers=headers, timeout=timeout)
            except ApiError as error:
                if walk.restart(error):
                    continue
                raise
            for row in walk.rows(data):
                yield row

    def plans(self, **params: ParamValue) -> AsyncIterator[PlanItem]:
        return self.walk(PLANS, params)

    def nodes(self, plan: int, **filters: ParamValue) -> AsyncIterator[Node]:
        return self.walk(NODES, filters, plan=plan)

    def actions(self, plan: int, **filters: ParamValue) -> AsyncIterator[Action]:
        return self.walk(ACTIONS, filters, plan=plan)

    def projects(self, plan: int, **params: ParamValue) -> AsyncIterator[Project]:
        return self.walk(PROJECTS, params, plan=plan)

    def history(self, plan: int, **filters: ParamValue) -> AsyncIterator[HistoryEntry]:
        return self.walk(HISTORY, filters, plan=plan)

    def versions(self, plan: int, **params: ParamValue) -> AsyncIterator[Version]:
        return self.walk(VERSIONS, params, plan=plan)

    def version_actions(
        self, plan: int, version: str | uuid.UUID, **params: ParamValue
    ) -> AsyncIterator[VersionAction]:
        return self.walk(VERSION_ACTIONS, params, plan=plan, version=version)

    def suggestions(self, plan: int, **filters: ParamValue) -> AsyncIterator[Suggestion]:
        return self.walk(SUGGESTIONS, filters, plan=plan)

    def events(
        self,
        *,
        after: str | None = None,
        plan: int | None = None,
        type: str | None = None,
        limit: int | None = 100,
    ) -> AsyncIterator[Event]:
        return self.walk(EVENTS, {"after": after, "plan": plan, "type": type, "limit": limit})

    async def poll(
        self,
        path: str,
        params: Params | None = None,
        *,
        keep_last: bool = False,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Any:
        """As `Client.poll`: None on 304, or the last data with `keep_last=True`."""
        query = query_of(params)
        url = _url(path, query)
        known = self._etags.get(url)
        sent = {**(headers or {}), **({"If-None-Match": known[0]} if known else {})}
        response = await self.send("GET", path, params=query, headers=sent, timeout=timeout)
        if response.status_code == 304:
            return known[1] if keep_last and known else None
        if response.status_code != 200:
            raise api_error(response.status_code, response.headers, response.content)
        data = response.json()["data"]
        if etag := response.headers.get("ETag"):
            self._etags[url] = (etag, data)
        return data

    async def act(
        self,
        path: str,
        body: Any,
        *,
        idempotency_key: str | None = None,
        headers: Headers | None = None,
        timeout: float | None = None,
    ) -> Acted:
        """As `Client.act`: one Idempotency-Key on every retry."""
        key = idempotency_key or new_idempotency_key()
        sent = {**(headers or {}), "Idempotency-Key": key}
        try:
            response = await self.send("POST", path, body=body, headers=sent, timeout=timeout)
        except httpx.TransportError as error:
            raise ActFailed(key, error) from error
        if response.status_code not in (200, 201):
            raise api_error(response.status_code, response.headers, response.content)
        replayed = response.headers.get("Idempotent-Replayed", "").lower() == "true"
        return Acted(response.json()["data"], key, replayed)

    async def dismiss(
        self,
        plan: int,
        suggestion_id: str | uuid.UUID,
        reason: str,
        comment: str = "",
        idempotency_key: str | None = None,
    ) -> ActResult:
        path = suggestion_act_path(plan, suggestion_id, "dismiss")
        acted = await self.act(
            path, {"reason": reason, "comment": comment}, idempotency_key=idempotency_key
        )
        suggestion = SuggestionWithStatus.from_dict(acted.data)
        return ActResult(suggestion, acted.idempotency_key, acted.replayed)

    async def restore(
        self, plan: int, suggestion_id: str | uuid.UUID, idempotency_key: str | None = None
    ) -> ActResult:
        path = suggestion_act_path(plan, suggestion_id, "restore")
        acted = await self.act(path, {}, idempotency_key=idempotency_key)
        suggestion = SuggestionWithStatus.from_dict(acted.data)
        return ActResult(suggestion, acted.idempotency_key, acted.replayed)
