"""Geometry of the Funding tab's chart (an inline SVG the template draws, no script, as
planning.figures.chart's cost chart): the year-end balance of one or more cash flows as lines
against the plan's nominal cost per year as bars, on one money axis with round ticks that
reaches below zero when a balance does. Every point and bar carries its figure as a <title>."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from planning.core.money import amount_of, money_format
from planning.figures.chart import _nice_step, axis_label

WIDTH = 880
HEIGHT = 300
LEFT = 100
RIGHT = 8
TOP = 12
BOTTOM = 28
TICKS = 4
LABEL_EVERY = 5  # a year label every fifth year (40 years fit a phone's width)


@dataclass
class Bar:
    x: float
    y: float
    width: float
    height: float
    title: str


@dataclass
class Point:
    x: float
    y: float
    title: str


@dataclass
class Line:
    label: str
    css_class: str
    points: list[Point]

    @property
    def path(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


@dataclass
class Tick:
    y: float
    label: str


@dataclass
class YearLabel:
    x: float
    year: int


@dataclass
class FundChart:
    width: int
    height: int
    plot_left: int
    plot_right: int
    zero: float
    bars: list[Bar]
    lines: list[Line]
    ticks: list[Tick]
    years: list[YearLabel]


def _tick_label(value: Decimal, currency: str) -> str:
    return f"\u2212{axis_label(-value, currency)}" if value < 0 else axis_label(value, currency)


def fund_chart(
    *,
    years: Sequence[int],
    costs_cents: Sequence[int],
    balances: Sequence[tuple[str, Sequence[int | None]]],
    currency: str,
) -> FundChart:
    """Bars of the costs and a line per (label, year-end balances in cents; None: a year
    outside that line's horizon, left out)."""
    costs = [amount_of(c) for c in costs_cents]
    series = [
        (label, [None if c is None else amount_of(c) for c in values]) for label, values in balances
    ]
    values = [*costs, *(v for _, line in series for v in line if v is not None), Decimal(0)]
    high, low = max(values), min(values)
    step = _nice_step(high - low) if high > low else Decimal(1)
    top = step * math.ceil(high / step) if high > 0 else Decimal(0)
    bottom = -step * math.ceil(-low / step) if low < 0 else Decimal(0)
    if top == bottom:
        top = step
    plot = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / max(len(years), 1)

    def y_of(value: Decimal) -> float:
        return round(TOP + float((top - value) / (top - bottom)) * plot, 1)

    ticks = []
    value = bottom
    while value <= top:
        ticks.append(Tick(y=y_of(value), label=_tick_label(value, currency)))
        value += step
    zero = y_of(Decimal(0))
    bars = []
    for i, (year, cost) in enumerate(zip(years, costs, strict=True)):
        if cost > 0:
            y = y_of(cost)
            bars.append(
                Bar(
                    x=round(LEFT + i * slot + slot * 0.15, 1),
                    y=y,
                    width=round(slot * 0.7, 1),
                    height=round(max(zero - y, 0.5), 1),
                    title=f"{year}, cost: {money_format(cost, currency)}",
                )
            )
    lines = [
        Line(
            label=label,
            css_class=f"series-{index}",
            points=[
                Point(
                    x=round(LEFT + i * slot + slot / 2, 1),
                    y=y_of(balance),
                    title=f"{year}, {label}: {money_format(balance, currency)}",
                )
                for i, (year, balance) in enumerate(zip(years, line, strict=True))
                if balance is not None
            ],
        )
        for index, (label, line) in enumerate(series)
    ]
    return FundChart(
        width=WIDTH,
        height=HEIGHT,
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        zero=zero,
        bars=bars,
        lines=lines,
        ticks=ticks,
        years=[
            YearLabel(x=round(LEFT + i * slot + slot / 2, 1), year=year)
            for i, year in enumerate(years)
            if i % LABEL_EVERY == 0 or i == len(years) - 1
        ],
    )
