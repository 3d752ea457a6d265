"""The board report: a PDF of one plan for a board meeting (docs/design.md "Board report").

Its content is read here (`report_content`), laid out by the template
`planning/report/board.html` with static/css/board-report.css, and printed to PDF by
WeasyPrint (`report_pdf`): HTML and CSS with paged media (page size, running footer with page
numbers) rendered in-process, with no browser to start or keep alive in a worker. The figures
are the planning page's own (planning.figures.budget, planning.figures.key_figures,
planning.figures.chart) for the ten years from this year, in the chosen prices.

What grows with the plan is bounded: the budget table shows the costliest BUILDING_ROWS
buildings with the others summed in one row, the largest occurrences of the next five years
are LARGEST_ACTIONS rows, the critical suggestions CRITICAL_SUGGESTIONS rows, each with the
number left out.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from api.text_order import natural_key
from planning.figures.budget import NOMINAL, TODAY, Budget, BudgetRow, live_actions, plan_budgets
from planning.figures.chart import Chart, cost_chart
from planning.figures.key_figures import YEARS, PlanKeyFigures, plan_key_figures
from planning.figures.occurrences import occurrence_years
from planning.figures.prices import PriceIndex
from planning.models import Action, Plan, Severity, StructureNode, Suggestion, SuggestionStatus
from planning.money import amount_of, cents_of
from planning.tree import building_labels
from planning.versions import ActionDifference, Comparison, Side, versions_compare

BUILDING_ROWS = 40
LARGEST_ACTIONS = 20
LARGEST_ACTIONS_YEARS = 5
CRITICAL_SUGGESTIONS = 25
CHANGES_LISTED = 15
STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "board-report.css"

# Steps of the report job, with the share of the bar each one reaches when done.
STEP_FIGURES = ("Reading the figures", 60)
STEP_PDF = ("Drawing the PDF", 100)

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


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of a planned action in a year, at its cost in the report's prices."""

    year: int
    cost: Decimal
    title: str
    node_name: str
    building: str
    recurring: bool


@dataclass
class ReportContent:
    plan: Plan
    prices: str  # TODAY or NOMINAL
    price_index: str  # the settings in words
    made_on: date
    year_from: int
    year_to: int
    budget: Budget
    building_rows: list[BudgetRow]
    other_buildings: BudgetRow | None  # the buildings beyond BUILDING_ROWS, summed
    over_budget: list[int]  # years above the annual budget (today's prices)
    key_figures: PlanKeyFigures
    chart: Chart
    largest: list[Occurrence]
    largest_from: int
    largest_to: int
    critical: list[Suggestion]
    critical_count: int
    since_version: Comparison | None  # the plan now against its latest adopted version
    action_count: int
    node_count: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def bars(self) -> list[tuple[Any, str]]:
        """The chart's segments with their fills."""
        return [(seg, SERIES_FILLS.get(seg.css_class, "#8c959f")) for seg in self.chart.segments]

    @property
    def largest_changes(self) -> list[ActionDifference]:
        """The changes since the version that move the most money, at most CHANGES_LISTED."""
        if self.since_version is None:
            return []

        def moved(difference: ActionDifference) -> int:
            before = difference.before.cost_cents if difference.before else 0
            after = difference.after.cost_cents if difference.after else 0
            return abs(after - before)

        return sorted(self.since_version.differences, key=moved, reverse=True)[:CHANGES_LISTED]

    @property
    def prices_label(self) -> str:
        return "nominal prices" if self.prices == NOMINAL else "today's prices"


def _building_rows(budget: Budget) -> tuple[list[BudgetRow], BudgetRow | None]:
    """The costliest BUILDING_ROWS buildings in natural order of their names, the rest summed."""
    if len(budget.rows) <= BUILDING_ROWS + 1:  # a row "1 other building" says nothing more
        return sorted(budget.rows, key=lambda row: natural_key(row.name)), None
    kept = {id(row) for row in heapq.nlargest(BUILDING_ROWS, budget.rows, key=lambda r: r.total)}
    shown = sorted(
        (row for row in budget.rows if id(row) in kept), key=lambda row: natural_key(row.name)
    )
    rest = [row for row in budget.rows if id(row) not in kept]
    width = len(budget.years)
    other = BudgetRow(
        building_id=None,
        name=f"{len(rest):,} other buildings",
        cells=[sum((row.cells[i] for row in rest), Decimal(0)) for i in range(width)],
        counts=[sum(row.counts[i] for row in rest) for i in range(width)],
        total=sum((row.total for row in rest), Decimal(0)),
    )
    return shown, other


def largest_occurrences(
    *, plan: Plan, year_from: int, year_to: int, prices: str, limit: int = LARGEST_ACTIONS
) -> list[Occurrence]:
    """The `limit` costliest occurrences of planned actions from `year_from` to `year_to`
    (a recurring action once per occurrence), in the given prices, costliest first. One pass
    over the live actions of the range, keeping the top `limit` on a heap."""
    index = PriceIndex.of(plan)
    nominal = prices == NOMINAL and not index.is_neutral
    rows = (
        live_actions(plan=plan, year_from=year_from, year_to=year_to)
        .values_list("pk", "planned_year", "interval_years", "estimated_cost")
        .iterator(chunk_size=5000)
    )
    top: list[tuple[int, int, Any]] = []  # (cents, -year, action id): ties go to the earlier
    for pk, planned_year, interval, cost in rows:
        cents = cents_of(Decimal(cost))
        for year in occurrence_years(
            planned_year=planned_year, interval_years=interval, first=year_from, last=year_to
        ):
            value = index.nominal_cents(cents, year) if nominal else cents
            item = (value, -year, pk)
            if len(top) < limit:
                heapq.heappush(top, item)
            elif item > top[0]:
                heapq.heapreplace(top, item)
    ranked = sorted(top, reverse=True)
    actions = Action.objects.select_related("node").in_bulk({pk for _, _, pk in ranked})
    building_ids = {
        actions[pk].node.building_id for _, _, pk in ranked if actions[pk].node.building_id
    }
    labels = building_labels(plan=plan, building_ids=list(building_ids))
    found = []
    for cents, minus_year, pk in ranked:
        action = actions[pk]
        node: StructureNode = action.node
        found.append(
            Occurrence(
                year=-minus_year,
                cost=amount_of(cents),
                title=action.title,
                node_name=node.name,
                building=labels.get(node.building_id, "") if node.building_id else "",
                recurring=action.interval_years is not None,
            )
        )
    return found


def report_content(
    *, plan: Plan, prices: str = TODAY, today: date | None = None, progress: Progress | None = None
) -> ReportContent:
    """Everything the board report shows, for the ten years from `today`'s year."""
    today = today or timezone.localdate()
    year_from, year_to = today.year, today.year + YEARS - 1
    today_budget, nominal_budget = plan_budgets(plan=plan, year_from=year_from, year_to=year_to)
    budget = nominal_budget if prices == NOMINAL else today_budget
    over_budget = []
    if plan.annual_budget is not None:
        over_budget = [
            year
            for year, total in zip(today_budget.years, today_budget.year_totals, strict=True)
            if total > plan.annual_budget
        ]
    shown, other = _building_rows(budget)
    chart = cost_chart(
        years=budget.years,
        series=budget.by_building(),
        currency=plan.currency,
        annual_budget=plan.annual_budget if prices == TODAY else None,
        over_budget=frozenset(over_budget),
    )
    if progress:
        progress(STEP_FIGURES[0], STEP_FIGURES[1] // 2)
    critical = Suggestion.objects.filter(
        plan=plan, status=SuggestionStatus.OPEN, severity=Severity.CRITICAL
    ).order_by("created_at", "pk")
    largest_to = year_from + LARGEST_ACTIONS_YEARS - 1
    return ReportContent(
        plan=plan,
        prices=prices,
        price_index=PriceIndex.of(plan).describe(),
        made_on=today,
        year_from=year_from,
        year_to=year_to,
        budget=budget,
        building_rows=shown,
        other_buildings=other,
        over_budget=over_budget,
        key_figures=plan_key_figures(plan=plan, year=year_from, budget=today_budget),
        chart=chart,
        largest=largest_occurrences(
            plan=plan, year_from=year_from, year_to=largest_to, prices=prices
        ),
        largest_from=year_from,
        largest_to=largest_to,
        critical=list(critical.select_related("structure_node")[:CRITICAL_SUGGESTIONS]),
        critical_count=critical.count(),
        since_version=_since_latest_version(plan, list(range(year_from, year_to + 1))),
        action_count=Action.objects.filter(plan=plan).count(),
        node_count=StructureNode.objects.filter(plan=plan).count(),
    )


def _since_latest_version(plan: Plan, years: list[int]) -> Comparison | None:
    latest = plan.versions.order_by("-number").first()
    if latest is None:
        return None
    return versions_compare(old=Side(plan, latest), new=Side(plan), years=years)


def report_html(content: ReportContent) -> str:
    return render_to_string("planning/report/board.html", {"report": content, "plan": content.plan})


def report_pdf(
    *, plan: Plan, prices: str = TODAY, today: date | None = None, progress: Progress | None = None
) -> bytes:
    """The board report of `plan` as PDF bytes."""
    # WeasyPrint loads its text-layout libraries (Pango) when imported: only here, so a process
    # that never prints a report never needs them.
    import weasyprint

    content = report_content(plan=plan, prices=prices, today=today, progress=progress)
    if progress:
        progress(STEP_FIGURES[0], STEP_FIGURES[1])
    html = report_html(content)
    stylesheet = weasyprint.CSS(filename=str(STYLESHEET))
    pdf: bytes = weasyprint.HTML(string=html).write_pdf(stylesheets=[stylesheet])
    if progress:
        progress(STEP_PDF[0], STEP_PDF[1])
    return pdf


def report_filename(plan: Plan, made_on: date) -> str:
    return f"plan-{plan.number}-board-report-{made_on.isoformat()}.pdf"
