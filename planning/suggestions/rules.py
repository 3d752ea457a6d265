"""The suggestion rules (docs/design.md "Suggestion rules") as pure functions.

Each rule takes the plan's data as plain, already loaded records (no database access) and
returns the suggestions it wants, keyed by fingerprint. `wanted_suggestions` runs them all.

Conventions of `recommended_action_json`: ids are strings, id lists are sorted, money is a
decimal string with two places ("1234.50"), years are integers. Titles and bodies depend only
on the data, so an unchanged plan gives byte-identical suggestions (what makes the sync
idempotent).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from planning.core.money import money_format
from planning.models import CENT, ActionKind, ActionStatus, NodeKind, Severity, SuggestionType

RATIO = Decimal("0.0001")
MAX_PREFILL_CODES = 3


@dataclass(frozen=True, slots=True)
class NodeRecord:
    id: str
    name: str
    kind: str
    code_id: str | None
    quantity: Decimal | None
    install_year: int | None
    # The node's stored tree fields (planning.tree): its building, and the root of its tree
    # (the node itself for a root).
    building_id: str | None
    root_id: str
    condition_grade: int | None = None  # components: 0-3, None when not assessed


@dataclass(frozen=True, slots=True)
class ActionRecord:
    id: str
    node_id: str
    kind: str
    planned_year: int
    estimated_cost: Decimal
    status: str
    project_id: str | None


@dataclass(frozen=True, slots=True)
class CodeRecord:
    id: str
    code: str
    name: str
    unit: str
    # In the plan's currency; None when the code has none in it (sync.load.codes_load)
    unit_cost: Decimal | None
    service_life_years: int | None
    keywords: str


@dataclass(frozen=True, slots=True)
class Thresholds:
    """What the rules depend on besides the plan's data. Cost thresholds are ratios, timing
    thresholds years; both exclusive ("d > 0.25"). `year` is Y, the current calendar year
    (UTC) of the sync, which rules 4 and 5 measure against: a sync in a new year sees other
    thresholds than the last full sync did, and so re-derives the whole plan."""

    cost_info: Decimal
    cost_warning: Decimal
    cost_critical: Decimal
    timing_info: int
    timing_warning: int
    year: int

    @classmethod
    def from_settings(
        cls, cost: Mapping[str, Any], timing: Mapping[str, Any], *, year: int
    ) -> Thresholds:
        # str() first: Decimal(0.25) would carry the float's binary error into the comparison.
        return cls(
            cost_info=Decimal(str(cost["info"])),
            cost_warning=Decimal(str(cost["warning"])),
            cost_critical=Decimal(str(cost["critical"])),
            timing_info=int(timing["info"]),
            timing_warning=int(timing["warning"]),
            year=year,
        )


@dataclass(frozen=True, slots=True)
class WantedSuggestion:
    fingerprint: str
    suggestion_type: str
    severity: str
    title: str
    body: str
    structure_node_id: str
    recommended_action_json: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlanData:
    nodes: Mapping[str, NodeRecord]
    actions: tuple[ActionRecord, ...]
    codes: Mapping[str, CodeRecord]
    # How the texts name each anchor (`anchor_node_id`): a building by its label, unique within
    # the plan (planning.tree.building_labels: "House (North site)"), a root outside every
    # building by its name. An anchor missing here is named by its record in `nodes`.
    places: Mapping[str, str] = field(default_factory=dict)


def money(value: Decimal) -> str:
    # str() of a Decimal with exponent -2 is plain notation ("0.00", "1234.50").
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


# The money figures a rule writes into a title or body, each also kept in the recommended action.
_MONEY_KEPT = (
    ("reference", "expected_cost"),
    ("reference", "actual"),
    (None, "total_cost"),
    (None, "excess"),
    (None, "total"),
    (None, "budget"),
)


def money_for_people(text: str, *, recommended: Mapping[str, Any], currency: str) -> str:
    """A title or body as the page shows it: each money figure the rule wrote with `money()`
    (plain, for the API: docs/integrators.md) in the page's notation with the currency
    ("138330.00" -> "138,330.00 EUR"). Only the figures the recommended action keeps are
    rewritten, so a quantity or a year that happens to look like money never is."""
    for section, key in _MONEY_KEPT:
        holder = recommended.get(section, {}) if section else recommended
        figure = holder.get(key) if isinstance(holder, Mapping) else None
        if isinstance(figure, str) and figure:
            text = re.sub(
                rf"(?<![\d.,]){re.escape(figure)}(?![\d])",
                money_format(Decimal(figure), currency),
                text,
            )
    return text


# --- names -------------------------------------------------------------------------------------
def place_of(node: NodeRecord, data: PlanData) -> str:
    """The label of the node's anchor: its building's, else its root's ("" when unknown)."""
    anchor = node.building_id or node.root_id
    place = data.places.get(anchor)
    if place is None:
        record = data.nodes.get(anchor)
        place = record.name if record is not None else ""
    return place


def node_named(node: NodeRecord, data: PlanData) -> str:
    """How a text names a node so that a person can find it: “Windows” in House 3 (Block A); a
    building by its label alone; a root outside every building by its name."""
    if node.building_id == node.id:
        return place_of(node, data) or node.name
    if node.root_id == node.id and node.building_id is None:
        return f"“{node.name}”"
    place = place_of(node, data)
    return f"“{node.name}” in {place}" if place else f"“{node.name}”"


# --- missing_code ------------------------------------------------------------------------------
_WORD = re.compile(r"[^\W_]+")


def _tokens(text: str) -> frozenset[str]:
    return frozenset(word for word in _WORD.findall(text.lower()) if len(word) > 1)


def code_tokens(code: CodeRecord) -> frozenset[str]:
    return _tokens(code.name) | _tokens(code.keywords.replace(",", " "))


def prefill_code_ids(
    node_name: str, catalog: Iterable[tuple[CodeRecord, frozenset[str]]]
) -> list[str]:
    """Up to 3 catalog codes whose name or keywords share the most words with `node_name`.

    Ranked by the number of shared words (more first), ties by code then id; codes that share
    no word are not offered.
    """
    words = _tokens(node_name)
    if not words:
        return []
    scored = [
        (-len(words & tokens), code.code, code.id) for code, tokens in catalog if words & tokens
    ]
    scored.sort()
    return [code_id for _, _, code_id in scored[:MAX_PREFILL_CODES]]


def missing_code_suggestions(data: PlanData) -> dict[str, WantedSuggestion]:
    planned = ActionStatus.PLANNED.value
    nodes_with_live_action = {a.node_id for a in data.actions if a.status == planned}
    catalog = [(code, code_tokens(code)) for code in data.codes.values()]
    prefills: dict[str, list[str]] = {}  # by node name: many nodes share one
    wanted: dict[str, WantedSuggestion] = {}
    for node in data.nodes.values():
        if node.kind != NodeKind.COMPONENT or node.code_id is not None:
            continue
        has_live = node.id in nodes_with_live_action
        fingerprint = f"missing_code:{node.id}"
        prefill = prefills.get(node.name)
        if prefill is None:
            prefill = prefills[node.name] = prefill_code_ids(node.name, catalog)
        named = node_named(node, data)
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.MISSING_CODE,
            severity=Severity.WARNING if has_live else Severity.INFO,
            title=f"Assign a classification code to {named}",
            body=(
                f"The component {named} has no classification code, so its costs and "
                "service life cannot be checked against reference values."
                + (" It has planned actions." if has_live else "")
            ),
            structure_node_id=node.id,
            recommended_action_json={
                "action": "assign_code",
                "prefill_code_ids": list(prefill),
            },
        )
    return wanted


# --- deviation ---------------------------------------------------------------------------------
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


# --- project_grouping --------------------------------------------------------------------------
def anchor_node_id(node: NodeRecord) -> str:
    """The node itself if a building, else its nearest building ancestor, else its root."""
    return node.building_id or node.root_id


def project_grouping_suggestions(data: PlanData) -> dict[str, WantedSuggestion]:
    groups: dict[tuple[str, int], list[ActionRecord]] = defaultdict(list)
    planned, nodes = ActionStatus.PLANNED.value, data.nodes
    for action in data.actions:
        if action.status != planned or action.project_id is not None:
            continue
        node = nodes.get(action.node_id)
        if node is not None:
            # anchor_node_id(node), inlined: this loop runs once per action of the plan
            groups[(node.building_id or node.root_id, action.planned_year)].append(action)
    wanted: dict[str, WantedSuggestion] = {}
    for (anchor_id, year), actions in groups.items():
        if len(actions) < 2:
            continue
        place = place_of(data.nodes[anchor_id], data)
        total = sum((a.estimated_cost for a in actions), Decimal(0))
        name = f"{place} {year}"
        fingerprint = f"project_grouping:{anchor_id}:{year}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.PROJECT_GROUPING,
            severity=Severity.INFO,
            title=f"Group {len(actions)} actions in {place} in {year} into a project",
            body=(
                f"{len(actions)} planned actions in {place} in {year} belong to no "
                f"project (total {money(total)}). Grouping them lets you tender and schedule "
                "them together."
            ),
            structure_node_id=anchor_id,
            recommended_action_json={
                "action": "create_project",
                "group_item_ids": sorted(a.id for a in actions),
                "proposed_project_name": name,
                "year": year,
                "total_cost": money(total),
            },
        )
    return wanted


# --- condition ---------------------------------------------------------------------------------
# Grade: (severity, how many years after Y a repair or replacement must be planned at the latest).
CONDITION_HORIZONS = {3: (Severity.CRITICAL, 2), 2: (Severity.WARNING, 5)}
GRADE_WORDS = {3: "severe", 2: "moderate"}


def condition_suggestions(data: PlanData, year: int) -> dict[str, WantedSuggestion]:
    """Rule 4: a component in condition 3 (or 2) with no live repair or replacement planned by
    Y + 2 (or Y + 5). `data.actions` must hold every action of the nodes in `data.nodes`."""
    planned, fixes = ActionStatus.PLANNED.value, {ActionKind.REPAIR, ActionKind.REPLACEMENT}
    earliest: dict[str, int] = {}  # node -> the earliest year a live repair/replacement is planned
    for action in data.actions:
        if action.status == planned and action.kind in fixes:
            known = earliest.get(action.node_id)
            if known is None or action.planned_year < known:
                earliest[action.node_id] = action.planned_year
    wanted: dict[str, WantedSuggestion] = {}
    for node in data.nodes.values():
        if node.kind != NodeKind.COMPONENT or node.condition_grade not in CONDITION_HORIZONS:
            continue
        severity, horizon = CONDITION_HORIZONS[node.condition_grade]
        latest = year + horizon
        first = earliest.get(node.id)
        if first is not None and first <= latest:
            continue
        words = GRADE_WORDS[node.condition_grade]
        named = node_named(node, data)
        fingerprint = f"condition:{node.id}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.CONDITION,
            severity=severity,
            title=f"Plan a repair of {named} by {latest}: its condition is {words}",
            body=(
                f"The component {named} was graded {node.condition_grade} ({words} "
                f"symptoms) and has no repair or replacement planned by {latest}"
                + (f"; the first one is in {first}." if first is not None else ".")
                + " Plan one, or dismiss this if the component is to be left as it is."
            ),
            structure_node_id=node.id,
            recommended_action_json={
                "action": "plan_action",
                "node_id": node.id,
                "condition_grade": node.condition_grade,
                "latest_year": latest,
            },
        )
    return wanted


# --- overdue -----------------------------------------------------------------------------------
OVERDUE_CRITICAL_YEARS = 2  # planned before Y - 2: critical
_KIND_WORDS = {kind.value: kind.label.lower() for kind in ActionKind}


def overdue_suggestions(data: PlanData, year: int) -> dict[str, WantedSuggestion]:
    """Rule 5: a live action planned before Y (warning), or before Y - 2 (critical)."""
    planned = ActionStatus.PLANNED.value
    wanted: dict[str, WantedSuggestion] = {}
    for action in data.actions:
        if action.status != planned or action.planned_year >= year:
            continue
        late = year - action.planned_year
        node = data.nodes.get(action.node_id)
        what = f"{_KIND_WORDS.get(action.kind, 'action')}"
        on = f" of {node_named(node, data)}" if node is not None else ""
        fingerprint = f"overdue:{action.id}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.OVERDUE,
            severity=Severity.CRITICAL if late > OVERDUE_CRITICAL_YEARS else Severity.WARNING,
            title=f"Overdue since {action.planned_year}: the {what}{on}",
            body=(
                f"The {what}{on} was planned for {action.planned_year} and is still open in "
                f"{year} ({late} year{'s' if late != 1 else ''} late). Mark it done if the work "
                "was done, or move it to the year it will be done."
            ),
            structure_node_id=action.node_id,
            recommended_action_json={
                "action": "review_action",
                "action_ids": [action.id],
                "filter": {"structure_node_id": action.node_id, "year": action.planned_year},
                "reference": {
                    "due_year": action.planned_year,
                    "actual": year,
                    "deviation": late,
                },
            },
        )
    return wanted


# --- budget_peak -------------------------------------------------------------------------------
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


def wanted_suggestions(data: PlanData, thresholds: Thresholds) -> dict[str, WantedSuggestion]:
    """Every suggestion of rules 1-5 the plan's data calls for, by fingerprint; rule 6 reads
    the plan's budget figures instead (`budget_peak_suggestions`)."""
    return {
        **missing_code_suggestions(data),
        **deviation_suggestions(data, thresholds),
        **project_grouping_suggestions(data),
        **condition_suggestions(data, thresholds.year),
        **overdue_suggestions(data, thresholds.year),
    }
