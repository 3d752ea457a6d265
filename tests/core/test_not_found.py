"""A guessed URL under `make run` (DEBUG on) gets the app's "Page not found", as in production,
not Django's technical page listing every URL pattern (issue 26 point 8)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_guessed_url_under_debug_gets_the_apps_page(client: Client, settings: Any) -> None:
    settings.DEBUG = True

    response = client.get("/plans/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert "URLconf" not in page


def test_a_plan_of_someone_else_under_debug_gets_the_apps_page(
    client: Client, settings: Any, user: Any
) -> None:
    settings.DEBUG = True
    client.force_login(user)

    response = client.get("/plans/999999/")

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.content.decode()


def test_an_api_404_stays_json_under_debug(client: Client, settings: Any) -> None:
    settings.DEBUG = True

    response = client.get("/api/v1/no-such-endpoint")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")


def test_the_technical_page_can_be_asked_for(client: Client, settings: Any) -> None:
    settings.DEBUG = True
    settings.DEBUG_TECHNICAL_404 = True

    response = client.get("/plans/no-such-page/")

    assert response.status_code == 404
    assert "URLconf" in response.content.decode()
