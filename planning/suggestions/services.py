"""Writes on suggestions: apply, dismiss and restore. Each operation has one function here,
which every page goes through; each is a `plan_write` (planning.core.writes) that records its
suggestion changes there, so the version, the signal (the webhooks' outbox) and the sync
follow from the one path. Apply changes the plan's data and so queues a sync; Dismiss and
Restore change only suggestions and queue none.

Applying changes the plan's data as the suggestion recommends and, in the same transaction,
marks the suggestion `resolved` with resolution `applied`. The next sync then no longer wants
it (the cause is gone) and, since it is not open, leaves it resolved/applied. Should the cause
come back later (someone clears the code again), the sync reopens it (docs/design.md "Sync").

A deviation has two one-click fixes: set the action's cost to the reference
(`suggestion_apply_cost`) or move it to the due year, this year when that has passed
(`suggestion_apply_due_year`: no fix proposes a year before Y). Editing the
action by hand instead leaves the suggestion open until the sync finds the cause gone
(resolution `auto`). Every apply has an Undo (`suggestion_apply_undo`): a fix's puts the value
it replaced back, a code's clears the code it assigned, a grouping's removes the project it
created, a condition's removes the repair it planned, a budget peak's moves the actions back to the
year they left; each opens the suggestion again.

Dismissing is sticky (later syncs leave it dismissed); `suggestions_dismiss` dismisses one or
several at once with one reason. Restoring puts a dismissed suggestion back to open, where the sync
treats it like any open one: kept (and updated) while its cause lasts, resolved when it goes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from planning.catalog.currency import reference_elsewhere, usable_unit_cost
from planning.core.money import money_format
from planning.core.writes import PlanWrite, plan_write
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Code,
    DismissReason,
    Plan,
    Project,
    Resolution,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.selectors import code_effective
from planning.plans.services import (
    action_create,
    action_update,
    node_code_assign,
    node_code_clear,
    project_delete,
)
from planning.suggestions.events import SuggestionChange
from planning.suggestions.rules import proposed_year
from planning.suggestions.selectors import LIST_ORDER, actions_named

# The column's length is the rule; the dismiss form reads it from here.
DISMISS_COMMENT_MAX: int = Suggestion._meta.get_field("dismiss_comment").max_length  # type: ignore[assignment]


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


def suggestions_dismiss(
    *, plan: Plan, suggestion_ids: list[Any], user: Any, reason: str, comment: str = ""
) -> list[Suggestion]:
    """Dismisses these open suggestions of the plan for good (later syncs leave them
    dismissed), all with the same reason and comment, in one transaction: the one dismiss,
    for one card or many. Ids that are not open suggestions of the plan (any more) are
    skipped; the dismissed ones are returned, in list order. No sync is queued: no data of
    the plan changed."""
    if reason not in DismissReason.values:
        raise ValidationError({"reason": "Choose a reason."})
    comment = comment.strip()
    if len(comment) > DISMISS_COMMENT_MAX:
        raise ValidationError({"comment": f"At most {DISMISS_COMMENT_MAX} characters."})
    with plan_write(plan_id=plan.pk, data_changed=False) as write:
        open_ids = list(
            Suggestion.objects.select_for_update()
            .filter(plan=plan, pk__in=suggestion_ids, status=SuggestionStatus.OPEN)
            .values_list("pk", flat=True)
        )
        if not open_ids:
            return []
        now = timezone.now()
        Suggestion.objects.filter(pk__in=open_ids).update(
            status=SuggestionStatus.DISMISSED,
            dismissed_at=now,
            dismissed_by=user,
            dismiss_reason=reason,
            dismiss_comment=comment,
            updated_at=now,
        )
        dismissed = list(Suggestion.objects.filter(pk__in=open_ids).order_by(*LIST_ORDER))
        write.suggestions_changed(
            (SuggestionChange.DISMISSED, suggestion.pk) for suggestion in dismissed
        )
    return dismissed


def suggestion_restore(*, suggestion: Suggestion) -> Suggestion:
    """Puts a dismissed suggestion back to open; the dismissal's reason, comment, author and
    time are cleared. The next sync keeps it open while its cause lasts. No sync is queued: no
    data of the plan changed."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=False) as write:
        locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
        if locked.status != SuggestionStatus.DISMISSED:
            raise ValidationError("This suggestion is not dismissed.")
        locked.status = SuggestionStatus.OPEN
        locked.dismissed_at = None
        locked.dismissed_by = None
        locked.dismiss_reason = ""
        locked.dismiss_comment = ""
        locked.updated_at = timezone.now()
        locked.save(
            update_fields=[
                "status",
                "dismissed_at",
                "dismissed_by",
                "dismiss_reason",
                "dismiss_comment",
                "updated_at",
            ]
        )
        write.suggestions_changed([(SuggestionChange.REOPENED, locked.pk)])
    return locked


def deviation_fix(suggestion: Suggestion) -> tuple[str, Any] | None:
    """("cost", Decimal reference) or ("year", the year to move to) of a deviation, from its
    recommended action; None for any other suggestion. The year is the due year, or this year
    (UTC, the rules' Y) when the due year has passed (rules.proposed_year: no fix moves an
    action into the past); None when the action was planned in that year already."""
    if suggestion.suggestion_type != SuggestionType.DEVIATION:
        return None
    reference = suggestion.recommended_action_json.get("reference", {})
    if suggestion.fingerprint.startswith("deviation:cost:") and "expected_cost" in reference:
        return "cost", Decimal(str(reference["expected_cost"]))
    if suggestion.fingerprint.startswith("deviation:timing:") and "due_year" in reference:
        year = proposed_year(int(reference["due_year"]), timezone.now().year)
        return None if year == reference.get("actual") else ("year", year)
    return None


def _deviation_action(suggestion: Suggestion, fix: str) -> tuple[Action, Any]:
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
    (docs/design.md "Code catalog" > "Currency"): a suggestion derived before a currency
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
        action, reference = _deviation_action(suggestion, fix)
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


def _reopen(write: PlanWrite, suggestion: Suggestion) -> Suggestion:
    suggestion.status = SuggestionStatus.OPEN
    suggestion.resolution = ""
    suggestion.resolved_at = None
    suggestion.updated_at = timezone.now()
    suggestion.save(update_fields=["status", "resolution", "resolved_at", "updated_at"])
    write.suggestions_changed([(SuggestionChange.REOPENED, suggestion.pk)])
    return suggestion


def suggestion_apply_undo(*, suggestion: Suggestion, before: Any) -> tuple[Suggestion, str]:
    """The Undo of an apply, in one transaction: what the apply changed goes back and the
    suggestion is open again; returns it and what was undone, said for a person. `before` is
    what the page kept of the apply: for a fix the cost or year it replaced, for a code the
    code it assigned, for a grouping the project it created. Refused (ValidationError) when
    the suggestion is no longer applied, or what the apply set has changed since: someone
    changed it, and their change wins."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
        if locked.status != SuggestionStatus.RESOLVED or locked.resolution != Resolution.APPLIED:
            raise ValidationError("This can no longer be undone.")
        if locked.suggestion_type == SuggestionType.MISSING_CODE:
            said = _code_undo(locked, code_id=before)
        elif locked.suggestion_type == SuggestionType.PROJECT_GROUPING:
            said = _project_undo(locked, project_id=before)
        elif locked.suggestion_type == SuggestionType.CONDITION:
            said = _repair_undo(locked, action_id=before)
        elif locked.suggestion_type == SuggestionType.BUDGET_PEAK:
            said = _move_undo(locked, moved=before)
        else:
            said = _fix_undo(locked, before=before)
        return _reopen(write, locked), said


def _code_undo(suggestion: Suggestion, *, code_id: Any) -> str:
    node = StructureNode.objects.select_for_update().get(pk=suggestion.structure_node_id)
    if node.code_id is None or str(node.code_id) != str(code_id):
        raise ValidationError(f"“{node.name}” has another code since, so it was kept.")
    node_code_clear(node=node)
    return f"“{node.name}” has no code again."


def _project_undo(suggestion: Suggestion, *, project_id: Any) -> str:
    project = Project.objects.select_for_update().filter(pk=project_id).first()
    grouped = {str(pk) for pk in suggestion.recommended_action_json.get("group_item_ids", [])}
    if project is None or project.plan_id != suggestion.plan_id:
        raise ValidationError("The project is gone already.")
    held = list(project.actions.select_related("node"))
    if not {str(action.pk) for action in held} <= grouped:
        raise ValidationError(f"Project “{project.name}” has other actions since, so it was kept.")
    named = actions_named(plan=suggestion.plan, actions=held)
    project_delete(project=project)
    return f"Project “{project.name}” removed; its actions have no project again: {named}."


def _repair_undo(suggestion: Suggestion, *, action_id: Any) -> str:
    action = (
        Action.objects.select_for_update(of=("self",))
        .select_related("node")
        .filter(pk=action_id, plan_id=suggestion.plan_id)
        .first()
    )
    if action is None:
        raise ValidationError("The planned repair is gone already.")
    if action.status != ActionStatus.PLANNED or action.completions.exists():
        raise ValidationError(f"“{action.title}” has changed since, so it was kept.")
    named = actions_named(plan=suggestion.plan, actions=[action])
    action.delete()
    return f"{named} removed; nothing is planned for the component again."


def _actions_move(actions: list[Action], *, year: int) -> None:
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


def _move_undo(suggestion: Suggestion, *, moved: Any) -> str:
    """A budget peak's Undo: the moved actions go back to the year they left, unless one of
    them has changed since (moved again, done, cancelled, deleted)."""
    try:
        year, target = int(moved["year"]), int(moved["target_year"])
        action_ids = sorted(str(pk) for pk in moved["action_ids"])
    except (KeyError, TypeError, ValueError):
        raise ValidationError("This can no longer be undone.") from None
    actions = list(
        Action.objects.select_for_update(of=("self",))
        .select_related("node", "project")
        .filter(
            plan_id=suggestion.plan_id,
            pk__in=action_ids,
            status=ActionStatus.PLANNED,
            planned_year=target,
            interval_years__isnull=True,
        )
        .order_by("id")
    )
    if sorted(str(action.pk) for action in actions) != action_ids:
        raise ValidationError(
            f"Some of the moved actions have changed since, so all were kept in {target}."
        )
    _actions_move(actions, year=year)
    return f"{moved_text(plan=suggestion.plan, actions=actions, year=year, back=True)}."


def _fix_undo(suggestion: Suggestion, *, before: Any) -> str:
    """A one-click fix's Undo: the action gets back the cost or year the fix replaced, unless
    it no longer has the reference the fix set."""
    found = deviation_fix(suggestion)
    if found is None:
        raise ValidationError("This can no longer be undone.")
    fix, reference = found
    action, _ = _deviation_action(suggestion, fix)
    if (action.estimated_cost if fix == "cost" else action.planned_year) != reference:
        raise ValidationError("The action has changed since the fix, so it was not undone.")
    action_update(
        action=action,
        node=action.node,
        title=action.title,
        kind=action.kind,
        planned_year=int(before) if fix == "year" else action.planned_year,
        estimated_cost=Decimal(str(before)) if fix == "cost" else action.estimated_cost,
        interval_years=action.interval_years,
        project=action.project,
    )
    cost = money_format(action.estimated_cost, suggestion.plan.currency)
    named = actions_named(plan=suggestion.plan, actions=[action])
    return f"Fix undone: {named} is back to {cost} in {action.planned_year}."


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
        _actions_move(actions, year=target)
        return _resolve_applied(write, suggestion), actions
