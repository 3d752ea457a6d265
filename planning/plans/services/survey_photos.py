"""Survey mode's photos, each stored once (docs/subsystems/survey-mode.md "Exactly once").

The device gives every photo a key and may send it more than once (the answer lost, the page
reopened offline). `survey_photo_add` stores a key's photo once and answers a repeat with the
first result. The file is checked and stored by `attachment_add` outside any lock (a 20 MB photo
takes a while); the receipt is then written under the plan's lock, and a photo that lost the
race to a copy of itself sent at the same moment is deleted again."""

from __future__ import annotations

import uuid
from typing import Any

from planning.core.writes import plan_write
from planning.models import Attachment, ConditionSurvey, SurveyPhotoReceipt
from planning.plans.services.attachments import attachment_add, attachment_delete


def _received(*, plan_id: Any, key: uuid.UUID) -> SurveyPhotoReceipt | None:
    return (
        SurveyPhotoReceipt.objects.filter(plan_id=plan_id, key=key)
        .select_related("attachment")
        .first()
    )


def survey_photo_add(
    *, survey: ConditionSurvey, key: uuid.UUID, upload: Any, by: Any
) -> tuple[Attachment | None, bool]:
    """Attaches `upload` to the survey's component as a photo of `survey`, once per `key`:
    returns (the attachment, True), or for a key already received (its attachment, or None when
    it was deleted since, and False). Raises ValidationError on a file attachment_add refuses,
    storing nothing."""
    receipt = _received(plan_id=survey.plan_id, key=key)
    if receipt is not None:
        return receipt.attachment, False
    attachment = attachment_add(
        plan=survey.plan, node=survey.node, upload=upload, by=by, survey=survey
    )
    with plan_write(plan_id=survey.plan_id, data_changed=False):
        receipt = _received(plan_id=survey.plan_id, key=key)
        if receipt is None:
            SurveyPhotoReceipt.objects.create(
                plan_id=survey.plan_id, key=key, attachment=attachment
            )
            return attachment, True
    attachment_delete(attachment, by=by)  # a copy sent at the same moment was first
    return receipt.attachment, False
