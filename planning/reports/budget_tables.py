"""The board report's budget tables (docs/subsystems/board-report.md): the budget per building and
per action kind over the plan's whole horizon, cut into pages of PAGE_YEARS years. They show the
budget's own cells (planning.figures.budget) and add nothing up beyond subtotals of them (a
site's buildings, the years of one page). What grows with the plan is bounded: the costliest
BUILDING_ROWS buildings have rows of their own, the others are summed per site in one row."""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.text_order import natural_key
from planning.figures.budget import NO_BUILDING, Budget, BudgetRow
from planning.figures.prices import year_span
from planning.figures.sites import SiteSubtotal, site_subtotals
from planning.models import CENT
from planning.tree.selectors import Site

BUILDING_ROWS = 40
PAGE_YEARS = 10  # the years of one page of the budget tables


# The roles of a budget table's rows (the stylesheet styles each).
BUILDING, OTHERS, SITE, SUBTOTAL, OUTSIDE, TOTAL = (
    "building",
    "others",
    "site",
    "subtotal",
    "outside",
    "total",
)


@dataclass(frozen=True)
class TableRow:
    """A row of a budget table over the whole horizon: a building, the others of a site summed,
    a site's heading (no figures) or subtotal, the actions outside any building, the total."""

    label: str
    role: str
    cells: list[Decimal] = field(default_factory=list)
    total: Decimal | None = None


@dataclass(frozen=True)
class PageRow:
    """A TableRow on one page: the page's years, their total, and the whole horizon's."""

    label: str
    role: str
    cells: list[Decimal]
    span_total: Decimal | None
    total: Decimal | None


@dataclass(frozen=True)
class TablePage:
    """Ten years (or the horizon's last few) of the budget per building and per action kind."""

    years: list[int]
    wording: str  # "2026-2035, today's prices" (an en dash)
    span: str  # "2026-2035"
    buildings: list[list[PageRow]]  # groups of rows: a site's, the outside row, the total
    kinds: list[PageRow]
    whole: bool  # the last of several pages: it also shows the whole horizon's total


def _summed(rows: Sequence[BudgetRow | TableRow], width: int) -> list[Decimal]:
    """The cells of these budget rows added year by year (a subtotal of the budget's cells)."""
    return [sum((row.cells[i] for row in rows), CENT * 0) for i in range(width)]


def _others(rows: list[BudgetRow], width: int) -> TableRow:
    cells = _summed(rows, width)
    noun = "building" if len(rows) == 1 else "buildings"
    return TableRow(f"{len(rows):,} other {noun}", OTHERS, cells, sum(cells, CENT * 0))


def budget_table(
    budget: Budget, sites: dict[Any, Site | None], *, limit: int = BUILDING_ROWS
) -> list[list[TableRow]]:
    """The budget per building over the whole horizon in groups of rows: one per site (a
    building's nearest site ancestor; the buildings without one last, in their own group) with
    its heading and subtotal, then the actions outside any building, then the total. The
    costliest `limit` buildings have rows of their own, the others of each site one summed row
    (a site with none of its own is one row). A plan without sites is one group without heading
    or subtotal."""
    width = len(budget.years)
    buildings = [row for row in budget.rows if row.building_id is not None]
    kept = {id(row) for row in heapq.nlargest(limit, buildings, key=lambda row: row.total)}
    by_site: dict[Site | None, list[BudgetRow]] = {}
    for row in buildings:
        by_site.setdefault(sites.get(row.building_id), []).append(row)
    # The sites' order and subtotals are the figures' (planning.figures.sites), as in the budget
    # workbook; a plan without sites has none and is one group.
    subtotals = site_subtotals(budget=budget, sites=sites)
    ordered: list[tuple[Site | None, list[BudgetRow], SiteSubtotal | None]] = [
        (s.site, by_site[s.site], s) for s in subtotals
    ] or ([(None, buildings, None)] if buildings else [])
    groups: list[list[TableRow]] = []
    for site, rows, subtotal in ordered:
        rows.sort(key=lambda row: (natural_key(row.name), str(row.building_id)))
        shown = [row for row in rows if id(row) in kept]
        rest = [row for row in rows if id(row) not in kept]
        if subtotal is not None and not shown:  # a site of small buildings: one line says it all
            noun = "building" if len(rows) == 1 else "buildings"
            label = f"{subtotal.name} ({len(rows):,} {noun})"
            groups.append([TableRow(label, SUBTOTAL, subtotal.cells, subtotal.total)])
            continue
        group = [TableRow(subtotal.name, SITE)] if subtotal is not None else []
        group.extend(TableRow(row.name, BUILDING, row.cells, row.total) for row in shown)
        if rest:
            group.append(_others(rest, width))
        if subtotal is not None:
            label = f"Total {site.name}" if site else "Total without a site"
            group.append(TableRow(label, SUBTOTAL, subtotal.cells, subtotal.total))
        groups.append(group)
    outside = next((row for row in budget.rows if row.building_id is None), None)
    if outside is not None:
        groups.append([TableRow(NO_BUILDING, OUTSIDE, outside.cells, outside.total)])
    groups.append([TableRow("Total", TOTAL, budget.year_totals, budget.total)])
    return groups


def kinds_table(budget: Budget) -> list[TableRow]:
    """The budget per action kind over the whole horizon, and the total."""
    rows = [
        TableRow(series.label, BUILDING, series.values, sum(series.values, CENT * 0))
        for series in budget.by_kind
    ]
    return [*rows, TableRow("Total", TOTAL, budget.year_totals, budget.total)]


def table_pages(
    *,
    budget: Budget,
    buildings: list[list[TableRow]],
    kinds: list[TableRow],
    wording: Callable[[int, int], str],
) -> list[TablePage]:
    """The tables cut into pages of PAGE_YEARS years; `wording(first, last)` says each page's
    years and prices."""
    years = budget.years
    pages = []
    for start in range(0, len(years), PAGE_YEARS):
        stop = min(start + PAGE_YEARS, len(years))

        def cut(rows: list[TableRow], start: int = start, stop: int = stop) -> list[PageRow]:
            return [
                PageRow(
                    label=row.label,
                    role=row.role,
                    cells=row.cells[start:stop],
                    span_total=sum(row.cells[start:stop], CENT * 0) if row.cells else None,
                    total=row.total,
                )
                for row in rows
            ]

        pages.append(
            TablePage(
                years=years[start:stop],
                wording=wording(years[start], years[stop - 1]),
                span=year_span(years[start], years[stop - 1]),
                buildings=[cut(group) for group in buildings],
                kinds=cut(kinds),
                whole=start > 0 and stop == len(years),
            )
        )
    return pages
