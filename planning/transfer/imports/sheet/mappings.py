"""The mappings an organisation confirmed, and the confirmation that queues a sheet's import
(docs/subsystems/import-mapping.md "Remembered mappings")."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from organisations.models import Organisation
from planning.models import ImportMapping, PlanImport, PlanImportStatus
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.sheet.fields import FIELDS_BY_KEY, IGNORE, header_words


def header_fingerprint(headers: Sequence[str]) -> str:
    """The same for two header rows with the same titles, whatever their case and accents."""
    normalised = "\x1f".join(header_words(title) for title in headers)
    return hashlib.sha256(normalised.encode()).hexdigest()


def import_mapping_saved(
    *, organisation: Organisation | None, headers: Sequence[str]
) -> ImportMapping | None:
    """The organisation's mapping for this header row, if it confirmed one (and it still fits:
    as many columns, every field one the import knows)."""
    if organisation is None:
        return None
    saved = ImportMapping.objects.filter(
        organisation=organisation, fingerprint=header_fingerprint(headers)
    ).first()
    if saved is None or len(saved.columns) != len(headers):
        return None
    if any(field != IGNORE and field not in FIELDS_BY_KEY for field in saved.columns):
        return None
    return saved


def plan_import_mapped(
    *,
    upload: PlanImport,
    user: User,
    headers: Sequence[str],
    columns: Sequence[str],
    currency: str,
    name: str,
) -> bool:
    """Confirms the mapping of a sheet waiting for one: keeps it on the import, queues the
    import (True), and saves the mapping for the organisation's next file with these headers.
    False when the import was confirmed already (the same form sent twice): nothing changes."""
    with transaction.atomic():
        confirmed = PlanImport.objects.filter(pk=upload.pk, status=PlanImportStatus.MAPPING).update(
            status=PlanImportStatus.QUEUED,
            columns=list(columns),
            currency=currency,
            name=name,
        )
        if not confirmed:
            return False
        if upload.organisation is not None:
            ImportMapping.objects.update_or_create(
                organisation=upload.organisation,
                fingerprint=header_fingerprint(headers),
                defaults={
                    "headers": list(headers),
                    "columns": list(columns),
                    "updated_at": timezone.now(),
                    "updated_by": user,
                },
            )
    return True


def plan_import_unreadable(*, upload: PlanImport, rejected: ImportRejected) -> None:
    """A sheet waiting for its mapping that cannot be read (too large, not a workbook or UTF-8,
    too wide): refused as a job refuses a file, its problems on its page, its bytes let go."""
    PlanImport.objects.filter(pk=upload.pk, status=PlanImportStatus.MAPPING).update(
        status=PlanImportStatus.REJECTED,
        problems=[str(problem) for problem in rejected.problems],
        problems_more=rejected.more,
        content=b"",
        finished_at=timezone.now(),
    )
