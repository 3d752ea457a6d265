"""The webhook pages in Chromium, at desktop and phone widths: add an endpoint, copy its
secret, send a test event to a real receiver and redeliver it from the log."""

from __future__ import annotations

import re
from typing import Any

import pytest

from planning.models import PlanRole
from tests.conftest import browser_login
from tests.factories import PlanFactory, PlanMembershipFactory
from tests.webhooks.conftest import Receiver, run_worker
from webhooks.models import WebhookEndpoint
from webhooks.signing import secret_decrypt

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("private_targets"),
]


@pytest.mark.parametrize("width", [1366, 390])
def test_add_an_endpoint_send_a_test_event_and_redeliver_it(
    page: Any, user: Any, receiver: Receiver, width: int
) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create(name="Riverside school")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    page.set_viewport_size({"width": width, "height": 900})
    browser_login(page, user.email)
    if page.locator("button.menu-toggle").is_visible():  # a phone: the compact menu
        page.click("button.menu-toggle")
    page.click("header a:has-text('Profile')")
    page.click("nav.subnav a:has-text('Webhooks')")
    expect(page.locator("h1")).to_have_text("Webhooks")

    page.click("text=Add an endpoint")
    page.fill("input[name=url]", receiver.url)
    page.fill("input[name=description]", "ERP")
    page.check("input[name=plan_scope][value=chosen]")
    page.check(f"input[name=plans][value='{plan.pk}']")
    page.click("button:has-text('Add endpoint')")

    shown = page.locator("[data-testid=new-webhook-secret]")
    expect(shown).to_be_visible()
    secret = shown.inner_text().strip()
    assert re.fullmatch(r"whsec_[0-9A-Za-z]{32}", secret)
    endpoint = WebhookEndpoint.objects.get(owner=user)
    assert secret_decrypt(endpoint.secret_encrypted) == secret
    page.click("button:has-text('Copy secret')")
    expect(page.locator("[data-copy-status]")).not_to_be_empty()

    page.click("text=Go to the endpoint")
    expect(page.locator("dl.facts")).to_contain_text("Riverside school")
    assert secret not in page.content()
    page.click("button:has-text('Send test event')")
    expect(page.locator(".msg")).to_contain_text("is queued")
    run_worker()
    page.reload()
    log = page.locator("[data-testid=delivery-log] tbody tr")
    expect(log).to_have_count(1)
    expect(log.first).to_contain_text("200")
    # Nothing runs off the screen but the log's table, which scrolls inside its card.
    off_screen = page.evaluate(
        "[...document.querySelectorAll('body *')].filter(e => !e.closest('.table-scroll')"
        " && e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName)"
    )
    assert off_screen == []

    log.first.locator("button:has-text('Redeliver')").click()
    run_worker()
    page.reload()
    expect(log).to_have_count(2)
    ids = {r.headers["Maintplan-Event-Id"] for r in receiver.received}
    assert len(receiver.received) == 2 and len(ids) == 1
