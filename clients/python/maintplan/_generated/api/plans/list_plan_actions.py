import datetime
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_plan_actions_kind import ListPlanActionsKind
from ...models.list_plan_actions_status import ListPlanActionsStatus
from ...models.plan_actions_envelope import PlanActionsEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    plan_number: int,
    *,
    cursor: str | Unset = UNSET,
    kind: ListPlanActionsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListPlanActionsStatus | Unset = UNSET,
    structure_node_id: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    year_from: int | Unset = UNSET,
    year_to: int | Unset = UNSET,
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

    json_project_id: str | Unset = UNSET
    if not isinstance(project_id, Unset):
        json_project_id = str(project_id)
    params["project_id"] = json_project_id

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_structure_node_id: str | Unset = UNSET
    if not isinstance(structure_node_id, Unset):
        json_structure_node_id = str(structure_node_id)
    params["structure_node_id"] = json_structure_node_id

    json_updated_since: str | Unset = UNSET
    if not isinstance(updated_since, Unset):
        json_updated_since = updated_since.isoformat()
    params["updated_since"] = json_updated_since

    params["year_from"] = year_from

    params["year_to"] = year_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/platform/plans/{plan_number}/actions".format(
            plan_number=quote(str(plan_number), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | PlanActionsEnvelope | None:
    if response.status_code == 200:
        response_200 = PlanActionsEnvelope.from_dict(response.json())

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
) -> Response[Any | ErrorEnvelope | PlanActionsEnvelope]:
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
    kind: ListPlanActionsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListPlanActionsStatus | Unset = UNSET,
    structure_node_id: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    year_from: int | Unset = UNSET,
    year_to: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PlanActionsEnvelope]:
    """List the actions of a plan

     The plan's actions in a fixed order, paged; filters narrow them. `year_from` and `year_to` keep the
    actions that occur in those years (a recurring action in any of its occurrences).

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanActionsKind | Unset):
        limit (int | Unset):
        project_id (UUID | Unset):
        status (ListPlanActionsStatus | Unset):
        structure_node_id (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        year_from (int | Unset):
        year_to (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PlanActionsEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        cursor=cursor,
        kind=kind,
        limit=limit,
        project_id=project_id,
        status=status,
        structure_node_id=structure_node_id,
        updated_since=updated_since,
        year_from=year_from,
        year_to=year_to,
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
    kind: ListPlanActionsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListPlanActionsStatus | Unset = UNSET,
    structure_node_id: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    year_from: int | Unset = UNSET,
    year_to: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PlanActionsEnvelope | None:
    """List the actions of a plan

     The plan's actions in a fixed order, paged; filters narrow them. `year_from` and `year_to` keep the
    actions that occur in those years (a recurring action in any of its occurrences).

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanActionsKind | Unset):
        limit (int | Unset):
        project_id (UUID | Unset):
        status (ListPlanActionsStatus | Unset):
        structure_node_id (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        year_from (int | Unset):
        year_to (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PlanActionsEnvelope
    """

    return sync_detailed(
        plan_number=plan_number,
        client=client,
        cursor=cursor,
        kind=kind,
        limit=limit,
        project_id=project_id,
        status=status,
        structure_node_id=structure_node_id,
        updated_since=updated_since,
        year_from=year_from,
        year_to=year_to,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ListPlanActionsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListPlanActionsStatus | Unset = UNSET,
    structure_node_id: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    year_from: int | Unset = UNSET,
    year_to: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | PlanActionsEnvelope]:
    """List the actions of a plan

     The plan's actions in a fixed order, paged; filters narrow them. `year_from` and `year_to` keep the
    actions that occur in those years (a recurring action in any of its occurrences).

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanActionsKind | Unset):
        limit (int | Unset):
        project_id (UUID | Unset):
        status (ListPlanActionsStatus | Unset):
        structure_node_id (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        year_from (int | Unset):
        year_to (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | PlanActionsEnvelope]
    """

    kwargs = _get_kwargs(
        plan_number=plan_number,
        cursor=cursor,
        kind=kind,
        limit=limit,
        project_id=project_id,
        status=status,
        structure_node_id=structure_node_id,
        updated_since=updated_since,
        year_from=year_from,
        year_to=year_to,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    plan_number: int,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: ListPlanActionsKind | Unset = UNSET,
    limit: int | Unset = UNSET,
    project_id: UUID | Unset = UNSET,
    status: ListPlanActionsStatus | Unset = UNSET,
    structure_node_id: UUID | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    year_from: int | Unset = UNSET,
    year_to: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | ErrorEnvelope | PlanActionsEnvelope | None:
    """List the actions of a plan

     The plan's actions in a fixed order, paged; filters narrow them. `year_from` and `year_to` keep the
    actions that occur in those years (a recurring action in any of its occurrences).

    Args:
        plan_number (int):
        cursor (str | Unset):
        kind (ListPlanActionsKind | Unset):
        limit (int | Unset):
        project_id (UUID | Unset):
        status (ListPlanActionsStatus | Unset):
        structure_node_id (UUID | Unset):
        updated_since (datetime.datetime | Unset):
        year_from (int | Unset):
        year_to (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | PlanActionsEnvelope
    """

    return (
        await asyncio_detailed(
            plan_number=plan_number,
            client=client,
            cursor=cursor,
            kind=kind,
            limit=limit,
            project_id=project_id,
            status=status,
            structure_node_id=structure_node_id,
            updated_since=updated_since,
            year_from=year_from,
            year_to=year_to,
            if_none_match=if_none_match,
        )
    ).parsed
