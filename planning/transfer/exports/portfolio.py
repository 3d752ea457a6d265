"""The portfolio's downloads (docs/subsystems/portfolio.md "The portfolio page"): a CSV (a
plain table for programs: a header, a row per plan, then a total row per currency) and a
workbook with the title block, the plans' table and the totals below it. Every figure is read
from planning.figures.portfolio; the columns say their years and prices."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from organisations.models import Organisation
from planning.figures.portfolio import Portfolio, PortfolioRow, PortfolioTotal
from planning.transfer.exports.title import organisation_title_block
from planning.transfer.xlsx import Bold, Sheet


def _header(portfolio: Portfolio) -> tuple[str, ...]:
    year = portfolio.year
    return (
        "Plan number",
        "Plan",
        "Currency",
        f"Planned cost {portfolio.year_span} (today's prices)",
        f"Maintenance debt (planned before {year}, today's prices)",
        f"FCI % ({year}, area-weighted)",
        "FCI band",
        f"Percent funded ({year})",
        "Open critical suggestions",
        f"Years over budget ({portfolio.year_span}, today's prices)",
    )


def _cell(value: Any) -> Any:
    return "" if value is None else value


def _row(portfolio: Portfolio, row: PortfolioRow) -> tuple[Any, ...]:
    figures = row.figures
    return (
        row.plan.number,
        row.plan.name,
        row.plan.currency,
        figures.ten_year_cost,
        figures.debt,
        _cell(figures.condition.fci_percent),
        _cell(figures.condition.band),
        _cell(row.percent_funded),
        figures.critical_open,
        _cell(figures.years_over_budget),
    )


def _total(portfolio: Portfolio, total: PortfolioTotal) -> tuple[Any, ...]:
    noun = "plan" if total.plans == 1 else "plans"
    return (
        "",
        f"Total, {total.plans:,} {noun}",
        total.currency,
        total.ten_year_cost,
        total.debt,
        _cell(total.condition.fci_percent),
        _cell(total.condition.band),
        "",
        total.critical_open,
        total.years_over_budget,
    )


def portfolio_rows(portfolio: Portfolio) -> Iterator[tuple[Any, ...]]:
    yield _header(portfolio)
    for row in portfolio.rows:
        yield _row(portfolio, row)
    for total in portfolio.totals:
        yield _total(portfolio, total)


def portfolio_sheets(
    *, portfolio: Portfolio, organisation: Organisation, made_on: datetime.date, name: str
) -> list[Sheet]:
    currencies = [total.currency for total in portfolio.totals]
    title = organisation_title_block(
        organisation=organisation,
        title=f"Portfolio, {portfolio.year_span}, today's prices",
        prices="today's prices",
        made_on=made_on,
        currencies=currencies,
        more=[("Years", portfolio.year_span), *([("Plan name contains", name)] if name else [])],
    )
    below: list[tuple[Any, ...]] = [()]
    below += [Bold(_total(portfolio, total)) for total in portfolio.totals]
    if len(portfolio.totals) > 1:
        all_fci = portfolio.condition
        below.append(
            Bold(
                (
                    "",
                    "All currencies: FCI",
                    "",
                    "",
                    "",
                    _cell(all_fci.fci_percent),
                    _cell(all_fci.band),
                )
            )
        )

    def table() -> Iterator[tuple[Any, ...]]:
        yield _header(portfolio)
        for row in portfolio.rows:
            yield _row(portfolio, row)

    return [Sheet(name="Portfolio", title=title, table=table(), below=below)]
