"""The board report's condition summary (docs/subsystems/board-report.md): the plan's components
per condition grade with the cost planned on them (ten years from this year, today's prices, as
planning.figures sums it), that cost on the components in poor condition (POOR_GRADES), and how
many components are at a high risk (grade x consequence, HIGH_RISK or more). The grades are the
components' current ones, their latest surveys (docs/subsystems/surveys-and-files.md "Condition
surveys"), as a building's survey report (planning.reports.survey) lists them."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, F

from planning.figures.occurrences import live_actions, year_cents
from planning.figures.totals import planned_total
from planning.models import Action, ConditionGrade, NodeKind, Plan, StructureNode

POOR_GRADES = (2, 3)  # the condition summary's "moderate or worse"
HIGH_RISK = 6  # grade x consequence from which a component counts as a high risk


@dataclass(frozen=True)
class ConditionRow:
    label: str
    components: int
    cost: Decimal  # the ten years from this year, today's prices, of actions on these components


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


def high_risk_components(*, plan: Plan) -> int:
    """The plan's components whose grade x consequence is HIGH_RISK or more."""
    return (
        StructureNode.objects.filter(
            plan=plan,
            kind=NodeKind.COMPONENT,
            condition_grade__isnull=False,
            condition_consequence__isnull=False,
        )
        .annotate(risk=F("condition_grade") * F("condition_consequence"))
        .filter(risk__gte=HIGH_RISK)
        .count()
    )
