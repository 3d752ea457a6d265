"""Geometry of the stacked cost chart of the action-planning view (an inline SVG the template
draws, no script): one bar per year, one segment per series, a money axis with round ticks.
Every segment carries its figure as a <title>, which browsers show on hover.

The rest of the buildings (a `rest` series) never sets the scale when it would dominate: at
20,000 nodes 394 other buildings were nearly the whole of every bar and the six largest a sliver.
When the rest would make a year's bar taller than REST_ROOM times the tallest stack of the named
buildings, the scale is that stack times REST_ROOM and the rest, stacked on top, is cut at the
top of the plot with a break mark; the year's full total is in its label's
title and the tables. The annual budget line is drawn only if it falls inside that scale
(docs/subsystems/web-app.md)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from planning.core.money import money_format
from planning.figures.budget import ChartSeries

WIDTH = 880
HEIGHT = 280
LEFT = 100  # room for the axis labels
RIGHT = 8
TOP = 12
BOTTOM = 28  # room for the years
TICKS = 4
REST_ROOM = Decimal("1.25")  # the scale over the named buildings' tallest stack when cut


@dataclass
class Segment:
    x: float
    y: float
    width: float
    height: float
    css_class: str
    title: str
    cut: bool = False  # taller than the plot: drawn to its top with a break mark

    @property
    def break_mark(self) -> str:
        """Two slanted strokes across the bar near its top (an SVG path)."""
        left, right = self.x, round(self.x + self.width, 1)
        return " ".join(
            f"M{left} {round(self.y + dy + 5, 1)}L{right} {round(self.y + dy, 1)}" for dy in (6, 11)
        )


@dataclass
class Tick:
    y: float
    label: str


@dataclass
class YearLabel:
    x: float
    year: int
    total: str
    over_budget: bool = False


@dataclass
class BudgetLine:
    y: float
    label: str


@dataclass
class Chart:
    width: int
    height: int
    plot_left: int
    plot_right: int
    baseline: float
    segments: list[Segment]
    ticks: list[Tick]
    years: list[YearLabel]
    legend: list[ChartSeries]
    budget_line: BudgetLine | None = None
    cut_note: str = ""  # says which bars are cut, when any is


def _nice_step(peak: Decimal) -> Decimal:
    """A round step (1, 2 or 5 times a power of ten) that covers `peak` in about TICKS ticks."""
    raw = float(peak) / TICKS
    magnitude = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return Decimal(str(factor * magnitude))
    return Decimal(str(10 * magnitude))  # pragma: no cover - the loop always returns


def axis_label(value: Decimal, currency: str) -> str:
    """A tick's amount, short enough for the axis: 0, 750 k, 1.5 M, 2 bn (and the currency)."""
    for size, suffix in ((Decimal(10) ** 9, "bn"), (Decimal(10) ** 6, "M"), (Decimal(1000), "k")):
        if value >= size:
            figure = (value / size).quantize(Decimal("0.1")).normalize()
            shown = money_format(figure, decimals=None, grouping=False)
            return f"{shown}\u00a0{suffix}\u00a0{currency}".strip()
    return money_format(value.normalize(), currency, decimals=None, grouping=False)


def cost_chart(
    *,
    years: list[int],
    series: list[ChartSeries],
    currency: str,
    annual_budget: Decimal | None = None,
    over_budget: frozenset[int] = frozenset(),
) -> Chart:
    """`annual_budget`: a dashed line at that amount (only when the bars are in the budget's
    prices); `over_budget`: the years whose label says they are above it."""
    totals = [sum((s.values[i] for s in series), Decimal(0)) for i in range(len(years))]
    named = [
        sum((s.values[i] for s in series if not s.rest), Decimal(0)) for i in range(len(years))
    ]
    named_peak = max(named, default=Decimal(0))
    cutting = named_peak > 0 and max(totals, default=Decimal(0)) > named_peak * REST_ROOM
    if cutting:
        peak = named_peak * REST_ROOM
    else:
        peak = max([*totals, annual_budget or Decimal(0)], default=Decimal(0))
    step = _nice_step(peak) if peak > 0 else Decimal(1)
    top_value = step * TICKS if peak > 0 else Decimal(1)
    if cutting:  # as close over the named stacks as a round tick allows
        top_value = step * math.ceil(peak / step)
    while top_value < peak:
        top_value += step
    plot_height = HEIGHT - TOP - BOTTOM
    baseline = TOP + plot_height
    slot = (WIDTH - LEFT - RIGHT) / max(len(years), 1)
    bar = slot * 0.7

    def y_of(value: Decimal) -> float:
        return baseline - float(min(value, top_value) / top_value) * plot_height

    ticks = []
    value = Decimal(0)
    while value <= top_value:
        ticks.append(Tick(y=round(y_of(value), 1), label=axis_label(value, currency)))
        value += step
    segments: list[Segment] = []
    labels: list[YearLabel] = []
    for i, year in enumerate(years):
        x = LEFT + i * slot + (slot - bar) / 2
        stacked = Decimal(0)
        for one in series:
            amount = one.values[i]
            if amount <= 0:
                continue
            top = y_of(stacked + amount)
            bottom = y_of(stacked)
            segments.append(
                Segment(
                    x=round(x, 1),
                    y=round(top, 1),
                    width=round(bar, 1),
                    height=round(max(bottom - top, 0.5), 1),
                    css_class=one.css_class,
                    title=f"{year}, {one.label}: {money_format(amount, currency)}",
                    cut=stacked + amount > top_value,
                )
            )
            stacked += amount
        labels.append(
            YearLabel(
                x=round(x + bar / 2, 1),
                year=year,
                total=money_format(totals[i], currency),
                over_budget=year in over_budget,
            )
        )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        baseline=baseline,
        segments=segments,
        ticks=ticks,
        years=labels,
        legend=series,
        budget_line=BudgetLine(
            y=round(y_of(annual_budget), 1),
            label=f"Annual budget {money_format(annual_budget, currency)}",
        )
        if annual_budget is not None and 0 < annual_budget <= top_value
        else None,
        cut_note=_cut_note(series) if any(segment.cut for segment in segments) else "",
    )


def _cut_note(series: list[ChartSeries]) -> str:
    rest = next((one.label for one in series if one.rest), "the rest")
    return (
        f"The scale is the named buildings'; {rest} (grey, on top) are cut where taller (≈). "
        "Every year's total is in its label and in the budget below."
    )
