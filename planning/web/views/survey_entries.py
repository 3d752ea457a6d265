"""Survey mode's endpoints for what the device sends (docs/subsystems/survey-mode.md "The
endpoints"): an entry as JSON, then each of its photos as multipart, both with the key the
device made. A repeat of a key answers what the first answered and stores nothing; every
refusal is JSON with a sentence for the person (planning.web.access.json_error), never a 500
page the script could not read."""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_POST

from planning.core.access import PlanAccess
from planning.models import ConditionSurvey, NodeKind, StructureNode
from planning.plans.services.survey_photos import survey_photo_add
from planning.plans.services.surveys import survey_record
from planning.web.access import json_error, plan_member_required_json, request_user
from planning.web.forms.survey_mode import SurveyEntryForm, SurveyPhotoForm


def _messages(error: ValidationError) -> dict[str, list[str]]:
    if hasattr(error, "error_dict"):
        return {name: [str(m) for m in messages] for name, messages in error.message_dict.items()}
    return {"__all__": [str(message) for message in error.messages]}


def _refused(what: str, errors: dict[str, list[str]]) -> JsonResponse:
    first = next((messages[0] for messages in errors.values() if messages), "")
    return json_error(f"{what} {first}".strip(), status=400, errors=errors)


def _form_errors(form: Any) -> dict[str, list[str]]:
    return {name: [str(message) for message in messages] for name, messages in form.errors.items()}


@plan_member_required_json(edit=True)
@require_POST
def survey_entry_record(request: HttpRequest, access: PlanAccess) -> JsonResponse:
    """Records one entry `{"key", "node", "grade", "consequence", "note", "assessed_on"}` as a
    survey of the component (planning.plans.services.surveys.survey_record): 201 with the
    survey, 200 with the same body for a key already recorded."""
    try:
        payload = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        payload = None
    if not isinstance(payload, dict):
        return json_error("The entry could not be read: send it as a JSON object.", status=400)
    # A form's fields read text: a number, boolean or object where text belongs is that
    # field's error, never a crash of its parser (a date field strips what it gets).
    form = SurveyEntryForm(
        {
            name: value if value is None or isinstance(value, str) else json.dumps(value)
            for name, value in payload.items()
        }
    )
    if not form.is_valid():
        return _refused("The entry was not recorded:", _form_errors(form))
    data = form.cleaned_data
    node = StructureNode.objects.filter(
        plan=access.plan, pk=data["node"], kind=NodeKind.COMPONENT
    ).first()
    if node is None:
        return json_error(
            "The entry was not recorded: this component is no longer in the plan.", status=404
        )
    try:
        survey, created = survey_record(
            node=node,
            grade=data["grade"],
            consequence=data["consequence"],
            note=data["note"],
            assessed_on=data["assessed_on"],
            by=request_user(request),
            idempotency_key=str(data["key"]),
        )
    except ValidationError as error:
        return _refused("The entry was not recorded:", _messages(error))
    return JsonResponse(
        {
            "key": str(data["key"]),
            "survey": str(survey.pk),
            "node": str(survey.node_id),
            "grade": survey.grade,
            "consequence": survey.consequence,
            "risk": survey.risk,
            "note": survey.note,
            "assessed_on": survey.assessed_on.isoformat(),
        },
        status=201 if created else 200,
    )


@plan_member_required_json(edit=True)
@require_POST
def survey_photo_record(request: HttpRequest, access: PlanAccess) -> JsonResponse:
    """Stores one photo (`file`) of a recorded entry (`entry`: its key) under the photo's own
    `key`: 201 with the photo, 200 for a key already received."""
    form = SurveyPhotoForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused("The photo was not kept:", _form_errors(form))
    data = form.cleaned_data
    survey = (
        ConditionSurvey.objects.filter(plan=access.plan, idempotency_key=str(data["entry"]))
        .select_related("node", "plan")
        .first()
    )
    if survey is None:
        return json_error(
            "The photo was not kept: its entry was not recorded in this plan.", status=404
        )
    try:
        attachment, created = survey_photo_add(
            survey=survey, key=data["key"], upload=data["file"], by=request_user(request)
        )
    except ValidationError as error:
        return _refused("The photo was not kept:", _messages(error))
    return JsonResponse(
        {
            "key": str(data["key"]),
            "entry": str(data["entry"]),
            "photo": str(attachment.pk) if attachment else None,
            "name": attachment.original_name if attachment else None,
        },
        status=201 if created else 200,
    )
