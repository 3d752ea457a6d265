from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.webhook_envelope import WebhookEnvelope
from ...types import Response


def _get_kwargs(
    webhook_id: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/platform/webhooks/{webhook_id}".format(
            webhook_id=quote(str(webhook_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | WebhookEnvelope | None:
    if response.status_code == 200:
        response_200 = WebhookEnvelope.from_dict(response.json())

        return response_200

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
) -> Response[ErrorEnvelope | WebhookEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorEnvelope | WebhookEnvelope]:
    """Get a webhook endpoint

     Permission, throttling and content negotiation of every integrator operation.

    The authentication comes from the view: the app that owns the Bearer keys (integrations)
    sets ``authentication_classes`` on each of its views, since this platform layer sits below
    it and never imports it. A view that names none is refused at its first request (no silent
    anonymous route). The authentication raises on every failure, so a view never sees an
    anonymous request; the throttles count per key and per account across its keys.
    drf-spectacular reads the security scheme from ``get_authenticators()``.

    Args:
        webhook_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WebhookEnvelope]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
) -> ErrorEnvelope | WebhookEnvelope | None:
    """Get a webhook endpoint

     Permission, throttling and content negotiation of every integrator operation.

    The authentication comes from the view: the app that owns the Bearer keys (integrations)
    sets ``authentication_classes`` on each of its views, since this platform layer sits below
    it and never imports it. A view that names none is refused at its first request (no silent
    anonymous route). The authentication raises on every failure, so a view never sees an
    anonymous request; the throttles count per key and per account across its keys.
    drf-spectacular reads the security scheme from ``get_authenticators()``.

    Args:
        webhook_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WebhookEnvelope
    """

    return sync_detailed(
        webhook_id=webhook_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorEnvelope | WebhookEnvelope]:
    """Get a webhook endpoint

     Permission, throttling and content negotiation of every integrator operation.

    The authentication comes from the view: the app that owns the Bearer keys (integrations)
    sets ``authentication_classes`` on each of its views, since this platform layer sits below
    it and never imports it. A view that names none is refused at its first request (no silent
    anonymous route). The authentication raises on every failure, so a view never sees an
    anonymous request; the throttles count per key and per account across its keys.
    drf-spectacular reads the security scheme from ``get_authenticators()``.

    Args:
        webhook_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WebhookEnvelope]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: UUID,
    *,
    client: AuthenticatedClient,
) -> ErrorEnvelope | WebhookEnvelope | None:
    """Get a webhook endpoint

     Permission, throttling and content negotiation of every integrator operation.

    The authentication comes from the view: the app that owns the Bearer keys (integrations)
    sets ``authentication_classes`` on each of its views, since this platform layer sits below
    it and never imports it. A view that names none is refused at its first request (no silent
    anonymous route). The authentication raises on every failure, so a view never sees an
    anonymous request; the throttles count per key and per account across its keys.
    drf-spectacular reads the security scheme from ``get_authenticators()``.

    Args:
        webhook_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WebhookEnvelope
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            client=client,
        )
    ).parsed
