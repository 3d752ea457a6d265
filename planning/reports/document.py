"""The board report: a PDF of one plan for a board meeting (docs/design.md "Board report").

Its content is read here (`report_content`), laid out by the template
`planning/report/board.html` with static/css/board-report.css, and printed to PDF by
WeasyPrint (`report_pdf`): HTML and CSS with paged media (page size, running footer with page
numbers) rendered in-process, with no browser to start or keep alive in a worker.

Every amount comes from planning.figures (the budget, key figures, chart, totals), for the
plan's whole horizon (planning.figures.totals.plan_horizon: this year to the last planned
year, ten to thirty years) in the chosen prices; the key figures and the condition summary are
the ten years from this year in today's prices, as everywhere else. The words that state a
figure's years and prices are planning.figures.prices' (`figure_wording`, `prices_wording`),
from the same PriceIndex that computed the figure, so a caption cannot claim markups the figure
does not carry. The report adds nothing up itself beyond subtotals of the budget's own cells
(a site's buildings, the years of one page).

What grows with the plan is bounded: the budget tables show the costliest BUILDING_ROWS
buildings, the others summed per site in one row; the largest occurrences of the next five
years are LARGEST_ACTIONS rows, the critical suggestions CRITICAL_SUGGESTIONS rows, the changes
since the last adopted version CHANGES_LISTED rows, each with the number left out.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Count
from django.template.loader import render_to_string
from django.utils import timezone

from core.text_order import natural_key
from planning.core.money import amount_of, cents_of, half_up, money_format
from planning.figures.budget import NO_BUILDING, Budget, BudgetRow, plan_budgets
from planning.figures.chart import Chart, cost_chart
from planning.figures.key_figures import PlanKeyFigures, plan_key_figures
from planning.figures.occurrences import live_actions, occurrence_years, year_cents
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
from planning.figures.totals import HORIZON_MAX, YEARS, plan_horizon, planned_total
from planning.models import (
    CENT,
    Action,
    ActionStatus,
    ConditionGrade,
    NodeKind,
    Plan,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.records.versions import (
    ActionDifference,
    ActionState,
    Comparison,
    Side,
    versions_compare,
)
from planning.tree.selectors import Site, building_labels, building_sites

BUILDING_ROWS = 40
PAGE_YEARS = 10  # the years of one page of the budget tables
LARGEST_ACTIONS = 20
LARGEST_ACTIONS_YEARS = 5
CRITICAL_SUGGESTIONS = 25
CHANGES_LISTED = 15
POOR_GRADES = (2, 3)  # the condition summary's "moderate or worse"
EXAMPLE_COST = Decimal(100_000)  # the assumptions page's worked example of the nominal prices
EXAMPLE_AFTER_YEARS = 5
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


@dataclass(frozen=True)
class ConditionRow:
    label: str
    components: int
    cost: Decimal  # the ten years from this year, today's prices, of actions on these components


@dataclass(frozen=True)
class ChangeRow:
    """One change since the last adopted version, said in words."""

    kind: str  # added, removed, changed
    title: str
    building: str
    what: list[str]  # "status planned → done", "year 2027 → 2029", "done 2026-05-04, next 2031"


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
    def changes_left_out(self) -> int:
        if self.since_version is None:
            return 0
        return len(self.since_version.differences) - len(self.changes)


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
    ordered = sorted(
        by_site.items(),
        key=lambda item: (
            item[0] is None,
            natural_key(item[0].name) if item[0] else (),
            str(item[0].id) if item[0] else "",
        ),
    )
    with_sites = any(site is not None for site in by_site)
    groups: list[list[TableRow]] = []
    for site, rows in ordered:
        rows.sort(key=lambda row: (natural_key(row.name), str(row.building_id)))
        shown = [row for row in rows if id(row) in kept]
        rest = [row for row in rows if id(row) not in kept]
        name = site.name if site else "Buildings without a site"
        subtotal = _summed(rows, width)
        if with_sites and not shown:  # a site of small buildings: one line says it all
            noun = "building" if len(rows) == 1 else "buildings"
            label = f"{name} ({len(rows):,} {noun})"
            groups.append([TableRow(label, SUBTOTAL, subtotal, sum(subtotal, CENT * 0))])
            continue
        group = [TableRow(name, SITE)] if with_sites else []
        group.extend(TableRow(row.name, BUILDING, row.cells, row.total) for row in shown)
        if rest:
            group.append(_others(rest, width))
        if with_sites:
            label = f"Total {site.name}" if site else "Total without a site"
            group.append(TableRow(label, SUBTOTAL, subtotal, sum(subtotal, CENT * 0)))
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


def condition_summary(
    *, plan: Plan, year_from: int, year_to: int
) -> tuple[list[ConditionRow], Decimal, int]:
    """Components per condition grade (3 to 0, then not graded) with the cost planned on them
    from `year_from` to `year_to` in today's prices, and that cost on the components graded
    2-3 with their number."""
    components = StructureNode.objects.filter(plan=plan, kind=NodeKind.COMPONENT)
    counts = dict(components.order_by().values_list("condition_grade").annotate(count=Count("pk")))
    years = list(range(year_from, year_to + 1))
    live = live_actions(plan=plan, year_from=year_from, year_to=year_to).filter(
        node__kind=NodeKind.COMPONENT
    )
    costs = year_cents(live, key="node__condition_grade", years=years)
    grades: list[tuple[int | None, str]] = [
        (grade, label) for grade, label in reversed(ConditionGrade.choices)
    ]
    rows = [
        ConditionRow(str(label), counts.get(grade, 0), costs.total(grade))
        for grade, label in [*grades, (None, "not graded")]
    ]
    poor = planned_total(
        actions=Action.objects.filter(
            plan=plan, node__kind=NodeKind.COMPONENT, node__condition_grade__in=POOR_GRADES
        ),
        year_from=year_from,
        year_to=year_to,
    )
    return rows, poor, sum(counts.get(grade, 0) for grade in POOR_GRADES)


def _every(interval: int | None) -> str:
    return "once" if interval is None else f"every {interval} years"


def _live_cents(state: ActionState | None) -> int:
    return state.cost_cents if state and state.status == ActionStatus.PLANNED else 0


def _status(state: ActionState) -> str:
    return state.status_label.lower()


def change_wording(
    difference: ActionDifference,
    node_names: dict[str, str],
    building_names: dict[str, str] | None = None,
) -> list[str]:
    """What changed in one action, each change with its before and after: "status planned →
    done", "year 2027 → 2029", "estimated cost 25,000.00 → 30,000.00", a recurring action's
    completion as "done 2026-05-04, next 2031"; an added or removed action with its year and
    cost. A row never shows a figure unchanged without saying what did change."""
    before, after = difference.before, difference.after
    if before is None or after is None:
        state = after or before
        assert state is not None
        said = f"{state.planned_year}, {money_format(state.estimated_cost)}"
        if state.interval_years is not None:
            said += f", {_every(state.interval_years)}"
        if state.status != ActionStatus.PLANNED:
            said += f", {_status(state)}"
        return [f"added: {said}" if after else f"removed (was {said})"]
    words = []
    if difference.completed_on is not None:  # said even when the next year stayed the same
        words.append(f"done {difference.completed_on.isoformat()}, next {after.planned_year}")
    for name in difference.fields:
        if name == "planned_year":
            if difference.completed_on is None:
                words.append(f"year {before.planned_year} → {after.planned_year}")
        elif name == "estimated_cost":
            words.append(
                "estimated cost "
                f"{money_format(before.estimated_cost)} → {money_format(after.estimated_cost)}"
            )
        elif name == "interval_years":
            words.append(
                f"repeats {_every(before.interval_years)} → {_every(after.interval_years)}"
            )
        elif name == "status":
            words.append(f"status {_status(before)} → {_status(after)}")
        elif name == "node_id":
            words.append(
                f"moved from {node_names.get(before.node_id, '?')} "
                f"to {node_names.get(after.node_id, '?')}"
            )
        elif name == "title":
            words.append(f"renamed from “{before.title}”")
        elif name == "building_id" and "node_id" not in difference.fields:
            names = building_names or {}
            words.append(
                f"building {names.get(before.building_id or '', '(none)')} "
                f"→ {names.get(after.building_id or '', '(none)')}"
            )
    return words


def change_rows(comparison: Comparison, *, limit: int = CHANGES_LISTED) -> list[ChangeRow]:
    """The `limit` changes that move the most planned money (an action's cost while planned;
    done or cancelled it counts for nothing), said in words."""

    def moved(difference: ActionDifference) -> int:
        return abs(_live_cents(difference.after) - _live_cents(difference.before))

    kept = sorted(comparison.differences, key=moved, reverse=True)[:limit]
    rows = []
    for difference in kept:
        state = difference.state
        building = comparison.building_names.get(state.building_id or "", "")
        rows.append(
            ChangeRow(
                kind=difference.kind,
                title=state.title,
                building=building,
                what=change_wording(difference, comparison.node_names, comparison.building_names),
            )
        )
    return rows


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
    over_budget = []
    if plan.annual_budget is not None:
        over_budget = [
            year
            for year, total in zip(today_budget.years, today_budget.year_totals, strict=True)
            if total > plan.annual_budget
        ]
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
