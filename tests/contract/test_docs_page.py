"""The API docs page renders the public schema from local assets, in headless Chromium."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_docs_page_shows_both_operations_from_local_assets(page, live_server, tmp_path):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    page.goto("/api/v1/docs/")
    page.wait_for_selector(".opblock-summary", timeout=15_000)

    text = page.inner_text("body")
    assert "listPlanSuggestions" in text
    assert "checkApiKeySession" in text
    assert "/platform/plans/{planNumber}/suggestions" in text
    assert "/auth/session/api-key" in text
    assert "/auth/login/user" not in text
    assert page.locator("button.authorize").is_visible()  # the ApiKeyAuth scheme
    foreign = [url for url in requested if not url.startswith((live_server.url, "data:"))]
    assert foreign == []  # no CDN: every asset comes from this server
    screenshot = tmp_path / "docs.png"
    page.screenshot(path=str(screenshot), full_page=True)
    assert screenshot.read_bytes().startswith(b"\x89PNG")
    assert screenshot.stat().st_size > 10_000  # a rendered page, not a blank one


def test_docs_page_needs_no_key(client):
    response = client.get("/api/v1/docs/")

    assert response.status_code == 200
    assert b"swagger-ui" in response.content
