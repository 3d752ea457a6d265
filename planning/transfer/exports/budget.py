"""The plan's budget as export rows (docs/subsystems/exports.md): planned cost per building and
year, every amount twice, in today's prices and nominal, with each building's key figures, the
unit stated once in the header. The budget sums per building id (planning.figures.budget), so
two buildings with the same name stay two rows, told apart by their labels.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from django.db.models import Max, Min

from core.text_order import natural_key
from planning.figures.budget import YEARS_DEFAULT, Budget
from planning.figures.key_figures import KeyFigures, PlanKeyFigures
from planning.figures.prices import year_span
from planning.models import ActionStatus, Plan
from planning.transfer.exports.units import nominal_unit, today_unit


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
    *, plan: Plan, today: Budget, nominal: Budget, key_figures: PlanKeyFigures
) -> Iterator[tuple[Any, ...]]:
    """Planned cost (live actions, every occurrence) per building and year, from `today` and
    `nominal` (planning.figures.budget.plan_budget of one range in both prices), with each
    building's key figures: a header, one row per building by its label (a building with
    debt but no cost in the range too; actions outside any building under "(no building)"),
    and a total row with the plan's figures. A row holds the building's area and key
    figures, then the years in today's prices and their total, then the same years nominal
    and their total."""
    years = today.years
    span = key_figures.plan.year_span
    yield (
        "Building",
        "Gross floor area (m2)",
        f"Planned cost per m2 per year ({span}, today's prices)",
        f"Maintenance debt (planned before {key_figures.year}, today's prices)",
        "Debt per m2",
        *years,
        f"Total {year_span(years[0], years[-1])} ({today_unit(plan)})",
        *(f"{year} nominal" for year in years),
        f"Total {year_span(years[0], years[-1])} ({nominal_unit(plan)})",
    )
    zeros = [Decimal("0.00")] * len(years)
    today_rows = {row.building_id: row for row in today.rows}
    nominal_rows = {row.building_id: row for row in nominal.rows}
    figures_of = {figures.building_id: figures for figures in key_figures.buildings}
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
            *(_key_figure_cells(figures) if figures is not None else ("", "", "", "")),
            *(row.cells if row else zeros),
            row.total if row else Decimal("0.00"),
            *(other.cells if other else zeros),
            other.total if other else Decimal("0.00"),
        )
    yield (
        "Total",
        *_key_figure_cells(key_figures.plan),
        *today.year_totals,
        today.total,
        *nominal.year_totals,
        nominal.total,
    )


def _label(building_id: Any, figures_of: dict[Any, KeyFigures], rows: dict[Any, Any]) -> str:
    found = rows.get(building_id) or figures_of.get(building_id)
    return found.name if found is not None else ""


def _key_figure_cells(figures: KeyFigures) -> tuple[Any, ...]:
    def cell(value: Decimal | None) -> Decimal | str:
        return "" if value is None else value

    return (
        cell(figures.area),
        cell(figures.cost_per_m2_year),
        figures.debt,
        cell(figures.debt_per_m2),
    )
