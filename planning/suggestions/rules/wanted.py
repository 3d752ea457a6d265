"""Every suggestion of rules 1-5 a whole plan's data calls for (the full sync's; the
incremental sync runs each rule on its scopes: planning.suggestions.sync.derive). Pure: no
database."""

from __future__ import annotations

from collections.abc import Iterator

from planning.suggestions.rules.condition import condition_suggestions
from planning.suggestions.rules.deviation import deviation_suggestions
from planning.suggestions.rules.missing_code import missing_code_suggestions
from planning.suggestions.rules.overdue import overdue_suggestions
from planning.suggestions.rules.project_grouping import project_grouping_suggestions
from planning.suggestions.rules.records import PlanData, Thresholds, WantedSuggestion


def wanted_suggestions(data: PlanData, thresholds: Thresholds) -> dict[str, WantedSuggestion]:
    """Every suggestion of rules 1-5 the plan's data calls for, by fingerprint; rule 6 reads
    the plan's budget figures instead (`budget_peak_suggestions`)."""
    wanted: dict[str, WantedSuggestion] = {}
    for part in wanted_by_rule(data, thresholds):
        wanted.update(part)
    return wanted


def wanted_by_rule(data: PlanData, thresholds: Thresholds) -> Iterator[dict[str, WantedSuggestion]]:
    """The suggestions of rules 1-5, one rule's at a time, each derived only when asked for: a
    plan's first sync writes one rule's suggestions while the next is derived. No fingerprint
    is in two rules' (each begins with its rule's type)."""
    yield missing_code_suggestions(data)
    yield deviation_suggestions(data, thresholds)
    yield project_grouping_suggestions(data)
    yield condition_suggestions(data, thresholds.year)
    yield overdue_suggestions(data, thresholds.year)
