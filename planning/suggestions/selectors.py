"""Reads of the suggestions: a plan's open suggestions in the list order (the API and the
action-planning view), one suggestion of a plan, and, for the action-planning view, the actions
by node and year with their per-year totals and the bar chart drawn from them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, QuerySet, Sum
from django.http import Http404

from planning.models import CENT, Action, ActionStatus, Code, Plan, Suggestion, SuggestionStatus
from planning.selectors import structure_flat

CHART_HEIGHT = 160  # px of the tallest bar
CHART_BAR = 28  # px per year (bar and gap)

# An open suggestion exactly as spec 2.3 lists it: ids as strings, `created_at` ISO 8601 UTC
# with microseconds and "Z" (fixed width, so it sorts as text).
SuggestionPayload = dict[str, Any]
LIST_ORDER = ("severity_rank", "created_at", "id")


def iso_utc(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def suggestion_payload(suggestion: Suggestion) -> SuggestionPayload:
    return {
        "id": str(suggestion.id),
        "suggestion_type": suggestion.suggestion_type,
        "severity": suggestion.severity,
        "title": suggestion.title,
        "body": suggestion.body,
        "structure_node_id": str(suggestion.structure_node_id),
        "recommended_action_json": suggestion.recommended_action_json,
        "created_at": iso_utc(suggestion.created_at),
    }


def suggestions_open_queryset(*, plan: Plan) -> QuerySet[Suggestion]:
    """The plan's open suggestions, ordered by severity (critical first), created_at, id."""
    return (
        Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN)
        .order_by(*LIST_ORDER)
        .only(
            "id",
            "suggestion_type",
            "severity",
            "title",
            "body",
            "structure_node_id",
            "recommended_action_json",
            "created_at",
        )
    )


def suggestions_open(*, plan: Plan) -> list[SuggestionPayload]:
    return [suggestion_payload(s) for s in suggestions_open_queryset(plan=plan)]


def suggestion_get(*, plan: Plan, suggestion_id: Any) -> Suggestion:
    try:
        return Suggestion.objects.get(plan=plan, pk=suggestion_id)
    except (Suggestion.DoesNotExist, ValueError):
        raise Http404("No such suggestion") from None


def codes_by_id(*, code_ids: set[str]) -> dict[str, Code]:
    return {str(code.pk): code for code in Code.objects.filter(pk__in=code_ids)}


@dataclass
class GridCell:
    total: Decimal = Decimal("0.00")
    count: int = 0


@dataclass
class GridRow:
    node: Any
    depth: int
    cells: list[GridCell] = field(default_factory=list)
    total: Decimal = Decimal(0)


@dataclass
class ChartBar:
    year: int
    total: Decimal
    x: int
    y: int
    height: int


@dataclass
class PlanningGrid:
    years: list[int]
    rows: list[GridRow]
    year_totals: list[Decimal]
    total: Decimal
    bars: list[ChartBar]
    chart_width: int
    chart_height: int
    nodes_by_id: dict[str, Any]


def planning_grid(*, plan: Plan) -> PlanningGrid:
    """Planned (live) actions summed by node and year; nodes in tree order, years contiguous
    from the first to the last planned year. Done and cancelled actions are history and left
    out, as they are by the suggestion rules."""
    sums: dict[Any, dict[int, GridCell]] = defaultdict(dict)
    year_sums: dict[int, Decimal] = defaultdict(lambda: CENT * 0)
    for node_id, year, total, count in (
        Action.objects.filter(plan=plan, status=ActionStatus.PLANNED)
        .values("node_id", "planned_year")
        .order_by()
        .annotate(total=Sum("estimated_cost"), count=Count("id"))
        .values_list("node_id", "planned_year", "total", "count")
    ):
        total = Decimal(total).quantize(CENT)  # SQLite sums lose the scale
        sums[node_id][year] = GridCell(total=total, count=count)
        year_sums[year] += total
    years = list(range(min(year_sums), max(year_sums) + 1)) if year_sums else []
    rows = []
    flat_tree = structure_flat(plan=plan)
    for item in flat_tree:
        by_year = sums.get(item.node.pk)
        if not by_year:
            continue
        cells = [by_year.get(year, GridCell()) for year in years]
        rows.append(
            GridRow(
                node=item.node,
                depth=item.depth,
                cells=cells,
                total=sum((c.total for c in cells), CENT * 0),
            )
        )
    year_totals = [year_sums.get(year, CENT * 0) for year in years]
    peak = max(year_totals, default=Decimal(0))
    bars = []
    for index, (year, total) in enumerate(zip(years, year_totals, strict=True)):
        height = int(total / peak * CHART_HEIGHT) if peak > 0 else 0
        if total > 0:
            height = max(height, 1)
        bars.append(
            ChartBar(
                year=year,
                total=total,
                x=index * CHART_BAR + 4,
                y=CHART_HEIGHT + 10 - height,
                height=height,
            )
        )
    return PlanningGrid(
        years=years,
        rows=rows,
        year_totals=year_totals,
        total=sum(year_totals, CENT * 0),
        bars=bars,
        chart_width=max(len(years) * CHART_BAR + 8, 120),
        chart_height=CHART_HEIGHT + 40,
        nodes_by_id={str(item.node.pk): item.node for item in flat_tree},
    )
