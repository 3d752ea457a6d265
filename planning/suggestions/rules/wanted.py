"""Every suggestion of rules 1-5 a whole plan's data calls for (the full sync's; the
incremental sync runs each rule on its scopes: planning.suggestions.sync.derive). Pure: no
database."""

from __future__ import annotations

from planning.suggestions.rules.condition import condition_suggestions
from planning.suggestions.rules.deviation import deviation_suggestions
from planning.suggestions.rules.missing_code import missing_code_suggestions
from planning.suggestions.rules.overdue import overdue_suggestions
from planning.suggestions.rules.project_grouping import project_grouping_suggestions
from planning.suggestions.rules.records import PlanData, Thresholds, WantedSuggestion


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
