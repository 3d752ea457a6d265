"""The cost chart's geometry (planning/figures/chart.py): the rest of the buildings never sets the
scale when it would dominate (issue 26 point 3: at 20,000 nodes "394 other buildings" filled
the whole chart)."""

from __future__ import annotations

from decimal import Decimal

from planning.figures.budget import ChartSeries
from planning.figures.chart import HEIGHT, cost_chart

YEARS = [2026, 2027]


def _series(rest: list[int]) -> list[ChartSeries]:
    named = [
        ChartSeries(label=f"Building {i}", values=[Decimal(100), Decimal(50)], css_class="s")
        for i in range(6)
    ]
    return [
        *named,
        ChartSeries(
            label="394 other buildings",
            values=[Decimal(v) for v in rest],
            css_class="series-6",
            rest=True,
        ),
    ]


def test_a_dominating_rest_is_cut_and_the_named_buildings_set_the_scale() -> None:
    chart = cost_chart(years=YEARS, series=_series([60_000, 100]), currency="EUR")

    plot = chart.baseline - 12
    named_stack = chart.baseline - min(s.y for s in chart.segments if s.css_class == "s")
    assert named_stack > 0.6 * plot  # the six largest fill most of the height
    cut = [s for s in chart.segments if s.cut]
    assert [(s.css_class, s.title) for s in cut] == [
        ("series-6", "2026, 394 other buildings: 60,000.00\xa0EUR")
    ]
    assert cut[0].y == 12 and cut[0].break_mark  # drawn to the plot's top, marked
    assert "are cut where taller" in chart.cut_note
    # the six make 600 in 2026; the scale is 1.25 times that, up to a round tick
    assert chart.ticks[-1].label == "800\xa0EUR"


def test_a_small_rest_is_drawn_to_scale() -> None:
    chart = cost_chart(years=YEARS, series=_series([100, 100]), currency="EUR")

    assert not any(s.cut for s in chart.segments)
    assert chart.cut_note == ""
    top = min(s.y for s in chart.segments)
    assert chart.baseline - top <= HEIGHT


def test_an_annual_budget_above_the_cut_scale_draws_no_line() -> None:
    chart = cost_chart(
        years=YEARS, series=_series([60_000, 100]), currency="EUR", annual_budget=Decimal(50_000)
    )

    assert chart.budget_line is None
