"""Rule 6, budget_peak: a year of the next ten whose planned cost is over the plan's annual
budget, with the one-off repairs and replacements to move and the year they would fit in. It
reads the plan's summed figures (`BudgetFigures`), not one record per action. Pure: no
database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from planning.models import Severity, SuggestionType
from planning.suggestions.rules.records import WantedSuggestion
from planning.suggestions.rules.texts import money

BUDGET_YEARS = 10  # rule 6 looks at Y .. Y + 9
TARGET_YEARS = 5  # and moves to one of y + 1 .. y + 5
FIGURE_YEARS = BUDGET_YEARS + TARGET_YEARS  # so it needs the totals of Y .. Y + 14


@dataclass(frozen=True, slots=True)
class BudgetFigures:
    """What rule 6 reads of a plan with an annual budget, in whole cents of today's prices:
    `year_cents` the live occurrences' cost of each year Y .. Y + 14; for each year y of
    Y .. Y + 9 whose total is over the budget (and only those), `anchor_cents` the cost per
    anchor node (rule 3's anchor) and `candidates` the live non-recurring repairs and
    replacements planned in y as (action id, cents). Read with a few grouped queries
    (planning.suggestions.sync.load.budget_figures), never as one record per action."""

    budget_cents: int
    year_cents: Mapping[int, int]
    anchor_cents: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    anchor_names: Mapping[str, str] = field(default_factory=dict)
    candidates: Mapping[int, Sequence[tuple[str, int]]] = field(default_factory=dict)


def budget_peak_years(year_cents: Mapping[int, int], budget_cents: int, year: int) -> list[int]:
    """The years Y .. Y + 9 whose planned total is over the budget."""
    return [y for y in range(year, year + BUDGET_YEARS) if year_cents.get(y, 0) > budget_cents]


def _cents_money(cents: int) -> str:
    return money(Decimal(cents) / 100)


def _move_candidates(candidates: Sequence[tuple[str, int]], excess: int) -> list[tuple[str, int]]:
    """The shortest prefix, by cost descending then id, whose costs reach the excess (all of
    them when none does)."""
    chosen: list[tuple[str, int]] = []
    total = 0
    for action_id, cents in sorted(candidates, key=lambda c: (-c[1], c[0])):
        if total >= excess:
            break
        chosen.append((action_id, cents))
        total += cents
    return chosen


def budget_peak_suggestions(
    figures: BudgetFigures | None, year: int
) -> dict[str, WantedSuggestion]:
    """Rule 6: each year y of Y .. Y + 9 whose live occurrences cost more than the annual budget
    (warning; more than 1.5 times it: critical), with the repairs and replacements to move and
    the first year of y + 1 .. y + 5 that has room for them. None: the plan has no budget."""
    if figures is None:
        return {}
    budget = figures.budget_cents
    wanted: dict[str, WantedSuggestion] = {}
    for y in budget_peak_years(figures.year_cents, budget, year):
        total = figures.year_cents[y]
        excess = total - budget
        anchors = figures.anchor_cents.get(y, {})
        anchor_id = min(anchors, key=lambda a: (-anchors[a], a)) if anchors else ""
        chosen = _move_candidates(figures.candidates.get(y, ()), excess)
        moved = sum(cents for _id, cents in chosen)
        target = next(
            (
                t
                for t in range(y + 1, y + TARGET_YEARS + 1)
                if figures.year_cents.get(t, 0) + moved <= budget
            ),
            None,
        )
        critical = 2 * total > 3 * budget  # T > 1.5 B, in integers
        name = figures.anchor_names.get(anchor_id, "")
        if not chosen:
            advice = f" No one-off repair or replacement is planned in {y} to move."
        elif target is None:
            advice = (
                f" Moving the {len(chosen)} largest one-off repairs and replacements would "
                f"fit in none of the years {y + 1} to {y + TARGET_YEARS}."
            )
        else:
            advice = (
                f" Moving {len(chosen)} one-off repair{'s' if len(chosen) != 1 else ''} or "
                f"replacement{'s' if len(chosen) != 1 else ''} to {target} keeps both years "
                "within the budget."
            )
        fingerprint = f"budget_peak:{y}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.BUDGET_PEAK,
            severity=Severity.CRITICAL if critical else Severity.WARNING,
            title=f"Planned costs in {y} exceed the annual budget by {_cents_money(excess)}",
            body=(
                f"The actions planned for {y} cost {_cents_money(total)} in today's prices, "
                f"over the annual budget of {_cents_money(budget)}"
                + (f"; the most of it is in {name}." if name else ".")
                + advice
            ),
            structure_node_id=anchor_id,
            recommended_action_json={
                "action": "move_actions",
                "year": y,
                "budget": _cents_money(budget),
                "total": _cents_money(total),
                "excess": _cents_money(excess),
                "candidate_action_ids": sorted(action_id for action_id, _ in chosen),
                "target_year": target,
            },
        )
    return wanted
