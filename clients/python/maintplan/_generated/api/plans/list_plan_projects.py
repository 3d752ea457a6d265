import datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.plan_projects_envelope import PlanProjectsEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    plan_number: int,
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    json_updated_since: str | Unset = UNSET
    if not isinstance(updated_since, Unset):
        json_updated_since = updated_since.isoformat()
    params["updated_since"] = json_updated_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/platform/plans/{plan_number}/projects".format(
            plan_number=quote(str(plan_number), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | PlanProjectsEnvelope | None:
    if response.status_code == 200:
        response_200 = PlanProjectsEnvelope.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | PlanProjectsEnvelope]:
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
    limit: int | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PlanProjectsEnvelope]:
    """List the projects of a plan

     The plan's projects in a fixed order, paged.

    Args:
        plan_number (int):
        cursor (str | Unset):
        limit (int | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PlanProjectsEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        cursor=cursor,
        limit=limit,
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
    limit: int | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PlanProjectsEnvelope | None:
    """List the projects of a plan

     The plan's projects in a fixed order, paged.

    Args:
        plan_number (int):
        cursor (str | Unset):
        limit (int | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PlanProjectsEnvelope
    """

    return sync_detailed(
        plan_number=plan_number,
        client=client,
        cursor=cursor,
        limit=limit,
        updated_since=updated_since,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PlanProjectsEnvelope]:
    """List the projects of a plan

     The plan's projects in a fixed order, paged.

    Args:
        plan_number (int):
        cursor (str | Unset):
        limit (int | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PlanProjectsEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        cursor=cursor,
        limit=limit,
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
    limit: int | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PlanProjectsEnvelope | None:
    """List the projects of a plan

     The plan's projects in a fixed order, paged.

    Args:
        plan_number (int):
        cursor (str | Unset):
        limit (int | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PlanProjectsEnvelope
    """

    return (
        await asyncio_detailed(
            plan_number=plan_number,
            client=client,
            cursor=cursor,
            limit=limit,
            updated_since=updated_since,
            if_none_match=if_none_match,
        )
    ).parsed
