"""The board report's content: everything a PDF of one plan for a board meeting shows
(docs/subsystems/board-report.md), gathered by `report_content` into one `ReportContent` that the
template `planning/report/board.html` reads; planning.reports.pdf prints it.

Every amount comes from planning.figures (the budget, key figures, chart, totals), for the
plan's whole horizon (planning.figures.totals.plan_horizon: this year to the last planned
year, ten to thirty years) in the chosen prices; the key figures and the condition summary are
the ten years from this year in today's prices, as everywhere else. The words that state a
figure's years and prices are planning.figures.prices' (`figure_wording`, `prices_wording`),
from the same PriceIndex that computed the figure, so a caption cannot claim markups the figure
does not carry. The report adds nothing up itself beyond subtotals of the budget's own cells
(planning.reports.budget_tables).

What grows with the plan is bounded: the budget tables show the costliest BUILDING_ROWS
buildings, the others summed per site in one row; the largest occurrences of the next five
years are LARGEST_ACTIONS rows (planning.reports.largest), the critical suggestions
CRITICAL_SUGGESTIONS rows, the changes since the last adopted version CHANGES_LISTED rows
(planning.reports.changes), each with the number left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.utils import timezone

from core.text_order import natural_key
from planning.core.money import amount_of, half_up
from planning.figures.budget import Budget, plan_budgets
from planning.figures.chart import Chart, cost_chart
from planning.figures.condition_index import BuildingCondition, PlanCondition, plans_condition
from planning.figures.funding import FundingFigures, fund_figures
from planning.figures.funding.cashflow import FundYear
from planning.figures.funding.chart import FundChart, fund_chart
from planning.figures.key_figures import PlanKeyFigures, plan_key_figures
from planning.figures.prices import (
    NOMINAL,
    TODAY,
    Markup,
    PriceIndex,
    figure_wording,
    percent,
    plan_markups,
    year_span,
)
from planning.figures.totals import HORIZON_MAX, YEARS, plan_horizon, years_over_budget
from planning.models import (
    CENT,
    Action,
    ActionStatus,
    Fund,
    Plan,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.records.comparison import Comparison, Side, versions_compare
from planning.reports.budget_tables import (
    BUILDING_ROWS,
    OTHERS,
    TablePage,
    budget_table,
    kinds_table,
    table_pages,
)
from planning.reports.changes import ChangeRow, change_rows
from planning.reports.condition import ConditionRow, condition_summary, high_risk_components
from planning.reports.largest import LARGEST_ACTIONS_YEARS, Occurrence, largest_occurrences
from planning.tree.selectors import building_sites

CRITICAL_SUGGESTIONS = 25
FCI_BUILDINGS = 40  # the buildings the FCI table lists, the highest FCI first
EXAMPLE_COST = Decimal(100_000)  # the assumptions page's worked example of the nominal prices
EXAMPLE_AFTER_YEARS = 5

# Steps of the report job, with the share of the bar each one reaches when done.
STEP_FIGURES = ("Reading the figures", 60)

Progress = Callable[[str, int], None]

# The chart's colours (static/css/app.css's series-N): WeasyPrint does not style an inline SVG
# from the page's stylesheet, so each bar carries its fill.
SERIES_FILLS = {
    "series-0": "#1f6feb",
    "series-1": "#e36209",
    "series-2": "#2e7d32",
    "series-3": "#8250df",
    "series-4": "#bf3989",
    "series-5": "#0a7c86",
    "series-6": "#8c959f",
}


@dataclass
class ReportContent:
    plan: Plan
    prices: str  # TODAY or NOMINAL
    index: PriceIndex  # the one that computed the nominal figures
    markups: list[Markup]  # the plan's, by name, in the order they apply
    made_on: date
    year_from: int
    year_to: int  # the horizon's last year
    later_actions: int  # live actions planned after the horizon, in no figure here
    budget: Budget  # the whole horizon, in the report's prices
    pages: list[TablePage]
    over_budget: list[int]  # years above the annual budget (today's prices)
    key_figures: PlanKeyFigures
    condition: list[ConditionRow]
    poor_condition_cost: Decimal  # planned on components graded 2-3, ten years, today's prices
    poor_components: int
    high_risk_components: int  # grade x consequence of 6 or more (the latest surveys)
    fci: PlanCondition  # the FCI of each building (and the plan's), for year_from
    chart: Chart
    largest: list[Occurrence]
    largest_from: int
    largest_to: int
    critical: list[Suggestion]
    critical_count: int
    since_version: Comparison | None  # the plan now against its latest adopted version
    changes: list[ChangeRow]  # the ones that move the most money, at most CHANGES_LISTED
    action_count: int
    node_count: int
    funding: FundingFigures | None = None  # the plan's fund over its horizon, when it has one
    funding_chart: FundChart | None = None

    @property
    def fci_buildings(self) -> list[BuildingCondition]:
        """The buildings with the highest FCI first (those without one last), at most
        FCI_BUILDINGS of them; `fci_left_out` counts the others."""
        ranked = sorted(
            self.fci.buildings, key=lambda b: (b.fci is None, -(b.fci or 0), natural_key(b.name))
        )
        return ranked[:FCI_BUILDINGS]

    @property
    def fci_left_out(self) -> int:
        return max(0, len(self.fci.buildings) - FCI_BUILDINGS)

    def wording(self, year_from: int, year_to: int, prices: str | None = None) -> str:
        return figure_wording(
            year_from=year_from, year_to=year_to, prices=prices or self.prices, index=self.index
        )

    @property
    def span(self) -> str:
        return year_span(self.year_from, self.year_to)

    @property
    def years_count(self) -> int:
        return self.year_to - self.year_from + 1

    @property
    def horizon_wording(self) -> str:
        """The whole report's figures: "2026-2045, today's prices"."""
        return self.wording(self.year_from, self.year_to)

    @property
    def ten_years_to(self) -> int:
        return self.year_from + YEARS - 1

    @property
    def ten_years_wording(self) -> str:
        return self.wording(self.year_from, self.ten_years_to)

    @property
    def ten_years_today_wording(self) -> str:
        """The key figures' and the condition summary's: the ten years, today's prices."""
        return self.wording(self.year_from, self.ten_years_to, TODAY)

    @property
    def ten_years_total(self) -> Decimal:
        """The first ten of the horizon's year totals, in the report's prices."""
        return sum(self.budget.year_totals[:YEARS], CENT * 0)

    @property
    def largest_wording(self) -> str:
        return self.wording(self.largest_from, self.largest_to)

    @property
    def comparison_wording(self) -> str:
        """The comparison's totals: today's prices over the horizon."""
        return self.wording(self.year_from, self.year_to, TODAY)

    @property
    def prices_wording(self) -> str:
        return self.index.prices_wording(self.prices)

    @property
    def nominal(self) -> bool:
        return self.prices == NOMINAL

    @property
    def markups_together(self) -> str:
        """The markups' compound effect as a percentage, to two decimals: "+58.53 %"."""
        return percent(amount_of(half_up((self.index.markup_factor() - 1) * Fraction(10_000))))

    @property
    def example_year(self) -> int:
        return self.year_from + EXAMPLE_AFTER_YEARS

    @property
    def example_nominal(self) -> Decimal:
        return self.index.nominal(EXAMPLE_COST, self.example_year)

    @property
    def example_cost(self) -> Decimal:
        return EXAMPLE_COST

    @property
    def horizon_max(self) -> int:
        return HORIZON_MAX

    @property
    def building_rows_max(self) -> int:
        return BUILDING_ROWS

    @property
    def buildings_summed(self) -> bool:
        """Some buildings are summed in an "other buildings" row."""
        return any(row.role == OTHERS for group in self.pages[0].buildings for row in group)

    @property
    def index_percent(self) -> str:
        return percent(self.index.index_rate_percent)

    @property
    def markup_rows(self) -> list[tuple[str, str]]:
        """The plan's markups by name, in order, with their percentages ("10 %")."""
        return [(markup.name, percent(markup.percent)) for markup in self.markups]

    @property
    def bars(self) -> list[tuple[Any, str]]:
        """The chart's segments with their fills."""
        return [(seg, SERIES_FILLS.get(seg.css_class, "#8c959f")) for seg in self.chart.segments]

    @property
    def funding_lowest(self) -> FundYear | None:
        """The fund's year with the lowest year-end balance (its first, when two tie)."""
        if self.funding is None:
            return None
        return next(
            row for row in self.funding.years if row.year == self.funding.summary.lowest_year
        )

    @property
    def changes_left_out(self) -> int:
        if self.since_version is None:
            return 0
        return len(self.since_version.differences) - len(self.changes)


def report_content(
    *, plan: Plan, prices: str = TODAY, today: date | None = None, progress: Progress | None = None
) -> ReportContent:
    """Everything the board report shows, for the plan's horizon from `today`'s year."""
    today = today or timezone.localdate()
    index = PriceIndex.of(plan)
    year_from, year_to = plan_horizon(plan=plan, year=today.year)
    ten_to = year_from + YEARS - 1
    today_budget, nominal_budget = plan_budgets(plan=plan, year_from=year_from, year_to=year_to)
    budget = nominal_budget if prices == NOMINAL else today_budget
    over_budget = years_over_budget(
        years=today_budget.years,
        totals=today_budget.year_totals,
        annual_budget=plan.annual_budget,
    )
    chart = cost_chart(
        years=budget.years,
        series=budget.by_building(),
        currency=plan.currency,
        annual_budget=plan.annual_budget if prices == TODAY else None,
        over_budget=frozenset(over_budget),
    )
    if progress:
        progress(STEP_FIGURES[0], STEP_FIGURES[1] // 2)
    sites = building_sites(
        plan=plan, building_ids=[row.building_id for row in budget.rows if row.building_id]
    )
    condition, poor_cost, poor_count = condition_summary(
        plan=plan, year_from=year_from, year_to=ten_to
    )
    critical = Suggestion.objects.filter(
        plan=plan, status=SuggestionStatus.OPEN, severity=Severity.CRITICAL
    ).order_by("created_at", "pk")
    largest_to = year_from + LARGEST_ACTIONS_YEARS - 1
    since = _since_latest_version(plan, list(range(year_from, year_to + 1)))

    def wording(first: int, last: int) -> str:
        return figure_wording(year_from=first, year_to=last, prices=prices, index=index)

    return ReportContent(
        plan=plan,
        prices=prices,
        index=index,
        markups=list(plan_markups(plan)),
        made_on=today,
        year_from=year_from,
        year_to=year_to,
        later_actions=Action.objects.filter(
            plan=plan, status=ActionStatus.PLANNED, planned_year__gt=year_to
        ).count(),
        budget=budget,
        pages=table_pages(
            budget=budget,
            buildings=budget_table(budget, sites),
            kinds=kinds_table(budget),
            wording=wording,
        ),
        over_budget=over_budget,
        key_figures=plan_key_figures(
            plan=plan, year=year_from, budget=today_budget if year_to == ten_to else None
        ),
        condition=condition,
        poor_condition_cost=poor_cost,
        poor_components=poor_count,
        high_risk_components=high_risk_components(plan=plan),
        fci=plans_condition(plan_ids=[plan.pk], year=year_from)[plan.pk],
        chart=chart,
        largest=largest_occurrences(
            plan=plan, year_from=year_from, year_to=largest_to, prices=prices
        ),
        largest_from=year_from,
        largest_to=largest_to,
        critical=list(critical.select_related("structure_node")[:CRITICAL_SUGGESTIONS]),
        critical_count=critical.count(),
        since_version=since,
        changes=change_rows(since) if since else [],
        action_count=Action.objects.filter(plan=plan).count(),
        node_count=StructureNode.objects.filter(plan=plan).count(),
        **_funding(plan),
    )


def _funding(plan: Plan) -> dict[str, Any]:
    """The funding page's figures: the fund's cash flow (planning.figures.funding) and its
    chart, when the plan has a fund."""
    fund = Fund.objects.filter(plan=plan).first()
    if fund is None:
        return {}
    fund.plan = plan
    figures = fund_figures(fund=fund)
    return {
        "funding": figures,
        "funding_chart": fund_chart(
            years=[row.year for row in figures.years],
            costs_cents=[row.cost_cents for row in figures.years],
            balances=[("Balance", [row.balance_cents for row in figures.years])],
            currency=plan.currency,
        ),
    }


def _since_latest_version(plan: Plan, years: list[int]) -> Comparison | None:
    latest = plan.versions.order_by("-number").first()
    if latest is None:
        return None
    return versions_compare(old=Side(plan, latest), new=Side(plan), years=years)
