"""Plan import: the JSON plan format of docs/design.md "Imports", and the same columns as a CSV
pair or an Excel workbook.

All or nothing: every problem is collected and reported at once (`ImportRejected.problems`),
and nothing is written unless there is none.
"""

from __future__ import annotations

from planning.importers.csv_pair import plan_import_csv
from planning.importers.files import plan_file_import
from planning.importers.plan_document import plan_import, plan_import_document
from planning.importers.problems import ImportProblem, ImportRejected

__all__ = [
    "ImportProblem",
    "ImportRejected",
    "plan_file_import",
    "plan_import",
    "plan_import_csv",
    "plan_import_document",
]
