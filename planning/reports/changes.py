"""The board report's changes since the last adopted version (docs/subsystems/board-report.md):
the CHANGES_LISTED changes of a comparison (planning.records.comparison) that move the most
planned money, each said in words with its before and after."""

from __future__ import annotations

from dataclasses import dataclass

from planning.core.money import money_format
from planning.models import ActionStatus
from planning.records.comparison import ActionDifference, ActionState, Comparison

CHANGES_LISTED = 15


@dataclass(frozen=True)
class ChangeRow:
    """One change since the last adopted version, said in words."""

    kind: str  # added, removed, changed
    title: str
    building: str
    what: list[str]  # "status planned → done", "year 2027 → 2029", "done 2026-05-04, next 2031"


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
