from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.action_delete_envelope import ActionDeleteEnvelope
from ...models.error_envelope import ErrorEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    plan_number: int,
    action_id: UUID,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/platform/plans/{plan_number}/actions/{action_id}".format(
            plan_number=quote(str(plan_number), safe=""),
            action_id=quote(str(action_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ActionDeleteEnvelope | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = ActionDeleteEnvelope.from_dict(response.json())

        return response_200

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

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 411:
        response_411 = ErrorEnvelope.from_dict(response.json())

        return response_411

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorEnvelope.from_dict(response.json())

        return response_415

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
) -> Response[ActionDeleteEnvelope | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    plan_number: int,
    action_id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[ActionDeleteEnvelope | ErrorEnvelope]:
    """Delete an action

     Deletes the action and its completions (the history keeps them).

    Args:
        plan_number (int):
        action_id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActionDeleteEnvelope | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        action_id=action_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    plan_number: int,
    action_id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> ActionDeleteEnvelope | ErrorEnvelope | None:
    """Delete an action

     Deletes the action and its completions (the history keeps them).

    Args:
        plan_number (int):
        action_id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActionDeleteEnvelope | ErrorEnvelope
    """

    return sync_detailed(
        plan_number=plan_number,
        action_id=action_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    plan_number: int,
    action_id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[ActionDeleteEnvelope | ErrorEnvelope]:
    """Delete an action

     Deletes the action and its completions (the history keeps them).

    Args:
        plan_number (int):
        action_id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActionDeleteEnvelope | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        action_id=action_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    plan_number: int,
    action_id: UUID,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> ActionDeleteEnvelope | ErrorEnvelope | None:
    """Delete an action

     Deletes the action and its completions (the history keeps them).

    Args:
        plan_number (int):
        action_id (UUID):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActionDeleteEnvelope | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            plan_number=plan_number,
            action_id=action_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed
