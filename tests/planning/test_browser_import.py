"""The upload form's currency and plan.csv in headless Chromium, as a person uses them: the form
offers the organisation's latest currency, a person changes it for a CSV pair that names none,
and the plan comes in that currency with its work done recorded (docs/subsystems/imports.md
"Currency", "Work
done"), at 1366 and 390 px."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from planning.models import Completion, Plan, PlanImport
from tests.conftest import browser_login, run_queued_jobs
from tests.factories import PlanFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Y = timezone.now().year  # as the code reads it: UTC
NODES = b"ref,name,kind\nB,Harbour depot,building\n"
ACTIONS = (
    "node_ref,title,kind,planned_year,estimated_cost,status,interval_years,completed_on,"
    "actual_cost\n"
    f"B,Relay roof,replacement,{Y - 1},900,done,,{Y - 1}-05-04,1040.50\n"
    f"B,Service boiler,repair,{Y - 1},120,done,5,{Y - 1}-06-01,\n"
).encode()


def _choose(page: Any, field: str, name: str, content: bytes) -> None:
    page.set_input_files(
        f"input[name=import-{field}]", files=[{"name": name, "mimeType": "", "buffer": content}]
    )


@pytest.mark.parametrize("width", [1366, 390])
def test_a_csv_pair_comes_in_the_currency_chosen_with_its_work_done(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    PlanFactory.create(organisation=user.personal_organisation, currency="SEK")
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto("/plans/")
    currency = page.locator("input[name=import-currency]")
    expect(currency).to_have_value("SEK")  # the organisation's latest plan's
    currency.fill("nok")
    _choose(page, "nodes_csv", "Harbour depot.csv", NODES)
    _choose(page, "actions_csv", "actions.csv", ACTIONS)
    page.click("#import-plan button[type=submit]")
    expect(page.locator("progress#import-bar")).to_be_visible()
    assert run_queued_jobs() == 1

    expect(page.locator("h1")).to_contain_text("Harbour depot")
    plan = Plan.objects.get(name="Harbour depot")
    assert plan.currency == "NOK"
    assert sorted(plan.actions.values_list("title", "status", "planned_year")) == [
        ("Relay roof", "done", Y - 1),
        ("Service boiler", "planned", Y + 4),
    ]
    assert sorted(
        Completion.objects.filter(action__plan=plan).values_list("completed_on", "actual_cost")
    ) == [(datetime.date(Y - 1, 5, 4), Decimal("1040.50")), (datetime.date(Y - 1, 6, 1), None)]
    page.click("nav.tabs a:has-text('Actions')")
    roof = page.locator("#actions-table tr", has_text="Relay roof")
    expect(roof).to_contain_text("1,040.50\u00a0NOK")
    expect(roof).to_contain_text(f"done {Y - 1}-05-04")


def test_a_bad_currency_is_explained_beside_the_field(page: Any, user: Any) -> None:
    from playwright.sync_api import expect

    browser_login(page, user.email)
    page.goto("/plans/")
    page.locator("input[name=import-currency]").fill("E1R")
    _choose(page, "nodes_csv", "nodes.csv", NODES)
    _choose(page, "actions_csv", "actions.csv", ACTIONS)
    page.click("#import-plan button[type=submit]")

    field = page.locator("#import-plan .field.has-error")
    expect(field).to_contain_text("Enter a 3-letter currency code such as EUR or USD.")
    assert not PlanImport.objects.exists()
