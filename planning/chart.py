"""Geometry of the stacked cost chart of the action-planning view (an inline SVG the template
draws, no script): one bar per year, one segment per series, a money axis with round ticks.
Every segment carries its figure as a <title>, which browsers show on hover."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from planning.budget import ChartSeries
from planning.money import money_format

WIDTH = 880
HEIGHT = 280
LEFT = 100  # room for the axis labels
RIGHT = 8
TOP = 12
BOTTOM = 28  # room for the years
TICKS = 4


@dataclass
class Segment:
    x: float
    y: float
    width: float
    height: float
    css_class: str
    title: str


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
            return f"{figure:f}\u00a0{suffix}\u00a0{currency}".strip()
    return f"{value.normalize():f}\u00a0{currency}".strip()


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
    peak = max([*totals, annual_budget or Decimal(0)], default=Decimal(0))
    step = _nice_step(peak) if peak > 0 else Decimal(1)
    top_value = step * TICKS if peak > 0 else Decimal(1)
    while top_value < peak:
        top_value += step
    plot_height = HEIGHT - TOP - BOTTOM
    baseline = TOP + plot_height
    slot = (WIDTH - LEFT - RIGHT) / max(len(years), 1)
    bar = slot * 0.7

    def y_of(value: Decimal) -> float:
        return baseline - float(value / top_value) * plot_height

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
        if annual_budget is not None and annual_budget > 0
        else None,
    )
