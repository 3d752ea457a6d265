"""The integrator routes of a plan's record (docs/subsystems/history.md "History",
docs/subsystems/versions.md "Versions"):

- `GET /api/v1/platform/plans/{planNumber}/history`: the change history, oldest first, `since`
  and `entity` filters, pages of `limit` (default 100) with an opaque `next_cursor`;
- `GET /api/v1/platform/plans/{planNumber}/versions`: the adopted versions, newest first;
- `GET /api/v1/platform/plans/{planNumber}/versions/{versionId}/actions`: a version's actions
  (its adopted budget), paged the same way.

The same envelope, 404 rules (a plan the key may not see is `plans.not_found`), ETag with
`If-None-Match` and gzip as the suggestions list (platform_api.endpoints.suggestions). A page's
position is the last row's id, signed into the cursor with the filters it belongs to: rows
added while a client pages come after it, none repeats.
"""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key
from planning.models import (
    HistoryEntity,
    HistoryEntry,
    Plan,
    PlanVersion,
    VersionAction,
)
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
from platform_api.paging import (
    CURSOR,
    LIMIT,
    int_cursor_parse,
    limit_parse,
    next_cursor,
    page_by_pk,
)
from platform_api.params import (
    PLAN_NUMBER,
    choice_parse,
    plan_number_parse,
    query_enum,
    since_parse,
)
from platform_api.serializers import DecimalTextField, UtcDateTimeField

# --- history ----------------------------------------------------------------------------------


class HistoryActorSerializer(serializers.Serializer):
    kind = serializers.CharField(
        source="actor_kind",
        help_text="user, service, import or system (more may come: treat others as unknown).",
    )
    id = serializers.CharField(
        source="actor_id",
        help_text="The person's id, the service account's (its `principal.id`, the same "
        "through its keys' rolls), the import's; empty for the system.",
    )
    name = serializers.CharField(
        source="actor_label", help_text="An email, a service account's name, or empty."
    )


class _EntityIdField(serializers.CharField):
    """The changed row's id: its UUID, or its number for a row keyed by one; empty when the
    entry names none."""

    def to_representation(self, value: Any) -> str:
        entry: HistoryEntry = value
        key = entry.entity_uuid if entry.entity_uuid is not None else entry.entity_int
        return str(key) if key is not None else ""


class HistoryEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Grows with time; the list's order.")
    at = UtcDateTimeField(help_text="ISO 8601, UTC (Z)")
    actor = HistoryActorSerializer(source="*")
    entity = serializers.CharField(
        help_text="plan, node, action, project, grant, completion or suggestion (more may come)."
    )
    entity_id = _EntityIdField(source="*", help_text="The changed row's id.")
    entity_label = serializers.CharField(help_text="Its name or title at the time.")
    operation = serializers.CharField(help_text="create, update, delete or import.")
    changes = serializers.DictField(
        child=serializers.ListField(allow_empty=False, min_length=2, max_length=2),
        help_text="Each changed field: [before, after] (null on a side that did not exist).",
    )
    summary = serializers.CharField(help_text="An import's one line; else empty.")


class HistoryPageSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    entries = HistoryEntrySerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class PlanHistoryApi(RecordApi):
    @extend_schema(
        operation_id="listPlanHistory",
        summary="List the change history of a plan",
        description=(
            "Every change of the plan's data, oldest first: who (a person, a service account, "
            "an import, or the system for a change made outside the app), what (entity, its "
            "fields before and after). `since` keeps the entries at or after a time; `entity` "
            "one kind of entity."
        ),
        parameters=[
            PLAN_NUMBER,
            OpenApiParameter(
                "since",
                {"type": "string", "format": "date-time"},
                OpenApiParameter.QUERY,
                description="Only entries at or after this time (ISO 8601 with a time zone).",
                examples=[OpenApiExample("Since the new year", value="2026-01-01T00:00:00Z")],
            ),
            query_enum("entity", HistoryEntity.values, "Only entries of this kind of entity."),
            LIMIT,
            CURSOR,
            IF_NONE_MATCH,
        ],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanHistoryEnvelope", HistoryPageSerializer()),
                description="One page of entries.",
            ),
            304: NOT_MODIFIED,
            **error_responses(
                {400: ["validation.plan_number", "validation.query"], 404: ["plans.not_found"]}
            ),
        },
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str) -> Response:  # the spec's name
        number = plan_number_parse(planNumber)
        params = request.query_params
        errors: dict[str, list[str]] = {}
        since = since_parse(params, errors)
        entity = choice_parse(params, "entity", HistoryEntity.values, errors)
        limit = limit_parse(params, errors)
        binding = f"history|{number}|{since.isoformat() if since else ''}|{entity or ''}"
        after = int_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        entries = HistoryEntry.objects.filter(plan_id=plan.pk)
        if since is not None:
            entries = entries.filter(at__gte=since)
        if entity:
            entries = entries.filter(entity=entity)
        newest = (
            HistoryEntry.objects.filter(plan_id=plan.pk)
            .order_by("-id")
            .values_list("id", flat=True)[:1]
        )
        etag = etag_of(plan.pk, next(iter(newest), 0), binding, after, limit)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(entries, after, limit)
            return HistoryPageSerializer(
                {
                    "plan_id": plan.pk,
                    "plan_number": plan.number,
                    "entries": page,
                    "next_cursor": next_cursor(binding, page, limit, more),
                }
            ).data

        return self.answer(request, etag, build)


# --- versions ---------------------------------------------------------------------------------


class VersionSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    number = serializers.IntegerField(min_value=1, help_text="1, 2, ... within the plan.")
    name = serializers.CharField()
    decided_on = serializers.DateField()
    note = serializers.CharField(allow_blank=True)
    adopted_at = UtcDateTimeField(source="created_at", help_text="ISO 8601, UTC (Z)")
    currency = serializers.CharField()
    node_count = serializers.IntegerField(min_value=0)
    action_count = serializers.IntegerField(min_value=0)
    project_count = serializers.IntegerField(min_value=0)
    total_cost = DecimalTextField(
        max_digits=16,
        decimal_places=2,
        coerce_to_string=True,
        help_text="The planned cost of the ten years from the year of `adopted_at`, today's "
        "prices, every live occurrence (what the plan list showed for the plan then).",
    )


class VersionListSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    versions = VersionSerializer(many=True, help_text="Newest first.")
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class PlanVersionListApi(RecordApi):
    @extend_schema(
        operation_id="listPlanVersions",
        summary="List the adopted versions of a plan",
        description=(
            "The versions its board adopted, newest first, in pages as every list; a version "
            "never changes."
        ),
        parameters=[PLAN_NUMBER, LIMIT, CURSOR, IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanVersionListEnvelope", VersionListSerializer()),
                description="One page of adopted versions.",
            ),
            304: NOT_MODIFIED,
            **error_responses(
                {400: ["validation.plan_number", "validation.query"], 404: ["plans.not_found"]}
            ),
        },
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str) -> Response:
        number = plan_number_parse(planNumber)
        params = request.query_params
        errors: dict[str, list[str]] = {}
        limit = limit_parse(params, errors)
        binding = f"versions|{number}"
        before = int_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        versions = PlanVersion.objects.filter(plan=plan).order_by("-number")
        if before is not None:
            versions = versions.filter(number__lt=before)
        # Newest first by number, which a version keeps: a version adopted during a walk comes
        # before its first page, never inside it.
        found = list(versions[: limit + 1])
        page, more = found[:limit], len(found) > limit
        etag = etag_of(plan.pk, "versions", before, limit, *(str(v.pk) for v in page), more)
        cursor = next_cursor(binding, page, limit, more, key=lambda v: v.number)
        return self.answer(
            request,
            etag,
            lambda: (
                VersionListSerializer(
                    {
                        "plan_id": plan.pk,
                        "plan_number": plan.number,
                        "versions": page,
                        "next_cursor": cursor,
                    }
                ).data
            ),
        )


class VersionActionSerializer(serializers.Serializer):
    action_id = serializers.UUIDField()
    node_id = serializers.UUIDField()
    building_id = serializers.UUIDField(allow_null=True)
    title = serializers.CharField()
    kind = serializers.CharField(help_text="The action's kind (more may come).")
    planned_year = serializers.IntegerField()
    estimated_cost = DecimalTextField(
        max_digits=14, decimal_places=2, coerce_to_string=True, help_text="Today's prices."
    )
    interval_years = serializers.IntegerField(allow_null=True, help_text="Null: a one-off.")
    status = serializers.CharField(help_text="planned, done or cancelled (more may come).")
    project_id = serializers.UUIDField(allow_null=True)


class VersionActionPageSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    version_id = serializers.UUIDField()
    actions = VersionActionSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class PlanVersionActionsApi(RecordApi):
    @extend_schema(
        operation_id="listPlanVersionActions",
        summary="List the actions of an adopted version",
        description="The version's actions as adopted (its budget), in a fixed order, paged.",
        parameters=[
            PLAN_NUMBER,
            OpenApiParameter(
                "versionId",
                {"type": "string", "format": "uuid"},
                OpenApiParameter.PATH,
                description="The version's id (listPlanVersions).",
            ),
            LIMIT,
            CURSOR,
            IF_NONE_MATCH,
        ],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer(
                    "PlanVersionActionsEnvelope", VersionActionPageSerializer()
                ),
                description="One page of the version's actions.",
            ),
            304: NOT_MODIFIED,
            **error_responses(
                {
                    400: ["validation.plan_number", "validation.query"],
                    404: ["plans.not_found", "versions.not_found"],
                }
            ),
        },
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str, versionId: str) -> Response:
        number = plan_number_parse(planNumber)
        params = request.query_params
        errors: dict[str, list[str]] = {}
        limit = limit_parse(params, errors)
        binding = f"version-actions|{number}|{versionId}"
        after = int_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan: Plan = plan_for_key(api_key=key_of(request), number=number)
        try:
            version_id = uuid.UUID(versionId)
        except ValueError:
            raise ApiError("versions.not_found") from None
        version = PlanVersion.objects.filter(plan=plan, pk=version_id).first()
        if version is None:
            raise ApiError("versions.not_found")
        etag = etag_of(version.pk, after, limit)  # a version never changes

        def build() -> dict[str, Any]:
            page, more = page_by_pk(VersionAction.objects.filter(version=version), after, limit)
            return VersionActionPageSerializer(
                {
                    "plan_id": plan.pk,
                    "version_id": version.pk,
                    "actions": page,
                    "next_cursor": next_cursor(binding, page, limit, more),
                }
            ).data

        return self.answer(request, etag, build)
