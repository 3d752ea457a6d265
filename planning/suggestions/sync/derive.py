"""What the rules want of a plan (step 4 of planning.suggestions.sync.run), and what that
depends on besides the plan's data.

- `thresholds_from_settings`: the settings' thresholds and the sync's year Y.
- `rules_digest`: a digest of the rules' source (every module of planning.suggestions.rules) and
  the thresholds, stored by a full sync: a sync under other rules, thresholds or another year
  re-derives the whole plan.
- `wanted_in_scopes`: the wanted suggestions of the scopes a change touches, each rule run on
  exactly its scopes' inputs (planning.suggestions.sync.changes); `wanted_budget_peaks`: rule 6's,
  which sums the whole plan. The whole plan's are planning.suggestions.rules.wanted's.
"""

from __future__ import annotations

import functools
import hashlib
from decimal import Decimal
from pathlib import Path
from uuid import UUID

from django.conf import settings
from django.utils import timezone

from planning.suggestions import rules
from planning.suggestions.rules.budget_peak import budget_peak_suggestions
from planning.suggestions.rules.condition import condition_suggestions
from planning.suggestions.rules.deviation import deviation_suggestions
from planning.suggestions.rules.missing_code import missing_code_suggestions
from planning.suggestions.rules.overdue import overdue_suggestions
from planning.suggestions.rules.project_grouping import project_grouping_suggestions
from planning.suggestions.rules.records import PlanData, Thresholds, WantedSuggestion
from planning.suggestions.sync.changes import Scopes
from planning.suggestions.sync.load import budget_figures, group_candidates, nodes_of, region_of

# Every module of the rules, in name order: a change to any of them is a change of the rules.
_RULES_SOURCE = b"".join(
    path.read_bytes() for path in sorted(Path(rules.__file__).parent.glob("*.py"))
)


def thresholds_from_settings() -> Thresholds:
    """The settings' thresholds and this sync's year Y (UTC)."""
    return Thresholds.from_settings(
        settings.SUGGESTION_COST_THRESHOLDS,
        settings.SUGGESTION_TIMING_THRESHOLDS,
        year=timezone.now().year,
    )


@functools.lru_cache(maxsize=8)
def rules_digest(thresholds: Thresholds) -> str:
    """What a full sync's result depends on besides the data: the rules and the thresholds,
    Y among them (so the first sync in a new calendar year re-derives the whole plan); computed
    once per distinct value."""
    return hashlib.sha256(_RULES_SOURCE + repr(thresholds).encode()).hexdigest()


def rules_digest_now() -> str:
    """`rules_digest` of today's thresholds and year."""
    return rules_digest(thresholds_from_settings())


def wanted_in_scopes(
    *, plan_id: UUID, scopes: Scopes, data: PlanData, thresholds: Thresholds
) -> dict[str, WantedSuggestion]:
    """The wanted suggestions of the scopes, each rule run on exactly its scopes' inputs.
    `data.nodes` holds the nodes of the scopes' actions and of the missing_code scopes, and
    `data.places` their anchors' labels; the groups' anchors and the nodes they anchor are
    read here."""
    actions, places = data.actions, data.places
    # missing_code and condition: a node and its actions; deviation and overdue: one action.
    of_nodes = PlanData(
        nodes={n: data.nodes[n] for n in scopes.missing_code_nodes if n in data.nodes},
        actions=tuple(a for a in actions if a.node_id in scopes.missing_code_nodes),
        codes=data.codes,
        places=places,
    )
    of_actions = PlanData(
        nodes=data.nodes,
        actions=tuple(a for a in actions if a.id in scopes.deviation_actions),
        codes=data.codes,
        places=places,
    )
    missing_code = missing_code_suggestions(of_nodes)
    deviation = deviation_suggestions(of_actions, thresholds)
    anchor_ids = {anchor for anchor, _year in scopes.groups}
    years = {year for _anchor, year in scopes.groups}
    anchors = nodes_of(plan_id=plan_id, node_ids=anchor_ids - set(data.nodes))
    anchors.update((n, data.nodes[n]) for n in anchor_ids if n in data.nodes)
    region = region_of(plan_id=plan_id, anchors=list(anchors.values()))
    grouping = project_grouping_suggestions(
        PlanData(
            nodes=region,
            actions=tuple(group_candidates(plan_id=plan_id, node_ids=region, years=years)),
            codes=data.codes,
            places=places,
        )
    )
    condition = condition_suggestions(of_nodes, thresholds.year)
    overdue = overdue_suggestions(of_actions, thresholds.year)
    wanted = {**missing_code, **deviation, **grouping, **condition, **overdue}
    fingerprints = scopes.fingerprints()
    return {fp: want for fp, want in wanted.items() if fp in fingerprints}


def wanted_budget_peaks(
    *, plan_id: UUID, budget: Decimal | None, year: int, labels: dict[str, str]
) -> dict[str, WantedSuggestion]:
    """Rule 6's suggestions: none without an annual budget."""
    if budget is None:
        return {}
    figures = budget_figures(plan_id=plan_id, budget=budget, year=year, labels=labels)
    return budget_peak_suggestions(figures, year)
