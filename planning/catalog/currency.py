"""Which currency a catalog figure is in, and when a plan may use it
(docs/subsystems/code-catalog.md "Currency").

A starter code's own unit cost is in STARTER_CURRENCY; an organisation's figures (an override,
an own code) are in its catalog's currency (OrganisationCatalog). A reference unit cost is used
(rule 2's cost check, "Set cost to reference", the condition's repair, learned references) only
where its currency is the plan's; elsewhere a page says so, and nothing compares with it or
writes it. Figures are never converted: a rate would be a guess dressed up as a reference.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import CharField, Subquery, Value
from django.db.models.functions import Coalesce

from planning.models import OrganisationCatalog


def catalog_currency_default() -> str:
    """An organisation's catalog currency until it has one stored: the currency new plans get,
    so a deployment whose plans are in SEK gets catalogs in SEK."""
    return str(settings.PLAN_DEFAULT_CURRENCY)


def catalog_currency(*, organisation_id: Any) -> str:
    stored = (
        OrganisationCatalog.objects.filter(organisation_id=organisation_id)
        .values_list("currency", flat=True)
        .first()
    )
    return stored or catalog_currency_default()


def catalog_currency_expression(*, organisation_id: Any) -> Coalesce:
    """`catalog_currency` inside a query (a subquery the database runs once)."""
    stored = OrganisationCatalog.objects.filter(organisation_id=organisation_id).values("currency")[
        :1
    ]
    return Coalesce(
        Subquery(stored, output_field=CharField()),
        Value(catalog_currency_default()),
        output_field=CharField(),
    )


def usable_unit_cost(code: Any, *, currency: str) -> Decimal | None:
    """An effective code's (planning.plans.selectors.catalog_codes) reference unit cost when it is
    in `currency` (a plan's), else None: as if the code had none."""
    if code is None or code.ref_unit_cost is None or code.ref_unit_cost_currency != currency:
        return None
    return Decimal(code.ref_unit_cost)


def reference_elsewhere(code: Any, *, currency: str) -> str:
    """What a page says where an effective code's reference unit cost is in another currency
    than the plan's ("" when it is in the plan's, or there is none)."""
    if code is None or code.ref_unit_cost is None or code.ref_unit_cost_currency == currency:
        return ""
    return f"The reference cost is in {code.ref_unit_cost_currency}; this plan is in {currency}."
