"""The actions list of a plan (the Actions tab and the export): filters, order, and the
building each listed action belongs to.

Filters combine (AND): words of `q` each in the title, the node's name or its code; kind;
status; a year range (an action that occurs in it: a one-off planned in it, a recurring one
with an occurrence in it, as the budget counts them); a node's subtree (`node`) and a
building's subtree (`building`), both read from the stored paths
(planning.tree.selectors.node_subtree); a project, or "none" for actions without one. The order
is one column, ascending or descending, then year, title and id so pages never overlap.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import ExpressionWrapper, F, IntegerField, Q, QuerySet, Value

from core.text_order import natural
from planning.models import Action, ActionStatus, Completion, Plan, condition_q
from planning.tree.selectors import building_labels, node_subtree

NEXT_YEARS_SHOWN = 3

# Names sort naturally ("Building 2" before "Building 10"; core.text_order.natural).
SORT_COLUMNS: dict[str, tuple[Any, ...]] = {
    "year": (F("planned_year"),),
    "title": (natural("title"),),
    "node": (natural("node__name"),),
    "kind": (F("kind"),),
    "cost": (F("estimated_cost"),),
    "status": (F("status"),),
    "project": (natural("project__name"),),
}
DEFAULT_SORT = "year"
NO_PROJECT = "none"


@dataclass(frozen=True)
class ActionFilters:
    q: str = ""
    kind: str = ""
    status: str = ""
    year_from: int | None = None
    year_to: int | None = None
    node_id: uuid.UUID | None = None
    building_id: uuid.UUID | None = None
    project: str = ""  # "", NO_PROJECT or a project id
    condition: str = ""  # a key of planning.models.CONDITION_FILTERS: the node's condition
    sort: str = DEFAULT_SORT
    descending: bool = False


def actions_filtered(*, plan: Plan, filters: ActionFilters) -> QuerySet[Action]:
    actions = Action.objects.filter(plan=plan).select_related("node", "node__code", "project")
    for word in filters.q.split()[:10]:
        actions = actions.filter(
            Q(title__icontains=word)
            | Q(node__name__icontains=word)
            | Q(node__code__code__icontains=word)
        )
    if filters.kind:
        actions = actions.filter(kind=filters.kind)
    if filters.status:
        actions = actions.filter(status=filters.status)
    actions = _occurring(actions, filters.year_from, filters.year_to)
    for subtree_root in (filters.node_id, filters.building_id):
        if subtree_root is not None:
            actions = actions.filter(node_id__in=node_subtree(node_id=subtree_root).values("id"))
    if filters.condition:
        actions = actions.filter(condition_q(filters.condition, node="node__"))
    if filters.project == NO_PROJECT:
        actions = actions.filter(project__isnull=True)
    elif filters.project:
        actions = actions.filter(project_id=filters.project)
    columns = SORT_COLUMNS.get(filters.sort, SORT_COLUMNS[DEFAULT_SORT])
    order = [
        column.desc(nulls_last=True) if filters.descending else column.asc(nulls_last=True)
        for column in columns
    ]
    return actions.order_by(*order, "planned_year", "title", "id")


def _occurring(actions: QuerySet[Action], first: int | None, last: int | None) -> QuerySet[Action]:
    """The actions with an occurrence from `first` to `last` (either may be open)."""
    if last is not None:
        actions = actions.filter(planned_year__lte=last)
    if first is None:
        return actions
    if last is None:  # a recurring action occurs in some year after any year
        return actions.filter(Q(planned_year__gte=first) | Q(interval_years__isnull=False))
    # A recurring action planned before `first` next occurs in p + ceil((first - p) / n) * n
    # (integer division: both databases divide integers whole).
    n = F("interval_years")
    next_from_first = ExpressionWrapper(
        F("planned_year") + (Value(first) - F("planned_year") + n - 1) / n * n,
        output_field=IntegerField(),
    )
    return actions.alias(next_from_first=next_from_first).filter(
        Q(planned_year__gte=first)
        | Q(interval_years__isnull=False, planned_year__lt=first, next_from_first__lte=last)
    )


@dataclass
class ActionRow:
    action: Action
    building: str
    completion: Completion | None = None  # the latest Mark done of the action

    @property
    def actual_cost(self) -> Decimal | None:
        """What the latest completed work cost, when it was recorded."""
        return self.completion.actual_cost if self.completion else None

    @property
    def next_years(self) -> list[int]:
        """A recurring planned action's next occurrences (its planned year first)."""
        action = self.action
        if action.interval_years is None or action.status != ActionStatus.PLANNED:
            return []
        return [
            action.planned_year + step * action.interval_years for step in range(NEXT_YEARS_SHOWN)
        ]


def action_rows(*, plan: Plan, actions: list[Action]) -> list[ActionRow]:
    """The actions of one page with the building each one's node is in (its stored building,
    labelled as in the budget and the exports: planning.tree.selectors.building_labels)."""
    labels = building_labels(
        plan=plan, building_ids={a.node.building_id for a in actions if a.node.building_id}
    )
    latest: dict[Any, Completion] = {}
    for completion in Completion.objects.filter(action__in=actions).order_by(
        "completed_on", "created_at", "pk"
    ):
        latest[completion.action_id] = completion  # the last one read is the latest
    return [
        ActionRow(
            action=action,
            building=labels.get(action.node.building_id, "") if action.node.building_id else "",
            completion=latest.get(action.pk),
        )
        for action in actions
    ]
