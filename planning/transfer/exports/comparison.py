"""A comparison of two sides of a plan (planning.records.comparison) as export rows: a header,
one row per differing action (statuses and what changed in words), then the totals per year in
today's prices (the version page's CSV and XLSX download; the workbook has its title block above
and the totals below the table, outside its autofilter)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from planning.figures.prices import year_span
from planning.records.comparison import ActionState, Comparison
from planning.transfer.exports.title import title_block
from planning.transfer.xlsx import Bold, Sheet


def comparison_rows(comparison: Comparison) -> list[tuple[Any, ...]]:
    """The comparison as export rows: a header, one row per differing action (statuses in
    words, what changed in words), an empty row, then the totals per year."""
    return [*_difference_rows(comparison), (), *_year_rows(comparison)]


def comparison_sheet(
    comparison: Comparison, *, made_on: datetime.date, more: Sequence[tuple[str, Any]] = ()
) -> Sheet:
    """The comparison as a workbook's sheet: the title block (with `more`: the building chosen),
    the differing actions as the table, the totals per year below it."""
    old, new = comparison.old, comparison.new
    years = comparison.years
    return Sheet(
        name="Comparison",
        title=title_block(
            plan=old.plan,
            title=f"Comparison of {old.label} with {new.label}",
            prices="today's prices (the estimated costs as each side holds them)",
            made_on=made_on,
            more=[
                ("Compared", f"{old.label} (before) with {new.label} (after)"),
                ("Years", year_span(years[0], years[-1]) if years else ""),
                *more,
            ],
        ),
        table=_difference_rows(comparison),
        below=[(), *_year_rows(comparison)],
    )


def _difference_rows(comparison: Comparison) -> list[tuple[Any, ...]]:
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
    return rows


def _year_rows(comparison: Comparison) -> list[tuple[Any, ...]]:
    """The planned cost per year of both sides and the difference, under the estimated costs,
    with their header and the total (both in `Bold`)."""
    old, new = comparison.old.label, comparison.new.label
    blank = ("",) * 8  # the totals sit under the estimated costs
    prices = f"{comparison.old.plan.currency}, today's prices"
    rows: list[tuple[Any, ...]] = [
        Bold(
            (
                "Year",
                *blank,
                f"Planned cost ({prices}, {old})",
                f"Planned cost ({prices}, {new})",
                "Difference",
            )
        )
    ]
    for year, before, after, difference in comparison.year_rows:
        rows.append((year, *blank, before, after, difference))
    rows.append(
        Bold(
            (
                "Total",
                *blank,
                comparison.old_total,
                comparison.new_total,
                comparison.total_difference,
            )
        )
    )
    return rows
