"""Plan import: the JSON plan format of docs/design.md "Imports", and the same columns as a CSV
pair or an Excel workbook.

All or nothing: every problem is collected and reported at once (`ImportRejected.problems`),
and nothing is written unless there is none.
"""

from __future__ import annotations

from planning.transfer.imports.csv_pair import plan_import_csv
from planning.transfer.imports.files import plan_file_import
from planning.transfer.imports.plan_document import plan_import, plan_import_document
from planning.transfer.imports.problems import ImportProblem, ImportRejected

__all__ = [
    "ImportProblem",
    "ImportRejected",
    "plan_file_import",
    "plan_import",
    "plan_import_csv",
    "plan_import_document",
]
