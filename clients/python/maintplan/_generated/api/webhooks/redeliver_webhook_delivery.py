from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.redeliver_webhook_delivery_body import RedeliverWebhookDeliveryBody
from ...models.webhook_redeliver_envelope import WebhookRedeliverEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: UUID,
    delivery_id: int,
    *,
    body: RedeliverWebhookDeliveryBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/platform/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver".format(
            webhook_id=quote(str(webhook_id), safe=""),
            delivery_id=quote(str(delivery_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | WebhookRedeliverEnvelope | None:
    if response.status_code == 200:
        response_200 = WebhookRedeliverEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | WebhookRedeliverEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: UUID,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
    body: RedeliverWebhookDeliveryBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | WebhookRedeliverEnvelope]:
    """Send a delivery's event again

     The same event (same id) again now, as the delivery's next attempt, as the page's Redeliver.

    Args:
        webhook_id (UUID):
        delivery_id (int):
        idempotency_key (str | Unset):
        body (RedeliverWebhookDeliveryBody | Unset): An empty object; a missing body counts as {}.
            Example: {}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WebhookRedeliverEnvelope]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: UUID,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
    body: RedeliverWebhookDeliveryBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | WebhookRedeliverEnvelope | None:
    """Send a delivery's event again

     The same event (same id) again now, as the delivery's next attempt, as the page's Redeliver.

    Args:
        webhook_id (UUID):
        delivery_id (int):
        idempotency_key (str | Unset):
        body (RedeliverWebhookDeliveryBody | Unset): An empty object; a missing body counts as {}.
            Example: {}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WebhookRedeliverEnvelope
    """

    return sync_detailed(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
    body: RedeliverWebhookDeliveryBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorEnvelope | WebhookRedeliverEnvelope]:
    """Send a delivery's event again

     The same event (same id) again now, as the delivery's next attempt, as the page's Redeliver.

    Args:
        webhook_id (UUID):
        delivery_id (int):
        idempotency_key (str | Unset):
        body (RedeliverWebhookDeliveryBody | Unset): An empty object; a missing body counts as {}.
            Example: {}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WebhookRedeliverEnvelope]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    delivery_id: int,
    *,
    client: AuthenticatedClient,
    body: RedeliverWebhookDeliveryBody | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorEnvelope | WebhookRedeliverEnvelope | None:
    """Send a delivery's event again

     The same event (same id) again now, as the delivery's next attempt, as the page's Redeliver.

    Args:
        webhook_id (UUID):
        delivery_id (int):
        idempotency_key (str | Unset):
        body (RedeliverWebhookDeliveryBody | Unset): An empty object; a missing body counts as {}.
            Example: {}.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WebhookRedeliverEnvelope
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            delivery_id=delivery_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
