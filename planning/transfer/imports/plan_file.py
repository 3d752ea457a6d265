"""A plan file of the upload or `manage.py import_plan`: a JSON document or an Excel workbook,
told apart by their first bytes (an .xlsx file is a ZIP archive), whatever the file is named."""

from __future__ import annotations

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from planning.transfer.imports.json_file import plan_import
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.tables import WORKBOOK_MAGIC
from planning.transfer.imports.workbook import plan_import_workbook


def plan_file_import(
    *,
    owner: User,
    organisation: Organisation | None = None,
    content: bytes,
    filename: str,
    name: str | None = None,
    observer: ImportObserver | None = None,
    currency: str | None = None,
) -> Plan:
    """Imports a plan from a JSON or Excel file; see plan_import and plan_import_workbook."""
    read = plan_import_workbook if content.startswith(WORKBOOK_MAGIC) else plan_import
    return read(
        owner=owner,
        organisation=organisation,
        content=content,
        filename=filename,
        name=name,
        observer=observer,
        currency=currency,
    )
