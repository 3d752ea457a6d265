"""The plan's budget as export rows (docs/subsystems/exports.md): planned cost per building and
year, with each building's key figures. The CSV has every amount twice, in today's prices and
nominal, the unit stated once in the header; the workbook has a sheet per price basis, each
with its title block, the buildings with their sites, and below the table the site subtotals
and the total. The budget sums per building id (planning.figures.budget), so two buildings with
the same name stay two rows, told apart by their labels. Every amount is planning.figures'
(the budget's cells, key figures and site subtotals): nothing is summed here.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.db.models import Max, Min

from core.text_order import natural_key
from planning.figures.budget import YEARS_DEFAULT, Budget
from planning.figures.condition_index import BuildingCondition, ConditionWeights, PlanCondition
from planning.figures.key_figures import KeyFigures, PlanKeyFigures
from planning.figures.prices import NOMINAL, TODAY, PriceIndex, year_span
from planning.figures.sites import site_subtotals
from planning.models import ActionStatus, Plan
from planning.transfer.exports.title import title_block
from planning.transfer.exports.units import nominal_unit, today_unit
from planning.transfer.xlsx import Bold, Sheet
from planning.tree.selectors import Site, building_sites


def budget_years(*, plan: Plan, this_year: int) -> tuple[int, int]:
    """The years a budget export covers when none are chosen: from the earliest planned year
    of a live action (overdue ones included) or this year, whichever comes first, to the latest
    or the planning page's last default year, whichever comes later (recurring actions are
    counted in every year of that range)."""
    bounds = plan.actions.filter(status=ActionStatus.PLANNED).aggregate(
        first=Min("planned_year"), last=Max("planned_year")
    )
    first = min(bounds["first"] or this_year, this_year)
    last = max(bounds["last"] or this_year, this_year + YEARS_DEFAULT - 1)
    return first, last


def budget_rows(
    *,
    plan: Plan,
    today: Budget,
    nominal: Budget,
    key_figures: PlanKeyFigures,
    condition: PlanCondition,
) -> Iterator[tuple[Any, ...]]:
    """Planned cost (live actions, every occurrence) per building and year, from `today` and
    `nominal` (planning.figures.budget.plan_budget of one range in both prices), with each
    building's key figures: a header, one row per building by its label (a building with
    debt but no cost in the range too; actions outside any building under "(no building)"),
    and a total row with the plan's figures. A row holds the building's area and key
    figures (the FCI of `condition`, planning.figures.condition_index, among them), then the
    years in today's prices and their total, then the same years nominal and their total."""
    years = today.years
    span = key_figures.plan.year_span
    yield (
        "Building",
        "Gross floor area (m2)",
        f"Planned cost per m2 per year ({span}, today's prices)",
        f"Maintenance debt (planned before {key_figures.year}, today's prices)",
        "Debt per m2",
        *_fci_columns(key_figures.year),
        *years,
        f"Total {year_span(years[0], years[-1])} ({today_unit(plan)})",
        *(f"{year} nominal" for year in years),
        f"Total {year_span(years[0], years[-1])} ({nominal_unit(plan)})",
    )
    zeros = [Decimal("0.00")] * len(years)
    today_rows = {row.building_id: row for row in today.rows}
    nominal_rows = {row.building_id: row for row in nominal.rows}
    figures_of = {figures.building_id: figures for figures in key_figures.buildings}
    conditions: dict[Any, BuildingCondition] = {
        building.building_id: building for building in condition.buildings
    }
    # Every building of the range's budget, and those with debt only, in the page's order.
    shown = [row.building_id for row in today.rows]
    shown += [b for b, figures in figures_of.items() if figures.debt and b not in today_rows]
    for building_id in sorted(
        shown, key=lambda b: (b is None, natural_key(_label(b, figures_of, today_rows)))
    ):
        row, other = today_rows.get(building_id), nominal_rows.get(building_id)
        figures = figures_of.get(building_id)
        yield (
            row.name if row is not None else figures.name if figures is not None else "",
            *(
                _key_figure_cells(figures, conditions.get(building_id))
                if figures is not None
                else ("",) * KEY_COLUMNS
            ),
            *(row.cells if row else zeros),
            row.total if row else Decimal("0.00"),
            *(other.cells if other else zeros),
            other.total if other else Decimal("0.00"),
        )
    yield (
        "Total",
        *_key_figure_cells(key_figures.plan, condition.weights),
        *today.year_totals,
        today.total,
        *nominal.year_totals,
        nominal.total,
    )


def _label(building_id: Any, figures_of: dict[Any, KeyFigures], rows: dict[Any, Any]) -> str:
    found = rows.get(building_id) or figures_of.get(building_id)
    return found.name if found is not None else ""


KEY_COLUMNS = 6  # area, cost per m2 per year, debt, debt per m2, FCI, its band


def _fci_columns(year: int) -> tuple[str, str]:
    return (f"FCI % ({year}, the plan's area-weighted)", "FCI band")


def _key_figure_cells(
    figures: KeyFigures, condition: BuildingCondition | ConditionWeights | None
) -> tuple[Any, ...]:
    def cell(value: Decimal | str | None) -> Decimal | str:
        return "" if value is None else value

    return (
        cell(figures.area),
        cell(figures.cost_per_m2_year),
        figures.debt,
        cell(figures.debt_per_m2),
        cell(condition.fci_percent if condition is not None else None),
        cell(condition.band if condition is not None else None),
    )


def budget_sheets(
    *,
    plan: Plan,
    today: Budget,
    nominal: Budget,
    key_figures: PlanKeyFigures,
    condition: PlanCondition,
    made_on: datetime.date,
) -> list[Sheet]:
    """The budget workbook: a sheet in today's prices (each building's area and key figures
    before its years) and one nominal. Each has the title block, a table of one row per
    building (its site, its label; "(no building)" last) in site order that the autofilter
    covers, and below it the subtotal of each site (when the plan has sites) and the total."""
    years = today.years
    span = year_span(years[0], years[-1])
    figures_of = {figures.building_id: figures for figures in key_figures.buildings}
    today_rows = {row.building_id: row for row in today.rows}
    shown = [row.building_id for row in today.rows]
    shown += [b for b, figures in figures_of.items() if figures.debt and b not in today_rows]
    sites = building_sites(plan=plan, building_ids=[b for b in shown if b is not None])

    labels = {b: _label(b, figures_of, today_rows) for b in shown}

    def order(building_id: Any) -> tuple[Any, ...]:
        site = sites.get(building_id)
        return (
            building_id is None,
            site is None,
            natural_key(site.name) if site is not None else (),
            natural_key(labels[building_id]),
            str(building_id),
        )

    buildings = [(b, labels[b]) for b in sorted(shown, key=order)]
    index = PriceIndex.of(plan)
    return [
        _budget_sheet(
            plan=plan,
            budget=budget,
            name=name,
            title=title_block(
                plan=plan,
                title=f"Budget per building and year, {span}, {index.prices_wording(prices)}",
                prices=index.prices_wording(prices),
                made_on=made_on,
                more=[("Years", span)],
            ),
            buildings=buildings,
            sites=sites,
            figures_of=figures_of if prices == TODAY else None,
            plan_figures=key_figures if prices == TODAY else None,
            condition=condition,
        )
        for budget, prices, name in (
            (today, TODAY, "Today's prices"),
            (nominal, NOMINAL, "Nominal"),
        )
    ]


def _budget_sheet(
    *,
    plan: Plan,
    budget: Budget,
    name: str,
    title: list[tuple[Any, ...]],
    buildings: list[tuple[Any, str]],
    sites: dict[Any, Site | None],
    figures_of: dict[Any, KeyFigures] | None,
    plan_figures: PlanKeyFigures | None,
    condition: PlanCondition,
) -> Sheet:
    """One price basis's sheet: `buildings` are its rows' building ids and labels, in order;
    `figures_of` and `plan_figures` the key figures' columns, on the sheet in today's prices
    only (they are in today's prices)."""
    years = budget.years
    unit = today_unit(plan) if budget.prices == TODAY else nominal_unit(plan)
    key_columns: tuple[str, ...] = ()
    if plan_figures is not None:
        key_columns = (
            "Gross floor area (m2)",
            f"Planned cost per m2 per year ({plan_figures.plan.year_span}, today's prices)",
            f"Maintenance debt (planned before {plan_figures.year}, today's prices)",
            "Debt per m2",
            *_fci_columns(plan_figures.year),
        )
    conditions: dict[Any, BuildingCondition] = {
        building.building_id: building for building in condition.buildings
    }
    header = (
        "Site",
        "Building",
        *key_columns,
        *years,
        f"Total {year_span(years[0], years[-1])} ({unit})",
    )
    zeros = [Decimal("0.00")] * len(years)
    rows_of = {row.building_id: row for row in budget.rows}

    def table() -> Iterator[tuple[Any, ...]]:
        yield header
        for building_id, label in buildings:
            row = rows_of.get(building_id)
            figures = figures_of.get(building_id) if figures_of is not None else None
            site = sites.get(building_id) if building_id is not None else None
            yield (
                site.name if site is not None else "",
                label,
                *(
                    (
                        _key_figure_cells(figures, conditions.get(building_id))
                        if figures is not None
                        else ("",) * KEY_COLUMNS
                    )
                    if key_columns
                    else ()
                ),
                *(row.cells if row is not None else zeros),
                row.total if row is not None else Decimal("0.00"),
            )

    blank = ("",) * len(key_columns)
    below: list[tuple[Any, ...]] = [()]
    for subtotal in site_subtotals(budget=budget, sites=sites):
        noun = "building" if subtotal.buildings == 1 else "buildings"
        below.append(
            Bold(
                (
                    subtotal.name,
                    f"Subtotal, {subtotal.buildings:,} {noun}",
                    *blank,
                    *subtotal.cells,
                    subtotal.total,
                )
            )
        )
    plan_cells = (
        _key_figure_cells(plan_figures.plan, condition.weights) if plan_figures is not None else ()
    )
    below.append(Bold(("Total", "", *plan_cells, *budget.year_totals, budget.total)))
    return Sheet(name=name, title=title, table=table(), below=below)
