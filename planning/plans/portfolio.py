"""The selector of an organisation's portfolio (docs/subsystems/portfolio.md "The portfolio's
figures"): which plans it lists, and their figures from planning.figures.portfolio. The page and
`GET /api/v1/platform/portfolio` both read it; they differ only in which plans the reader may
see (a member sees every plan of the organisation; a key, those it may read)."""

from __future__ import annotations

from django.db.models import QuerySet

from organisations.models import Organisation
from planning.catalog.currency import catalog_currency
from planning.figures.portfolio import SORT_DEFAULT, Portfolio, portfolio_build
from planning.models import Plan

NAME_MAX = 200  # the longest name filter (a plan's name is at most 200 characters)


def portfolio_plans(*, plans: QuerySet[Plan], organisation: Organisation, name: str) -> list[Plan]:
    """The plans of `plans` the organisation owns whose name contains `name` (any case), with
    what their figures read: one query."""
    found = plans.filter(organisation=organisation)
    if name:
        found = found.filter(name__icontains=name)
    return list(
        found.order_by().only(
            "pk", "number", "name", "currency", "data_version", "annual_budget", "organisation_id"
        )
    )


def organisation_portfolio(
    *,
    organisation: Organisation,
    plans: QuerySet[Plan],
    name: str = "",
    sort: str = SORT_DEFAULT,
    year: int,
) -> Portfolio:
    """The portfolio of the organisation's plans among `plans` whose name contains `name`, in
    the order `sort` names (planning.figures.portfolio.SORTS), for year Y = `year`."""
    matching = portfolio_plans(plans=plans, organisation=organisation, name=name)
    fci_inputs = (organisation.value_per_m2, catalog_currency(organisation_id=organisation.pk))
    return portfolio_build(
        plans=matching,
        year=year,
        fci_inputs=fci_inputs,
        sort=sort,
    )
