"""An organisation's catalog as a CSV file (`manage.py import_catalog`, the catalog page's
upload; docs/subsystems/code-catalog.md): a header row naming any of the columns `code`, `name`,
`unit`, `unit_cost`, `service_life_years`, `interval_years`, `keywords` (`code` required), read
as a plan's CSV files are (separator `,` `;` or tab, titled headers, a decimal comma in a `;`
file). An empty cell gives nothing: the value it would set stays as it is."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal

from planning.models import Code
from planning.transfer.imports.csv_pair import csv_table_records
from planning.transfer.imports.records import ProblemCollector, RecordReader
from planning.transfer.imports.tables import Table

CATALOG_FILENAME = "catalog.csv"
CATALOG_COLUMNS = (
    "code",
    "name",
    "unit",
    "unit_cost",
    "service_life_years",
    "interval_years",
    "keywords",
)
CATALOG_FIGURES = ("unit_cost", "service_life_years", "interval_years")
CATALOG_MAX_ROWS = 5000


@dataclass(frozen=True)
class CatalogRow:
    """One row: the code and the values its cells give (a column left empty is not in
    `values`)."""

    row: str
    code: str
    values: dict[str, str | Decimal | int]


def catalog_csv_read(
    content: bytes, *, known: Collection[str], source: str = CATALOG_FILENAME
) -> list[CatalogRow]:
    """The file's rows, every cell checked against the code's field rules; a code not in
    `known` (the catalog's codes) is a new one and needs a name. Raises ImportRejected with
    every problem (a code given twice among them; the first PROBLEMS_KEPT of them listed)."""
    problems = ProblemCollector()
    table = Table(
        source=source,
        row_name="line",
        columns=CATALOG_COLUMNS,
        required=("code",),
        section=1,
        max_rows=CATALOG_MAX_ROWS,
        what="codes",
        whole_columns=frozenset({"service_life_years", "interval_years"}),
        amount_columns=frozenset({"unit_cost"}),
    )
    records = csv_table_records(content=content, table=table, problems=problems)
    rows: list[CatalogRow] = []
    seen: dict[str, str] = {}
    for index, (row, record) in enumerate(records.read() if records is not None else ()):
        assert isinstance(record, dict)
        reader = RecordReader(record, row, (1, index), problems)
        code = reader.text("code", required=True)
        values: dict[str, str | Decimal | int] = {}
        for column in ("name", "unit", "keywords"):
            if (text := reader.text(column)) is not None:
                values[column] = text.strip()
        if (unit_cost := reader.amount("unit_cost")) is not None:
            values["unit_cost"] = unit_cost
        for column in ("service_life_years", "interval_years"):
            if (years := reader.year(column, meaning="a number of years")) is not None:
                values[column] = years
        reader.model_rules(Code, {"code": code, **values})
        if code is not None and code.strip() not in known and "name" not in values:
            reader.problem("name", "is required for a new code")
        if code is not None and code.strip() in seen:
            reader.problem("code", f"appears twice (also on {seen[code.strip()]})")
        if code is not None and reader.valid:
            seen[code.strip()] = row
            rows.append(CatalogRow(row=row, code=code.strip(), values=values))
    if problems:
        raise problems.rejected()
    return rows
