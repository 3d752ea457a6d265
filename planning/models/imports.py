"""Uploads of the plan list, imported by background jobs
(docs/subsystems/imports.md "The web import is a job")."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from jobs.models import Leased
from planning.models.plans import Plan


class PlanImportStatus(models.TextChoices):
    QUEUED = "queued", "Waiting for a worker"
    CHECKING = "checking", "Checking rows"
    WRITING = "writing", "Writing the plan"
    SYNCING = "syncing", "Finding suggestions"
    DONE = "done", "Imported"
    REJECTED = "rejected", "Not imported: the file has problems"
    FAILED = "failed", "Not imported: an error on our side"
    # One sheet, kept until its person confirms which column is which (no job yet).
    MAPPING = "mapping", "Waiting for the columns to be confirmed"


class PlanImportFormat(models.TextChoices):
    DOCUMENT = "document", "JSON plan file"
    CSV_PAIR = "csv_pair", "CSV pair"
    SHEET = "sheet", "One sheet with a mapping"


class PlanImport(Leased):
    """An upload of the plan list, imported by a background job (planning.transfer.imports.jobs;
    docs/subsystems/imports.md "The web import is a job").

    The uploaded bytes are kept here (the database is what every app server and worker share)
    until the job ends, then emptied. `idempotency_key` comes from the upload form: the same
    form sent twice is one import, and a job run again after a killed worker makes one plan,
    because the plan is written and linked here in one transaction. The running job holds the
    row's lease (jobs.leases); its progress lives in the cache; this row holds the outcome.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_imports"
    )
    # Where the plan goes (null: the owner's personal organisation).
    organisation = models.ForeignKey(
        "organisations.Organisation",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    idempotency_key = models.CharField(max_length=64)
    file_format = models.CharField(max_length=10, choices=PlanImportFormat.choices)
    filename = models.CharField(max_length=255)
    name = models.CharField(max_length=200, blank=True)
    content = models.BinaryField(default=b"")
    actions_content = models.BinaryField(default=b"")
    plan_content = models.BinaryField(default=b"")  # a CSV pair's optional plan.csv
    # The form's currency, for a file that names none ("": the organisation's default then).
    currency = models.CharField(max_length=3, blank=True, default="")
    # One sheet's mapping: the field of each column ("" for one not imported), as confirmed.
    columns = models.JSONField(default=list, blank=True)
    status = models.CharField(
        max_length=10, choices=PlanImportStatus.choices, default=PlanImportStatus.QUEUED
    )
    attempts = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list, blank=True)
    # A refused file's problems beyond the first 200 kept in `problems` (only counted).
    problems_more = models.PositiveIntegerField(default=0)
    plan = models.ForeignKey(
        Plan, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)  # by the latest run of the job
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta(Leased.Meta):
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"], name="plan_import_once_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in {
            PlanImportStatus.DONE,
            PlanImportStatus.REJECTED,
            PlanImportStatus.FAILED,
        }


class ImportMapping(models.Model):
    """The mapping of one sheet's columns an organisation confirmed, offered again for a file
    with the same header row (docs/subsystems/import-mapping.md "Remembered mappings").
    `fingerprint` is the hash of the normalised header (planning.transfer.imports.sheet.fields.
    header_words), so the same titles in another case or with other accents match."""

    id = models.BigAutoField(primary_key=True)
    organisation = models.ForeignKey(
        "organisations.Organisation", on_delete=models.CASCADE, related_name="+"
    )
    fingerprint = models.CharField(max_length=64)
    headers = models.JSONField(default=list)
    columns = models.JSONField(default=list)
    updated_at = models.DateTimeField(default=timezone.now)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["organisation", "fingerprint"], name="import_mapping_once_per_header"
            )
        ]

    def __str__(self) -> str:
        return f"mapping {self.fingerprint[:8]} of {self.organisation_id}"
