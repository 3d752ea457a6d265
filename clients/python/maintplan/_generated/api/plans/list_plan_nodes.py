import datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_plan_nodes_kind import ListPlanNodesKind
from ...models.plan_nodes_envelope import PlanNodesEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    plan_number: int,
    *,
    cursor: str | Unset = UNSET,
    kind: ListPlanNodesKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    parent_id: UUID | Unset = UNSET,
    under: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["limit"] = limit

    json_parent_id: str | Unset = UNSET
    if not isinstance(parent_id, Unset):
        json_parent_id = str(parent_id)
    params["parent_id"] = json_parent_id

    json_under: str | Unset = UNSET
    if not isinstance(under, Unset):
        json_under = str(under)
    params["under"] = json_under

    json_updated_since: str | Unset = UNSET
    if not isinstance(updated_since, Unset):
        json_updated_since = updated_since.isoformat()
    params["updated_since"] = json_updated_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/platform/plans/{plan_number}/nodes".format(
            plan_number=quote(str(plan_number), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | PlanNodesEnvelope | None:
    if response.status_code == 200:
        response_200 = PlanNodesEnvelope.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 405:
        response_405 = ErrorEnvelope.from_dict(response.json())

        return response_405

    if response.status_code == 406:
        response_406 = ErrorEnvelope.from_dict(response.json())

        return response_406

    if response.status_code == 411:
        response_411 = ErrorEnvelope.from_dict(response.json())

        return response_411

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ErrorEnvelope.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | ErrorEnvelope | PlanNodesEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ListPlanNodesKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    parent_id: UUID | Unset = UNSET,
    under: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PlanNodesEnvelope]:
    """List the structure nodes of a plan

     The plan's nodes in a fixed order, paged; filters narrow them.

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanNodesKind | Unset):
        limit (int | Unset):
        parent_id (UUID | Unset):
        under (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PlanNodesEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        cursor=cursor,
        kind=kind,
        limit=limit,
        parent_id=parent_id,
        under=under,
        updated_since=updated_since,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ListPlanNodesKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    parent_id: UUID | Unset = UNSET,
    under: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PlanNodesEnvelope | None:
    """List the structure nodes of a plan

     The plan's nodes in a fixed order, paged; filters narrow them.

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanNodesKind | Unset):
        limit (int | Unset):
        parent_id (UUID | Unset):
        under (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PlanNodesEnvelope
    """

    return sync_detailed(
        plan_number=plan_number,
        client=client,
        cursor=cursor,
        kind=kind,
        limit=limit,
        parent_id=parent_id,
        under=under,
        updated_since=updated_since,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ListPlanNodesKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    parent_id: UUID | Unset = UNSET,
    under: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PlanNodesEnvelope]:
    """List the structure nodes of a plan

     The plan's nodes in a fixed order, paged; filters narrow them.

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanNodesKind | Unset):
        limit (int | Unset):
        parent_id (UUID | Unset):
        under (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PlanNodesEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        cursor=cursor,
        kind=kind,
        limit=limit,
        parent_id=parent_id,
        under=under,
        updated_since=updated_since,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ListPlanNodesKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    parent_id: UUID | Unset = UNSET,
    under: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PlanNodesEnvelope | None:
    """List the structure nodes of a plan

     The plan's nodes in a fixed order, paged; filters narrow them.

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanNodesKind | Unset):
        limit (int | Unset):
        parent_id (UUID | Unset):
        under (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PlanNodesEnvelope
    """

    return (
        await asyncio_detailed(
            plan_number=plan_number,
            client=client,
            cursor=cursor,
            kind=kind,
            limit=limit,
            parent_id=parent_id,
            under=under,
            updated_since=updated_since,
            if_none_match=if_none_match,
        )
    ).parsed
