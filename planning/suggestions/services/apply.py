"""Apply: a suggestion's one-click fix. Each kind has one function here, which every page and
the API go through; each is a `plan_write` (planning.core.writes) that changes the plan's data
as the suggestion recommends and, in the same transaction, marks the suggestion `resolved` with
resolution `applied`, recording both on the write, so the version, the signal (the webhooks'
outbox) and the sync follow from the one path. The next sync then no longer wants it (the cause
is gone) and, since it is not open, leaves it resolved/applied. Should the cause come back
later (someone clears the code again), the sync reopens it (docs/subsystems/sync.md).

A deviation has two one-click fixes: set the action's cost to the reference
(`suggestion_apply_cost`) or move it to the due year, this year when that has passed
(`suggestion_apply_due_year`: no fix proposes a year before Y). Editing the action by hand
instead leaves the suggestion open until the sync finds the cause gone (resolution `auto`).
A missing code takes one of the proposed codes (`suggestion_apply_code`), a poor condition a
planned repair (`suggestion_apply_repair`), a grouping a new project (`suggestion_apply_project`),
a budget peak a move of its candidates (`suggestion_apply_move`). Every apply has an Undo
(planning.suggestions.services.undo).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from planning.catalog.currency import reference_elsewhere, usable_unit_cost
from planning.core.writes import PlanWrite, plan_write
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Code,
    Plan,
    Project,
    Resolution,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.selectors import code_effective
from planning.plans.services.actions import action_create, action_update
from planning.plans.services.nodes import node_code_assign
from planning.suggestions.events import SuggestionChange
from planning.suggestions.rules.deviation import proposed_year
from planning.suggestions.selectors import actions_named


def _open_locked(suggestion: Suggestion) -> Suggestion:
    """The suggestion locked, if it is still open. Call it inside the Apply's `plan_write`:
    the plan's lock comes first, as the sync takes it, so a sync and an Apply wait for each
    other instead of each holding a lock the other needs."""
    locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
    if locked.status != SuggestionStatus.OPEN:
        raise ValidationError("This suggestion is no longer open.")
    return locked


def _resolve_applied(write: PlanWrite, suggestion: Suggestion) -> Suggestion:
    now = timezone.now()
    suggestion.status = SuggestionStatus.RESOLVED
    suggestion.resolution = Resolution.APPLIED
    suggestion.resolved_at = now
    suggestion.updated_at = now
    suggestion.save(update_fields=["status", "resolution", "resolved_at", "updated_at"])
    write.suggestions_changed([(SuggestionChange.RESOLVED, suggestion.pk)])
    return suggestion


def deviation_fix(suggestion: Suggestion) -> tuple[str, Any] | None:
    """("cost", Decimal reference) or ("year", the year to move to) of a deviation, from its
    recommended action; None for any other suggestion. The year is the due year, or this year
    (UTC, the rules' Y) when the due year has passed (rules.deviation.proposed_year: no fix
    moves an action into the past); None when the action was planned in that year already."""
    if suggestion.suggestion_type != SuggestionType.DEVIATION:
        return None
    reference = suggestion.recommended_action_json.get("reference", {})
    if suggestion.fingerprint.startswith("deviation:cost:") and "expected_cost" in reference:
        return "cost", Decimal(str(reference["expected_cost"]))
    if suggestion.fingerprint.startswith("deviation:timing:") and "due_year" in reference:
        year = proposed_year(int(reference["due_year"]), timezone.now().year)
        return None if year == reference.get("actual") else ("year", year)
    return None


def deviation_action_locked(*, suggestion: Suggestion, fix: str) -> tuple[Action, Any]:
    """The deviation's action, locked and still planned, with the reference its `fix` ("cost"
    or "year", `deviation_fix`) sets; ValidationError when the suggestion has no such fix or
    the action has changed since. Call it inside the caller's `plan_write` (Apply and Undo)."""
    found = deviation_fix(suggestion)
    if found is None or found[0] != fix:
        if fix == "year" and suggestion.fingerprint.startswith("deviation:timing:"):
            raise ValidationError("The action is planned for this year: no earlier year is left.")
        what = "cost" if fix == "cost" else "timing"
        raise ValidationError(f"Only a {what} deviation can be fixed this way.")
    action_ids = suggestion.recommended_action_json.get("action_ids", [])
    action = (
        # Only the action's row is locked: FOR UPDATE cannot lock the nullable project side.
        Action.objects.select_for_update(of=("self",))
        .select_related("node", "project", "plan")
        .filter(plan_id=suggestion.plan_id, pk__in=action_ids[:1], status=ActionStatus.PLANNED)
        .first()
    )
    if action is None:
        raise ValidationError("The action has changed since; reload the page.")
    return action, found[1]


def _reference_in_plan_currency(action: Action) -> None:
    """Refuses a cost fix whose code has no reference unit cost in the plan's currency now
    (docs/subsystems/code-catalog.md "Currency"): a suggestion derived before a currency
    changed, or a crafted POST, never writes a cost in another currency."""
    plan, code_id = action.plan, action.node.code_id
    code = (
        code_effective(organisation_id=plan.organisation_id, code_id=code_id) if code_id else None
    )
    if usable_unit_cost(code, currency=plan.currency) is not None:
        return
    elsewhere = reference_elsewhere(code, currency=plan.currency)
    if elsewhere:
        raise ValidationError(f"{elsewhere} The cost was not changed.")
    raise ValidationError("The component's code has no reference cost any more; reload the page.")


def _deviation_apply(suggestion: Suggestion, fix: str) -> tuple[Suggestion, Action, Any]:
    """Sets the deviating action's `fix` ("cost": the estimated cost, "year": the planned year)
    to the reference and resolves the suggestion (`applied`), in one transaction; returns the
    suggestion, the action and the value the fix replaced (what its Undo puts back)."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        suggestion = _open_locked(suggestion)
        action, reference = deviation_action_locked(suggestion=suggestion, fix=fix)
        if fix == "cost":
            _reference_in_plan_currency(action)
        before = action.estimated_cost if fix == "cost" else action.planned_year
        action_update(
            action=action,
            node=action.node,
            title=action.title,
            kind=action.kind,
            planned_year=reference if fix == "year" else action.planned_year,
            estimated_cost=reference if fix == "cost" else action.estimated_cost,
            interval_years=action.interval_years,
            project=action.project,
        )
        return _resolve_applied(write, suggestion), action, before


def suggestion_apply_cost(*, suggestion: Suggestion) -> tuple[Suggestion, Action, Decimal]:
    """Sets the deviating action's estimated cost to the reference (unit cost x quantity) and
    resolves the suggestion (`applied`); the cost it had comes third. Refused while the code
    has no reference in the plan's currency."""
    return _deviation_apply(suggestion, "cost")


def suggestion_apply_due_year(*, suggestion: Suggestion) -> tuple[Suggestion, Action, int]:
    """Moves the deviating action to the year its replacement is due (install year + service
    life), or to this year when that has passed (`deviation_fix`), and resolves the suggestion
    (`applied`); the year it had comes third."""
    return _deviation_apply(suggestion, "year")


def suggestion_apply_code(*, suggestion: Suggestion, code_id: Any) -> Suggestion:
    """Assigns one of the prefilled codes to the suggestion's node (missing_code)."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        suggestion = _open_locked(suggestion)
        if suggestion.suggestion_type != SuggestionType.MISSING_CODE:
            raise ValidationError("Only a missing-code suggestion assigns a code.")
        prefill = suggestion.recommended_action_json.get("prefill_code_ids", [])
        if str(code_id) not in prefill:
            raise ValidationError({"code": "Choose one of the proposed codes."})
        code = Code.objects.get(pk=code_id)
        node = StructureNode.objects.select_for_update().get(pk=suggestion.structure_node_id)
        if node.code_id is not None:
            # Someone assigned a code since the page was shown; never overwrite it silently.
            raise ValidationError(
                f"“{node.name}” has a code already; the suggestion is out of date."
            )
        node_code_assign(node=node, code=code)
        return _resolve_applied(write, suggestion)


def repair_proposal(
    recommended: dict[str, Any], *, quantity: Decimal | None, unit_cost: Decimal | None
) -> tuple[int, Decimal]:
    """The repair a condition suggestion's one-click fix plans on its component: next year
    (within the latest year the rule gives, never before this year), at the reference cost of
    the component's code (its organisation's unit cost x the quantity) when both are known,
    else 0. `unit_cost` is the one in the plan's currency
    (planning.catalog.currency.usable_unit_cost)."""
    this_year = timezone.now().year
    latest = recommended.get("latest_year")
    year = min(this_year + 1, int(latest)) if isinstance(latest, int) else this_year + 1
    year = max(year, this_year)  # a latest year gone by (a sync of last year): never the past
    cost = Decimal(0)
    if unit_cost is not None and quantity:
        cost = (unit_cost * quantity).quantize(Decimal("0.01"))
    return year, cost


def suggestion_apply_repair(*, suggestion: Suggestion) -> tuple[Suggestion, Action]:
    """Plans the repair a condition suggestion proposes (repair_proposal) on its component and
    resolves the suggestion, in one transaction."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        suggestion = _open_locked(suggestion)
        if suggestion.suggestion_type != SuggestionType.CONDITION:
            raise ValidationError("Only a condition suggestion plans a repair.")
        node = StructureNode.objects.get(pk=suggestion.structure_node_id)
        code = (
            code_effective(organisation_id=suggestion.plan.organisation_id, code_id=node.code_id)
            if node.code_id is not None
            else None
        )
        year, cost = repair_proposal(
            suggestion.recommended_action_json,
            quantity=node.quantity,
            unit_cost=usable_unit_cost(code, currency=suggestion.plan.currency),
        )
        action = action_create(
            plan=suggestion.plan,
            node=node,
            title=f"Repair: {node.name}"[:200],
            kind=ActionKind.REPAIR,
            planned_year=year,
            estimated_cost=cost,
        )
        return _resolve_applied(write, suggestion), action


def suggestion_apply_project(*, suggestion: Suggestion) -> tuple[Suggestion, Project]:
    """Creates the proposed project and puts the grouped actions in it (project_grouping).

    Only actions that are still planned, still without a project and still in this plan are
    moved; if fewer than two are left the grouping no longer makes sense and nothing is done.
    """
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        suggestion = _open_locked(suggestion)
        if suggestion.suggestion_type != SuggestionType.PROJECT_GROUPING:
            raise ValidationError("Only a project-grouping suggestion creates a project.")
        recommended = suggestion.recommended_action_json
        actions = Action.objects.select_for_update().filter(
            plan_id=suggestion.plan_id,
            pk__in=recommended.get("group_item_ids", []),
            status=ActionStatus.PLANNED,
            project__isnull=True,
        )
        action_ids = list(actions.values_list("pk", flat=True))
        if len(action_ids) < 2:
            raise ValidationError("The grouped actions have changed; reload the page.")
        project = Project.objects.create(
            plan_id=suggestion.plan_id,
            name=str(recommended["proposed_project_name"])[:200],
            year=int(recommended["year"]),
        )
        Action.objects.filter(pk__in=action_ids).update(project=project, updated_at=timezone.now())
        return _resolve_applied(write, suggestion), project


def actions_move(*, actions: list[Action], year: int) -> None:
    """Moves these actions to `year` through `action_update` (a budget peak's Apply and Undo)."""
    for action in actions:
        action_update(
            action=action,
            node=action.node,
            title=action.title,
            kind=action.kind,
            planned_year=year,
            estimated_cost=action.estimated_cost,
            interval_years=action.interval_years,
            project=action.project,
        )


def moved_text(*, plan: Plan, actions: list[Action], year: int, back: bool = False) -> str:
    """What a budget peak's move or its Undo did, naming the actions: "Moved 2 actions to 2029:
    “Replace roof” in House 3, “Paint facade” in House 1"."""
    count = len(actions)
    where = f"back to {year}" if back else f"to {year}"
    return (
        f"Moved {count} action{'s' if count != 1 else ''} {where}: "
        f"{actions_named(plan=plan, actions=actions)}"
    )


def suggestion_apply_move(*, suggestion: Suggestion) -> tuple[Suggestion, list[Action]]:
    """Moves a budget peak's candidate actions to its target year and resolves the
    suggestion, in one transaction. Only candidates still planned as one-offs in the peak year
    move; none left, or no target year, and nothing is done."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        suggestion = _open_locked(suggestion)
        if suggestion.suggestion_type != SuggestionType.BUDGET_PEAK:
            raise ValidationError("Only a budget peak moves actions.")
        recommended = suggestion.recommended_action_json
        target = recommended.get("target_year")
        if not isinstance(target, int):
            raise ValidationError(
                "No year of the next five has room for these actions; move them by hand."
            )
        actions = list(
            Action.objects.select_for_update(of=("self",))
            .select_related("node", "project")
            .filter(
                plan_id=suggestion.plan_id,
                pk__in=recommended.get("candidate_action_ids", []),
                status=ActionStatus.PLANNED,
                planned_year=recommended.get("year"),
                interval_years__isnull=True,
            )
            .order_by("id")
        )
        if not actions:
            raise ValidationError("The actions to move have changed; reload the page.")
        actions_move(actions=actions, year=target)
        return _resolve_applied(write, suggestion), actions
