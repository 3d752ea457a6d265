"""A comparison of two sides of a plan (planning.records.comparison) as export rows: a header,
one row per differing action (statuses and what changed in words), then the totals per year in
today's prices (the version page's CSV and XLSX download)."""

from __future__ import annotations

from typing import Any

from planning.records.comparison import ActionState, Comparison


def comparison_rows(comparison: Comparison) -> list[tuple[Any, ...]]:
    """The comparison as export rows: a header, one row per differing action (statuses in
    words, what changed in words), then the totals per year."""
    old, new = comparison.old.label, comparison.new.label

    def node(state: ActionState | None) -> str:
        return comparison.node_names.get(state.node_id, "") if state else ""

    def building(state: ActionState | None) -> str:
        if state is None or state.building_id is None:
            return ""
        return comparison.building_names.get(state.building_id, "")

    rows: list[tuple[Any, ...]] = [
        (
            "Change",
            "Action id",
            "Title",
            f"Building ({old})",
            f"Building ({new})",
            f"Node ({old})",
            f"Node ({new})",
            f"Year ({old})",
            f"Year ({new})",
            f"Estimated cost ({comparison.old.plan.currency}, today's prices, {old})",
            f"Estimated cost ({comparison.old.plan.currency}, today's prices, {new})",
            f"Status ({old})",
            f"Status ({new})",
            "Changed fields",
        )
    ]
    for d in comparison.differences:
        b, a = d.before, d.after
        rows.append(
            (
                d.kind,
                str(d.state.uuid),
                d.state.title,
                building(b),
                building(a),
                node(b),
                node(a),
                b.planned_year if b else "",
                a.planned_year if a else "",
                b.estimated_cost if b else "",
                a.estimated_cost if a else "",
                b.status_label if b else "",
                a.status_label if a else "",
                d.summary,
            )
        )
    rows.append(())
    blank = ("",) * 8  # the totals sit under the estimated costs
    prices = f"{comparison.old.plan.currency}, today's prices"
    rows.append(
        (
            "Year",
            *blank,
            f"Planned cost ({prices}, {old})",
            f"Planned cost ({prices}, {new})",
            "Difference",
        )
    )
    for year, before, after, difference in comparison.year_rows:
        rows.append((year, *blank, before, after, difference))
    rows.append(
        ("Total", *blank, comparison.old_total, comparison.new_total, comparison.total_difference)
    )
    return rows
