"""`GET /api/v1/platform/events`: the events of the last 30 days of the plans a key may read,
with the ids and bodies their webhook deliveries carry (docs/subsystems/integrator-api.md
"Events API").

Oldest first, by the events' `sequence` (the order they became visible), so a client walks
forwards: `after=<the last id it processed>` replays exactly what came later, and a client
without a public URL polls the same way instead of receiving. Pages, ETag, gzip, the envelope
and the 404 rules are the other platform lists' (platform_api.base, .paging); every key may read.
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from django.db.models import QuerySet
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key, plans_readable_for_key
from planning.models import MAX_PLAN_NUMBER, Plan
from planning.suggestions.events import SuggestionChange
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
from platform_api.paging import CURSOR, LIMIT, int_cursor_parse, limit_parse, next_cursor
from platform_api.params import choice_parse, plan_number_parse, query_enum
from platform_api.serializers import SuggestionWithStatusSerializer
from webhooks.events import BULK_REASON_FIRST_SYNC
from webhooks.models import (
    EVENT_TYPE_SUGGESTIONS_BULK_CHANGED,
    EVENT_TYPE_SUGGESTIONS_CHANGED,
    PLAN_DATA_EVENT_TYPES,
)
from webhooks.selectors import event_position, events_page
from webhooks.services import EVENTS_KEEP, events_sequence

# The types this list holds (a test event belongs to no plan and is never listed).
LISTED_EVENT_TYPES = [
    EVENT_TYPE_SUGGESTIONS_CHANGED,
    EVENT_TYPE_SUGGESTIONS_BULK_CHANGED,
    *PLAN_DATA_EVENT_TYPES,
]
_EVENT_ID = re.compile(r"evt_[0-9A-Za-z]{1,36}")
_NOT_AN_EVENT = "Not an event id (evt_ followed by letters and digits)."


def _plan_filter(raw: str | None, errors: dict[str, list[str]]) -> int | None:
    if raw is None:
        return None
    try:
        return plan_number_parse(raw)
    except ApiError:
        errors["plan"] = [f"A plan number from 1 to {MAX_PLAN_NUMBER}."]
        return None


def _event_id(raw: str | None, errors: dict[str, list[str]]) -> str | None:
    if raw is not None and not _EVENT_ID.fullmatch(raw):
        errors["after"] = [_NOT_AN_EVENT]
        return None
    return raw


# --- schema -------------------------------------------------------------------------------------


class EventChangeSerializer(serializers.Serializer):
    """What happened to a suggestion (`change`), and the suggestion after it."""

    change = serializers.ChoiceField(choices=SuggestionChange.choices)
    suggestion = SuggestionWithStatusSerializer(help_text="The suggestion after the change.")


class EventActorSerializer(serializers.Serializer):
    kind = serializers.CharField(
        help_text="user, service, import or system, as the history's `actor.kind`."
    )
    id = serializers.CharField(
        help_text="The person's id, the service account's (its `principal.id`), the import's; "
        "empty for the system."
    )
    name = serializers.CharField(help_text="As the history's `actor.name`; empty for the system.")


class SuggestionsChangedDataSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    actor = EventActorSerializer(
        required=False,
        help_text="Who made the changes, as the history names them (absent from events "
        "written before it existed).",
    )
    changes = EventChangeSerializer(many=True, help_text="At most 100, in the order they happened.")


class SuggestionsBulkChangedDataSerializer(serializers.Serializer):
    """`suggestions.bulk_changed`: many suggestions changed at once and are not listed one by
    one (a plan's first sync); read the plan's suggestion list for them."""

    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    actor = EventActorSerializer(help_text="Who made the changes (`system` for the sync).")
    reason = serializers.CharField(
        help_text=f"Why the changes are summed up: `{BULK_REASON_FIRST_SYNC}`, the plan's "
        "suggestions derived for the first time (after an import, a generated or new plan). "
        "More reasons may come: read the list whatever it says.",
    )
    counts = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="How many suggestions had each `change` (opened, updated, resolved, "
        "dismissed, reopened; 0 when none).",
    )
    open_count = serializers.IntegerField(
        min_value=0, help_text="Open suggestions after the changes: the list's `open_count`."
    )
    open_by_severity = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="The open suggestions by severity (every severity named, 0 when none).",
    )
    open_by_type = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="The open suggestions by suggestion type (every type named, 0 when none).",
    )


class FieldChangeSerializer(serializers.Serializer):
    before = serializers.JSONField(allow_null=True, help_text="Null when the row was created.")
    after = serializers.JSONField(allow_null=True, help_text="Null when the row was deleted.")


class ActorSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="user, service or system (more may come).")
    # DRF's metaclass takes declared fields off the class, so `label` shadows nothing at runtime.
    label = serializers.CharField(  # type: ignore[assignment]
        allow_blank=True, help_text="The person's email or the name."
    )


class PlanDataChangeSerializer(serializers.Serializer):
    """One change of a node, action or project, from the plan's history."""

    id = serializers.UUIDField(help_text="The node's, action's or project's id.")
    completion_id = serializers.IntegerField(
        required=False, help_text="actions.completed only: the completion recorded."
    )
    at = serializers.DateTimeField()
    actor = ActorSerializer()
    fields = serializers.DictField(  # type: ignore[assignment]  # taken off the class, as `label`
        child=FieldChangeSerializer(), help_text="Each changed field, before and after."
    )


class PlanDataChangedDataSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    changes = PlanDataChangeSerializer(
        many=True, help_text="At most 100, in the order they happened."
    )


class EventSerializer(serializers.Serializer):
    """One event: exactly the JSON body its webhook deliveries post."""

    id = serializers.CharField(help_text="evt_...; the `webhook-id` of its deliveries.")
    type = serializers.ChoiceField(choices=LISTED_EVENT_TYPES)
    created_at = serializers.DateTimeField(help_text="ISO 8601, UTC (Z)")
    # The event's payload is called `data`, which shadows Serializer.data on purpose.
    data = PolymorphicProxySerializer(  # type: ignore[assignment]
        component_name="EventData",
        serializers=[
            SuggestionsChangedDataSerializer,
            SuggestionsBulkChangedDataSerializer,
            PlanDataChangedDataSerializer,
        ],
        resource_type_field_name=None,
        help_text=(
            "`suggestions.changed` carries suggestions; `suggestions.bulk_changed` counts them "
            "(read the list); actions.*, nodes.* and projects.* carry the changed rows' "
            "fields; a type added later carries its own object."
        ),
    )

    # An event is rendered as the body stored when it was written (webhooks.events builds it
    # in this shape): the same bytes its webhook deliveries post.
    def to_representation(self, instance: Any) -> Any:  # a webhooks.models.WebhookEvent
        return orjson.Fragment(instance.body)


class EventPageSerializer(serializers.Serializer):
    events = EventSerializer(
        many=True, help_text="Oldest first: in the order the events became visible."
    )
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


_EXAMPLE_EVENT = {
    "id": "evt_4fQm0bX2VJ7aLk9cR1sT8uWy",
    "type": "suggestions.changed",
    "created_at": "2026-05-04T09:30:12.481Z",
    "data": {
        "plan_id": "6f1c2b9e-3d4a-4b8c-9e7f-1a2b3c4d5e6f",
        "plan_number": 1,
        "actor": {
            "kind": "service",
            "id": "3c9d5e1f-7a2b-4c8d-9e0f-6a5b4c3d2e1f",
            "name": "service account “ERP”",
        },
        "changes": [
            {
                "change": "opened",
                "suggestion": {
                    "id": "0b7e4c1a-9d2f-4e6b-8a3c-5f1d2e3c4b5a",
                    "suggestion_type": "missing_code",
                    "severity": "warning",
                    "title": "Roof has no building-part code",
                    "body": "Assign a code so the component's lifetime and cost can be planned.",
                    "structure_node_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                    "recommended_action_json": {"action": "assign_code", "prefill_code_ids": []},
                    "created_at": "2026-05-04T09:30:12.402Z",
                    "status": "open",
                },
            }
        ],
    },
}

EVENT_PARAMETERS = [
    OpenApiParameter(
        "plan",
        {"type": "integer", "minimum": 1, "maximum": MAX_PLAN_NUMBER},
        OpenApiParameter.QUERY,
        description=(
            "Only this plan's events (its number). A plan the key may not read is 404 "
            "`plans.not_found`, as for a missing one."
        ),
        examples=[OpenApiExample("Demo plan", value=1)],
    ),
    query_enum("type", LISTED_EVENT_TYPES, "Only events of this type."),
    OpenApiParameter(
        "after",
        {"type": "string", "pattern": f"^{_EVENT_ID.pattern}$"},
        OpenApiParameter.QUERY,
        description=(
            "Replay: only the events after this one (the id of the last event you processed, "
            "from this list or a webhook delivery), oldest first. An id that is not among your "
            "events of the last 30 days (expired, or never one of yours) is 400 "
            "`validation.query`: list again from the start. Not with `cursor`."
        ),
    ),
    LIMIT,
    CURSOR,
    IF_NONE_MATCH,
]


class EventListApi(RecordApi):
    @extend_schema(
        operation_id="listEvents",
        summary="List the events of the last 30 days",
        description=(
            "The events of the plans this key may read, from the last 30 days, oldest first: "
            "the same ids and bodies as the webhook deliveries. Replay after a downtime with "
            "`after=<last id seen>`; without a public URL, poll it the same way (with "
            "`If-None-Match`) instead of receiving webhooks. An event that is in the list for "
            "the whole walk comes exactly once; one written during the walk comes on a later "
            "page."
        ),
        parameters=EVENT_PARAMETERS,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("EventListEnvelope", EventPageSerializer()),
                description="One page of events.",
                examples=[
                    OpenApiExample(
                        "A page",
                        value={
                            "success": True,
                            "message": "OK",
                            "messageKey": "ok",
                            "data": {"events": [_EXAMPLE_EVENT], "next_cursor": None},
                            "traceId": "4bf92f3577b34da6a3ce929d0e0e4736",
                        },
                        response_only=True,
                    )
                ],
            ),
            304: NOT_MODIFIED,
            **error_responses(
                {400: ["validation.query"], 404: ["plans.not_found"]},
                field_errors={"validation.query": {"after": [_NOT_AN_EVENT]}},
            ),
        },
        tags=["events"],
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        errors: dict[str, list[str]] = {}
        number = _plan_filter(params.get("plan"), errors)
        event_type = choice_parse(params, "type", LISTED_EVENT_TYPES, errors)
        after_id = _event_id(params.get("after"), errors)
        limit = limit_parse(params, errors)
        binding = f"events|{number or ''}|{event_type or ''}"
        after = int_cursor_parse(params, binding, errors)
        if after_id is not None and "cursor" in params:
            errors["after"] = ["Send either after or cursor: the cursor already says where."]
        if errors:
            raise ApiError("validation.query", errors=errors)
        api_key = key_of(request)
        readable = plans_readable_for_key(api_key=api_key)
        plans: QuerySet[Plan] = readable
        if number is not None:
            plans = Plan.objects.filter(pk=plan_for_key(api_key=api_key, number=number).pk)
        events_sequence()
        since = timezone.now() - EVENTS_KEEP
        if after_id is not None:
            after = event_position(plans=readable, since=since, event_id=after_id)
            if after is None:
                raise ApiError(
                    "validation.query",
                    errors={
                        "after": [
                            f"{after_id} is not among your events of the last 30 days (expired, "
                            "or not one you may read): list again without after."
                        ]
                    },
                )
        page, more = events_page(
            plans=plans, since=since, event_type=event_type, after=after, limit=limit
        )
        etag = etag_of(
            "events", api_key.pk, binding, after, limit, [e.sequence for e in page], more
        )

        def build() -> dict[str, Any]:
            cursor = next_cursor(binding, page, limit, more, key=lambda event: event.sequence)
            return EventPageSerializer({"events": page, "next_cursor": cursor}).data

        return self.answer(request, etag, build)
