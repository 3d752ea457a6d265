"""The plan's actions as export rows (the Actions tab's download, docs/subsystems/exports.md): the
actions the list's filters match, in its order, each with its node's path and building, its cost
in today's prices and nominal, and its latest completion.

Paths come from one read of the plan's nodes (names, stored paths and buildings), so an export
of 100,000 actions makes a fixed number of queries; a building is named by its label
(planning.tree.selectors.building_labels, as the budget page does). CSV or XLSX is the caller's
choice (planning.transfer.csv_stream, planning.transfer.xlsx); the workbook has the title block
above the table, with the filters in words.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from django.db.models import OuterRef, Subquery

from planning.core.money import amount_of, cents_of
from planning.figures.prices import PriceIndex
from planning.models import ActionKind, ActionStatus, Completion, Plan, StructureNode
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.transfer.exports.title import title_block
from planning.transfer.exports.units import nominal_unit, today_unit
from planning.transfer.xlsx import Sheet
from planning.tree.paths import path_ids
from planning.tree.selectors import building_labels


def action_header(plan: Plan) -> tuple[str, ...]:
    return (
        "Node path",
        "Building",
        "Code",
        "Title",
        "Kind",
        "Year",
        f"Estimated cost ({today_unit(plan)})",
        f"Nominal cost ({nominal_unit(plan)})",
        "Repeats every (years)",
        "Status",
        "Project",
        "Completed on",
        f"Actual cost ({plan.currency})",
    )


class _Places:
    """Each node's path (names from the root, " / "-joined) and its building's label."""

    def __init__(self, plan: Plan) -> None:
        self.rows = {
            node_id: (name, path, building_id)
            for node_id, name, path, building_id in StructureNode.objects.filter(
                plan=plan
            ).values_list("id", "name", "path", "building_id")
        }
        self.labels = building_labels(
            plan=plan, building_ids={row[2] for row in self.rows.values() if row[2] is not None}
        )
        self._paths: dict[Any, str] = {}

    def path(self, node_id: Any) -> str:
        if node_id not in self._paths:
            name, path, _building = self.rows[node_id]
            names = [self.rows[a][0] for a in path_ids(path) if a in self.rows]
            self._paths[node_id] = " / ".join([*names, name])
        return self._paths[node_id]

    def building(self, node_id: Any) -> str:
        return self.labels.get(self.rows[node_id][2], "")


def action_rows(
    *, plan: Plan, filters: ActionFilters, labels: bool = False
) -> Iterator[tuple[Any, ...]]:
    """The header, then one row per action matching `filters`, in the list's order. The
    nominal cost is that of the action's planned year (a recurring action's next occurrence).
    Kinds and statuses are codes ("replacement"), or their labels ("Replacement") if `labels`;
    the plan import reads both."""
    kind_of = dict(ActionKind.choices) if labels else {}
    status_of = dict(ActionStatus.choices) if labels else {}
    places = _Places(plan)
    index = PriceIndex.of(plan)
    yield action_header(plan)
    latest = Completion.objects.filter(action=OuterRef("pk")).order_by(
        "-completed_on", "-created_at", "-pk"
    )
    actions = (
        actions_filtered(plan=plan, filters=filters)
        .annotate(
            done_on=Subquery(latest.values("completed_on")[:1]),
            actual=Subquery(latest.values("actual_cost")[:1]),
        )
        .values_list(
            "node_id",
            "node__code__code",
            "title",
            "kind",
            "planned_year",
            "estimated_cost",
            "interval_years",
            "status",
            "project__name",
            "done_on",
            "actual",
        )
    )
    # Empty text, not None, for an action without code, project or completion: the same cell
    # in both formats. The completion is the latest Mark done (planned and actual side by side).
    for row in actions.iterator(2000):
        node_id, code, title, kind, year, cost, interval, status, project, done_on, actual = row
        yield (
            places.path(node_id),
            places.building(node_id),
            code or "",
            title,
            kind_of.get(kind, kind),
            year,
            cost,
            amount_of(index.nominal_cents(cents_of(cost), year)),
            interval if interval is not None else "",
            status_of.get(status, status),
            project or "",
            done_on or "",
            actual if actual is not None else "",
        )


def action_sheet(
    *, plan: Plan, filters: ActionFilters, described: str, made_on: datetime.date
) -> Sheet:
    """The actions workbook's sheet: the title block (with the filters in words, `described`),
    then the rows of `action_rows` with labels, the autofilter over them."""
    index = PriceIndex.of(plan)
    return Sheet(
        name="Actions",
        title=title_block(
            plan=plan,
            title=f"Actions of plan #{plan.number} {plan.name}",
            prices=(
                "estimated cost in today's prices; nominal cost in its planned year "
                f"({index.describe()})"
            ),
            made_on=made_on,
            more=[("Filters", described or "none: every action of the plan")],
        ),
        table=action_rows(plan=plan, filters=filters, labels=True),
    )
