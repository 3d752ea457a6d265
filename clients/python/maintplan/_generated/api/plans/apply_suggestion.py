from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.apply_body import ApplyBody
from ...models.error_envelope import ErrorEnvelope
from ...models.suggestion_apply_envelope import SuggestionApplyEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    plan_number: int,
    suggestion_id: UUID,
    *,
    body: ApplyBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/platform/plans/{plan_number}/suggestions/{suggestion_id}/apply".format(
            plan_number=quote(str(plan_number), safe=""),
            suggestion_id=quote(str(suggestion_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | SuggestionApplyEnvelope | None:
    if response.status_code == 200:
        response_200 = SuggestionApplyEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | SuggestionApplyEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    plan_number: int,
    suggestion_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ApplyBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | SuggestionApplyEnvelope]:
    """Apply an open suggestion

     Does what the web app's Apply does: assigns the chosen code (`code_id`, one of the suggestion's
    `prefill_code_ids`), creates the proposed project, plans the repair, moves the actions of a budget
    peak, or fixes a deviation (`fix`: `cost` sets the reference cost, `year` moves the action to its
    due year).

    Args:
        plan_number (int):
        suggestion_id (UUID):
        idempotency_key (str | Unset):
        body (ApplyBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SuggestionApplyEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        suggestion_id=suggestion_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    plan_number: int,
    suggestion_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ApplyBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | SuggestionApplyEnvelope | None:
    """Apply an open suggestion

     Does what the web app's Apply does: assigns the chosen code (`code_id`, one of the suggestion's
    `prefill_code_ids`), creates the proposed project, plans the repair, moves the actions of a budget
    peak, or fixes a deviation (`fix`: `cost` sets the reference cost, `year` moves the action to its
    due year).

    Args:
        plan_number (int):
        suggestion_id (UUID):
        idempotency_key (str | Unset):
        body (ApplyBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SuggestionApplyEnvelope
    """

    return sync_detailed(
        plan_number=plan_number,
        suggestion_id=suggestion_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    plan_number: int,
    suggestion_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ApplyBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | SuggestionApplyEnvelope]:
    """Apply an open suggestion

     Does what the web app's Apply does: assigns the chosen code (`code_id`, one of the suggestion's
    `prefill_code_ids`), creates the proposed project, plans the repair, moves the actions of a budget
    peak, or fixes a deviation (`fix`: `cost` sets the reference cost, `year` moves the action to its
    due year).

    Args:
        plan_number (int):
        suggestion_id (UUID):
        idempotency_key (str | Unset):
        body (ApplyBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SuggestionApplyEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        suggestion_id=suggestion_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    plan_number: int,
    suggestion_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ApplyBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | SuggestionApplyEnvelope | None:
    """Apply an open suggestion

     Does what the web app's Apply does: assigns the chosen code (`code_id`, one of the suggestion's
    `prefill_code_ids`), creates the proposed project, plans the repair, moves the actions of a budget
    peak, or fixes a deviation (`fix`: `cost` sets the reference cost, `year` moves the action to its
    due year).

    Args:
        plan_number (int):
        suggestion_id (UUID):
        idempotency_key (str | Unset):
        body (ApplyBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SuggestionApplyEnvelope
    """

    return (
        await asyncio_detailed(
            plan_number=plan_number,
            suggestion_id=suggestion_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
