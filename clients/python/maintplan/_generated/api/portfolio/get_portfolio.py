from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.portfolio_envelope import PortfolioEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    organisation: str | Unset = UNSET,
    q: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["limit"] = limit

    params["organisation"] = organisation

    params["q"] = q

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/platform/portfolio",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | PortfolioEnvelope | None:
    if response.status_code == 200:
        response_200 = PortfolioEnvelope.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | PortfolioEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    organisation: str | Unset = UNSET,
    q: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PortfolioEnvelope]:
    """Read an organisation's portfolio

     Every plan of the organisation this key may read with its ten-year planned cost, maintenance debt,
    FCI, open critical suggestions and years over budget, by number, paged, with the totals over every
    matching plan.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        organisation (str | Unset):
        q (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PortfolioEnvelope]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        organisation=organisation,
        q=q,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    organisation: str | Unset = UNSET,
    q: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PortfolioEnvelope | None:
    """Read an organisation's portfolio

     Every plan of the organisation this key may read with its ten-year planned cost, maintenance debt,
    FCI, open critical suggestions and years over budget, by number, paged, with the totals over every
    matching plan.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        organisation (str | Unset):
        q (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PortfolioEnvelope
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        limit=limit,
        organisation=organisation,
        q=q,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    organisation: str | Unset = UNSET,
    q: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PortfolioEnvelope]:
    """Read an organisation's portfolio

     Every plan of the organisation this key may read with its ten-year planned cost, maintenance debt,
    FCI, open critical suggestions and years over budget, by number, paged, with the totals over every
    matching plan.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        organisation (str | Unset):
        q (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PortfolioEnvelope]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        limit=limit,
        organisation=organisation,
        q=q,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    organisation: str | Unset = UNSET,
    q: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PortfolioEnvelope | None:
    """Read an organisation's portfolio

     Every plan of the organisation this key may read with its ten-year planned cost, maintenance debt,
    FCI, open critical suggestions and years over budget, by number, paged, with the totals over every
    matching plan.

    Args:
        cursor (str | Unset):
        limit (int | Unset):
        organisation (str | Unset):
        q (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PortfolioEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            limit=limit,
            organisation=organisation,
            q=q,
            if_none_match=if_none_match,
        )
    ).parsed
