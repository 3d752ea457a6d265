"""A plan's fund in figures (docs/subsystems/funding.md): the cash flow and percent funded in
whole cents (`cashflow`), the fully funded balance (`ffb`), the exact goal solver (`goals`), and
the figures read from the database (`plans`: a fund's, a scenario's, `percent_funded_now` for
many plans)."""

from planning.figures.funding.plans import (
    FundingFigures,
    fund_figures,
    percent_funded_now,
    scenario_figures,
)

__all__ = ["FundingFigures", "fund_figures", "percent_funded_now", "scenario_figures"]
