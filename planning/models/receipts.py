"""Receipts of survey mode's photos (docs/subsystems/survey-mode.md "Exactly once"): the key the
device gave a photo, and the attachment it became, so a photo sent twice (its answer lost on
the way back) is stored once. An entry's own key is on its ConditionSurvey."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from planning.models.plans import Plan
from planning.models.surveys import Attachment


class SurveyPhotoReceipt(models.Model):
    id = models.BigAutoField(primary_key=True)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="+")
    key = models.UUIDField()
    # Null once the photo was deleted: a late replay of it is then answered, not stored again.
    attachment = models.ForeignKey(
        Attachment, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["plan", "key"], name="survey_photo_receipt_unique")
        ]

    def __str__(self) -> str:
        return f"photo {self.key}"
