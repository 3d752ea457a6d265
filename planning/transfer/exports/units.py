"""The units the exports' headers state once for their amounts: the plan's currency in today's
prices, and nominal as this plan's prices say it (docs/subsystems/money.md)."""

from __future__ import annotations

from planning.figures.prices import NOMINAL, PriceIndex
from planning.models import Plan


def today_unit(plan: Plan) -> str:
    return f"{plan.currency}, today's prices"


def nominal_unit(plan: Plan) -> str:
    return f"{plan.currency}, {PriceIndex.of(plan).prices_wording(NOMINAL)}"
