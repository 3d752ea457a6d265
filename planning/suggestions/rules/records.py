"""The records the suggestion rules (docs/subsystems/suggestion-rules.md) read and return.

Each rule (one module per rule: missing_code, deviation, project_grouping, condition, overdue,
budget_peak) takes the plan's data as these plain, already loaded records (no database access)
and returns the suggestions it wants, keyed by fingerprint; `wanted.wanted_suggestions` runs
rules 1-5 over a whole plan.

Conventions of `recommended_action_json`: ids are strings, id lists are sorted, money is a
decimal string with two places ("1234.50", `texts.money`), years are integers. Titles and bodies
depend only on the data, so an unchanged plan gives byte-identical suggestions (what makes the
sync idempotent).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any


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
    # In the plan's currency; None when the code has none in it
    # (planning.suggestions.sync.load.codes_load).
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
    # the plan (planning.tree.selectors.building_labels: "House (North site)"), a root outside every
    # building by its name. An anchor missing here is named by its record in `nodes`.
    places: Mapping[str, str] = field(default_factory=dict)
