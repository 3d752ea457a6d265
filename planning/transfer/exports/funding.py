"""The Funding tab's downloads (docs/subsystems/funding.md "Downloads"): the yearly figures of
the fund and of the scenarios compared, as one CSV table for programs (a `flow` column names
each) or as a workbook with the title block, a sheet per cash flow and one comparing them. The
figures are planning.figures.funding's; this module only lays them out."""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import Any

from planning.core.money import amount_of
from planning.figures.funding import FundingFigures
from planning.figures.funding.cashflow import COMPARED_YEARS
from planning.models import Plan
from planning.transfer.exports.title import title_block
from planning.transfer.xlsx import Bold, Sheet

HEADER = (
    "flow",
    "year",
    "contribution",
    "nominal_cost",
    "interest",
    "balance",
    "fully_funded_balance",
    "percent_funded",
)
SHEET_HEADER = (
    "Year",
    "Contribution",
    "Nominal cost",
    "Interest",
    "Balance at year end",
    "Fully funded balance (today's prices)",
    "Percent funded",
)


def _year_rows(figures: FundingFigures) -> Iterator[tuple[Any, ...]]:
    for row in figures.years:
        yield (
            row.year,
            amount_of(row.contribution_cents),
            amount_of(row.cost_cents),
            amount_of(row.interest_cents),
            amount_of(row.balance_cents),
            amount_of(row.ffb_cents),
            row.percent_funded,
        )


def funding_rows(flows: Sequence[tuple[str, FundingFigures]]) -> Iterator[tuple[Any, ...]]:
    """The CSV: a header, then every year of every flow (plain decimal strings; an empty
    percent funded where no component counts)."""
    yield HEADER
    for name, figures in flows:
        for row in _year_rows(figures):
            yield (name, *("" if value is None else value for value in row))


def comparison_rows(flows: Sequence[tuple[str, FundingFigures]]) -> list[tuple[Any, ...]]:
    """The comparison: a row per figure DESIGN lists, a column per flow."""
    rows: list[tuple[Any, ...]] = [
        ("Years and prices", *(f.wording for _, f in flows)),
        ("First-year contribution", *(amount_of(f.terms.contribution_cents) for _, f in flows)),
        ("Lowest balance", *(amount_of(f.summary.lowest_cents) for _, f in flows)),
        ("Year of the lowest balance", *(f.summary.lowest_year for _, f in flows)),
    ]
    for k in COMPARED_YEARS:
        rows.append((f"Percent funded in year {k}", *(f.summary.percent_at[k] for _, f in flows)))
    rows.append(
        ("Total contributions", *(amount_of(f.summary.contributions_cents) for _, f in flows))
    )
    return rows


def funding_sheets(
    *, plan: Plan, flows: Sequence[tuple[str, FundingFigures]], made_on: datetime.date
) -> list[Sheet]:
    sheets = []
    for name, figures in flows:
        rows = list(_year_rows(figures))
        sheets.append(
            Sheet(
                name=name[:31],
                title=title_block(
                    plan=plan,
                    title=f"Funding: {name}",
                    prices=figures.wording,
                    made_on=made_on,
                    more=[
                        ("Components left out of the fully funded balance", len(figures.left_out))
                    ],
                ),
                table=[SHEET_HEADER, *rows],
                below=[
                    Bold(
                        (
                            "Total",
                            amount_of(figures.summary.contributions_cents),
                            amount_of(figures.summary.costs_cents),
                            amount_of(figures.summary.interest_cents),
                        )
                    )
                ],
            )
        )
    if len(flows) > 1:
        sheets.append(
            Sheet(
                name="Comparison",
                title=title_block(
                    plan=plan,
                    title="Funding scenarios compared",
                    prices=flows[0][1].wording,
                    made_on=made_on,
                ),
                table=[("Figure", *(name for name, _ in flows)), *comparison_rows(flows)],
            )
        )
    return sheets
