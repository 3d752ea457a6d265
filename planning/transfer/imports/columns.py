"""The columns of the plan import format, table by table (docs/subsystems/imports.md): a JSON
record's keys, and the header of a CSV file or a workbook's sheet. The readers check a record
against them and the exports write them in this order, so an export imports back."""

from __future__ import annotations

NODE_FIELDS = (
    "ref",
    "parent_ref",
    "name",
    "kind",
    "code",
    "quantity",
    "unit",
    "install_year",
    "address",
    "gross_floor_area_m2",
    "year_built",
    "condition_grade",
    "condition_assessed_on",
    "condition_consequence",
    "replacement_value",
)
ACTION_FIELDS = (
    "node_ref",
    "title",
    "kind",
    "planned_year",
    "estimated_cost",
    "status",
    "interval_years",
    "completed_on",
    "actual_cost",
)
# Optional plan fields (docs/subsystems/money.md): a plan's JSON export writes them.
PLAN_FIELDS = (
    "description",
    "currency",
    "price_base_year",
    "index_rate_percent",
    "markups",
    "overhead_percent",
    "vat_percent",
    "annual_budget",
)
DOCUMENT_FIELDS = ("name", "nodes", "actions", *PLAN_FIELDS)
# The rows of a table of plan fields (a workbook's sheet "Plan", a CSV pair's plan.csv).
PLAN_TABLE_FIELDS = ("name", *PLAN_FIELDS)
NODE_REQUIRED = ("ref", "name", "kind")
ACTION_REQUIRED = ("node_ref", "title", "kind", "planned_year")
# Fields holding a year or an amount: the CSV reader turns their text into numbers.
YEAR_FIELDS = frozenset(
    {
        "install_year",
        "planned_year",
        "interval_years",
        "year_built",
        "condition_grade",
        "condition_consequence",
    }
)
AMOUNT_FIELDS = frozenset(
    {"quantity", "estimated_cost", "gross_floor_area_m2", "actual_cost", "replacement_value"}
)
