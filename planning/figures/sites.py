"""A budget's subtotals per site (docs/subsystems/figures.md "Site subtotals"): the budget
workbook's rows below its table. A building counts for its nearest site ancestor
(planning.tree.selectors.building_sites); the subtotal adds the budget's own building cells,
which are sums of rounded occurrences, so a subtotal is one too. Pure: the caller reads the
sites (the workbook needs them for its Site column as well)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.text_order import natural_key
from planning.core.money import amount_of, cents_of
from planning.figures.budget import Budget
from planning.tree.selectors import Site

WITHOUT_SITE = "Buildings without a site"


@dataclass(frozen=True)
class SiteSubtotal:
    site: Site | None  # None: the buildings without a site
    buildings: int  # the budget's buildings in it
    cells: list[Decimal]  # per year of the budget
    total: Decimal

    @property
    def name(self) -> str:
        return self.site.name if self.site is not None else WITHOUT_SITE


def site_subtotals(*, budget: Budget, sites: dict[Any, Site | None]) -> list[SiteSubtotal]:
    """The budget's building rows summed per site, year by year: the sites in natural order,
    then the buildings without one. Empty when none of the budget's buildings has a site (a
    plan without sites has no subtotals). The actions outside any building (the budget's
    "(no building)" row) belong to no site and to no subtotal."""
    width = len(budget.years)
    cents: dict[Site | None, list[int]] = {}
    counts: dict[Site | None, int] = {}
    for row in budget.rows:
        if row.building_id is None:
            continue
        site = sites.get(row.building_id)
        summed = cents.setdefault(site, [0] * width)
        for index, cell in enumerate(row.cells):
            summed[index] += cents_of(cell)
        counts[site] = counts.get(site, 0) + 1
    if all(site is None for site in cents):
        return []
    ordered = sorted(
        cents,
        key=lambda site: (
            site is None,
            natural_key(site.name) if site is not None else (),
            str(site.id) if site is not None else "",
        ),
    )
    return [
        SiteSubtotal(
            site=site,
            buildings=counts[site],
            cells=[amount_of(value) for value in cents[site]],
            total=amount_of(sum(cents[site])),
        )
        for site in ordered
    ]
