"""The Python SDK's portfolio (clients/python: `Client.portfolio`, `Client.portfolio_page`),
in process through httpx's WSGI transport: every page of an organisation's portfolio as the
generated models, and its totals (docs/subsystems/portfolio.md "The API")."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import httpx
import pytest
from django.core.wsgi import get_wsgi_application
from django.utils import timezone

from apikeys.services import api_key_create
from planning.models import NodeKind
from tests.factories import (
    ActionFactory,
    OrganisationFactory,
    PlanFactory,
    StructureNodeFactory,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))

from maintplan import ApiError, Client  # noqa: E402 (the SDK is not installed into the venv)

# Committed: Django's WSGI handler closes the connection at each request's start and end, which
# on PostgreSQL would end a test transaction the requests run inside.
pytestmark = pytest.mark.django_db(transaction=True)
Y = timezone.localdate().year


def test_the_sdk_walks_the_portfolio_and_reads_its_totals() -> None:
    organisation = OrganisationFactory.create(api_access_enabled=True)
    for name, cost in (("Block 2", "100.00"), ("Block 10", "300.00"), ("Annex", "200.00")):
        plan = PlanFactory.create(organisation=organisation, name=name)
        house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING)
        ActionFactory.create(node=house, planned_year=Y + 1, estimated_cost=Decimal(cost))
    _key, raw = api_key_create(user=None, name="ERP", organisation=organisation)
    transport = httpx.WSGITransport(app=get_wsgi_application())
    client = Client("http://testserver", raw, httpx_args={"transport": transport})

    plans = list(client.portfolio(limit=2))
    assert [plan.name for plan in plans] == ["Block 2", "Block 10", "Annex"]  # by number
    assert [plan.ten_year_cost for plan in plans] == ["100.00", "300.00", "200.00"]
    assert [plan.name for plan in client.portfolio(q="block")] == ["Block 2", "Block 10"]
    page = client.portfolio_page(limit=1)
    assert (page.year_from, page.year_to, page.prices) == (Y, Y + 9, "today")
    assert [(t.currency, t.plans, t.ten_year_cost) for t in page.totals] == [("EUR", 3, "600.00")]
    with pytest.raises(ApiError) as refused:
        client.portfolio_page(organisation="someone-else")
    assert refused.value.message_key == "portfolio.not_found"
