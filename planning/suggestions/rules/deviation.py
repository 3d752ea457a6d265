"""Rule 2, deviation: a planned replacement whose cost is off its code's reference (unit cost
x quantity), or whose year is off the year it is due (install year + service life), by more
than the thresholds. Pure: no database."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from planning.models import ActionKind, ActionStatus, Severity, SuggestionType
from planning.suggestions.rules.records import PlanData, Thresholds, WantedSuggestion
from planning.suggestions.rules.texts import money, node_named

RATIO = Decimal("0.0001")


def cost_severity(
    estimated_cost: Decimal, reference: Decimal, thresholds: Thresholds
) -> str | None:
    """Severity of |estimated - reference| / reference, compared without dividing (exact)."""
    difference = abs(estimated_cost - reference)
    if difference > thresholds.cost_critical * reference:
        return Severity.CRITICAL
    if difference > thresholds.cost_warning * reference:
        return Severity.WARNING
    if difference > thresholds.cost_info * reference:
        return Severity.INFO
    return None


def timing_severity(gap: int, thresholds: Thresholds) -> str | None:
    if gap > thresholds.timing_warning:
        return Severity.WARNING
    if gap > thresholds.timing_info:
        return Severity.INFO
    return None


def deviation_suggestions(data: PlanData, thresholds: Thresholds) -> dict[str, WantedSuggestion]:
    planned, replacement = ActionStatus.PLANNED.value, ActionKind.REPLACEMENT.value
    nodes, codes = data.nodes, data.codes
    wanted: dict[str, WantedSuggestion] = {}
    for action in data.actions:
        if action.status != planned or action.kind != replacement:
            continue
        node = nodes.get(action.node_id)
        code = codes.get(node.code_id) if node and node.code_id else None
        if node is None or code is None:
            continue
        review = {
            "action": "review_action",
            "action_ids": [action.id],
            "filter": {"structure_node_id": node.id, "year": action.planned_year},
        }
        named = node_named(node, data)
        if code.unit_cost is not None and node.quantity is not None and node.quantity > 0:
            reference = code.unit_cost * node.quantity
            severity = (
                cost_severity(action.estimated_cost, reference, thresholds)
                if reference > 0
                else None
            )
            if severity is not None:
                deviation = abs(action.estimated_cost - reference) / reference
                fingerprint = f"deviation:cost:{action.id}"
                wanted[fingerprint] = WantedSuggestion(
                    fingerprint=fingerprint,
                    suggestion_type=SuggestionType.DEVIATION,
                    severity=severity,
                    title=f"Replacement cost of {named} in {action.planned_year} "
                    "deviates from the reference",
                    body=(
                        f"The replacement of {named} planned for {action.planned_year} is "
                        "estimated at "
                        f"{money(action.estimated_cost)}; the reference for {node.quantity} "
                        f"{code.unit or 'units'} of {code.code} {code.name} is "
                        f"{money(reference)} ({_percent(deviation)} off)."
                    ),
                    structure_node_id=node.id,
                    recommended_action_json={
                        **review,
                        "reference": {
                            "expected_cost": money(reference),
                            "actual": money(action.estimated_cost),
                            "deviation": f"{deviation.quantize(RATIO, rounding=ROUND_HALF_UP):f}",
                        },
                    },
                )
        if node.install_year is not None and code.service_life_years is not None:
            due = node.install_year + code.service_life_years
            gap = abs(action.planned_year - due)
            severity = timing_severity(gap, thresholds)
            if severity is not None:
                fingerprint = f"deviation:timing:{action.id}"
                wanted[fingerprint] = WantedSuggestion(
                    fingerprint=fingerprint,
                    suggestion_type=SuggestionType.DEVIATION,
                    severity=severity,
                    title=f"Replacement of {named} planned {gap} years "
                    f"{'after' if action.planned_year > due else 'before'} it is due",
                    body=(
                        f"{code.code} {code.name} lasts {code.service_life_years} years and "
                        f"{named} was installed in {node.install_year}, so its replacement "
                        f"{'is' if due >= thresholds.year else 'was'} due in {due}; it is "
                        f"planned for {action.planned_year}."
                        + _timing_advice(due, action.planned_year, thresholds.year)
                    ),
                    structure_node_id=node.id,
                    recommended_action_json={
                        **review,
                        "reference": {
                            "due_year": due,
                            "actual": action.planned_year,
                            "deviation": gap,
                        },
                    },
                )
    return wanted


def proposed_year(due: int, year: int) -> int:
    """The year a timing deviation proposes: the due year, or Y when that has passed (no
    proposed year is ever before Y)."""
    return max(due, year)


def _timing_advice(due: int, planned: int, year: int) -> str:
    proposed = proposed_year(due, year)
    if proposed == planned:
        return " It cannot be done earlier than this year."
    if proposed == due:
        return f" Move it to {due}."
    return f" Move it to {proposed}, the earliest year left."


def _percent(ratio: Decimal) -> str:
    return f"{(ratio * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP)} %"
