"""The fully funded balance (docs/subsystems/funding.md "Percent funded"):

    FFB_t = round_half_up( sum over counted components of cost x min(max(t - since, 0), L) / L )

over the components with a replacement action (the component's live action of kind replacement
with the earliest planned year, its next occurrence): `cost` is that action's estimated cost in
today's prices, `since` the component's install year, else the year of its last completed
replacement, and L its useful life (the organisation's effective catalog's service life of the
component's code: its override, else the code's own). A component without `since` or without L
is left out, counted and listed (`LeftOut`). The sum is exact (a Fraction per distinct life) and
rounded once per year, half up to the cent.

`funded_components` reads the components of many plans in four queries, whatever their number
(the portfolio reads 200 plans at once); `ffb_years` is pure.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import CharField, Max
from django.db.models.functions import Cast

from core.chunks import IN_LIST_SIZE, chunked
from planning.core.money import half_up
from planning.figures.occurrences import cents_column
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    CodeOverride,
    Completion,
    NodeKind,
    Plan,
)

NO_SINCE = "no install year and no completed replacement"
NO_LIFE = "no service life in the catalog"


@dataclass(frozen=True)
class FundedComponent:
    node_id: uuid.UUID
    cost_cents: int
    since: int
    life: int


@dataclass(frozen=True)
class LeftOut:
    node_id: uuid.UUID
    reason: str


@dataclass
class PlanComponents:
    """A plan's components as FFB counts them, and those it leaves out."""

    counted: list[FundedComponent] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)


def _text(column: str) -> Cast:
    return Cast(column, output_field=CharField())


def _uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def funded_components(plan_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, PlanComponents]:
    """Each plan's components with a replacement action (`PlanComponents`), by plan id: three
    queries for any number of plans (the replacement actions, the plans' organisations, their
    service-life overrides), and one per IN_LIST_SIZE components without an install year (their
    last completed replacements). Keys come as text and costs as
    whole cents (as planning.figures.occurrences.nominal_rows reads them: a UUID and a Decimal
    per row from the driver cost more than the rest of the pass)."""
    found: dict[uuid.UUID, PlanComponents] = {_uuid(pk): PlanComponents() for pk in plan_ids}
    if not found:
        return found
    replacements = Action.objects.filter(
        plan_id__in=list(found),
        status=ActionStatus.PLANNED,
        kind=ActionKind.REPLACEMENT,
        node__kind=NodeKind.COMPONENT,
    ).order_by()
    rows = replacements.values_list(
        _text("node_id"),
        "planned_year",
        cents_column(),
        _text("plan_id"),
        "node__install_year",
        _text("node__code_id"),
        "node__code__service_life_years",
    )
    # The next occurrence: per component, the replacement action planned earliest (the
    # costlier of two in one year).
    chosen: dict[str, tuple[Any, ...]] = {}
    for row in rows:
        held = chosen.get(row[0])
        if held is None or (row[1], -row[2]) < (held[1], -held[2]):
            chosen[row[0]] = row
    plans = {
        str(plan_id): (_uuid(plan_id), str(organisation_id))
        for plan_id, organisation_id in Plan.objects.filter(pk__in=list(found)).values_list(
            _text("pk"), _text("organisation_id")
        )
    }
    overrides = {
        (organisation, code): life
        for organisation, code, life in CodeOverride.objects.filter(
            organisation_id__in={organisation for _, organisation in plans.values()},
            service_life_years__isnull=False,
        ).values_list(_text("organisation_id"), _text("code_id"), "service_life_years")
    }
    # Only the components without an install year need their last replacement: looked up by
    # node (indexed), in chunks a database's parameter limit allows.
    without_install = [uuid.UUID(node) for node, row in chosen.items() if row[4] is None]
    replaced: dict[str, Any] = {}
    for chunk in chunked(without_install, IN_LIST_SIZE):
        replaced.update(
            Completion.objects.filter(
                action__node_id__in=chunk,
                action__kind=ActionKind.REPLACEMENT,
            )
            .order_by()
            .values(node=_text("action__node_id"))
            .annotate(last=Max("completed_on"))
            .values_list("node", "last")
        )
    for node, (_, _, cents, plan_key, install, code, life) in chosen.items():
        plan_id, organisation = plans[plan_key]
        plan = found[plan_id]
        life = overrides.get((organisation, code), life) if code else None
        last = replaced.get(node)
        since = install if install is not None else (last.year if last else None)
        if since is None:
            plan.left_out.append(LeftOut(node_id=_uuid(node), reason=NO_SINCE))
        elif not life:
            plan.left_out.append(LeftOut(node_id=_uuid(node), reason=NO_LIFE))
        else:
            plan.counted.append(
                FundedComponent(node_id=_uuid(node), cost_cents=cents, since=since, life=life)
            )
    return found


def ffb_years(components: Sequence[FundedComponent], years: Sequence[int]) -> list[int]:
    """FFB_t in cents for each of `years` (consecutive, ascending). Per life L, the integer
    sum of cost x clamped age is kept as a value and a slope that changes where a component's
    age starts and stops counting, so the work is components + years, not their product."""
    if not years:
        return []
    first, width = years[0], len(years)
    by_life: dict[int, tuple[list[int], list[int]]] = {}
    for component in components:
        value, slope = by_life.setdefault(component.life, ([0], [0] * (width + 1)))
        age = min(max(first - component.since, 0), component.life)
        value[0] += component.cost_cents * age
        # The age grows by one in year y for since < y <= since + life.
        grow_from = max(component.since + 1, first + 1) - first
        grow_to = component.since + component.life + 1 - first  # the first offset it stops
        if grow_from < grow_to and grow_from <= width:
            slope[grow_from] += component.cost_cents
            slope[min(grow_to, width)] -= component.cost_cents
    totals = [Fraction(0)] * width
    for life, (value, slope) in by_life.items():
        running, rate = value[0], 0
        for offset in range(width):
            if offset:
                rate += slope[offset]
                running += rate
            totals[offset] += Fraction(running, life)
    return [half_up(total) for total in totals]
