"""/healthz and /readyz: for load balancers, without login, session or access-log noise."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_without_login(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {}}
    assert "no-cache" in response["Cache-Control"]


def test_readyz_checks_database_migrations_and_cache(client: Client) -> None:
    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "migrations": "ok", "cache": "ok"},
    }


def test_readyz_names_an_unreachable_database(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down() -> str:
        raise OperationalError("connection refused")

    monkeypatch.setattr("core.health._database", down)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["checks"]["database"] == "unreachable"


def test_readyz_names_an_unreachable_cache(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("redis is down")

    monkeypatch.setattr("django.core.cache.cache.set", down)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["checks"] == {
        "database": "ok",
        "migrations": "ok",
        "cache": "unreachable",
    }


def test_probes_set_no_cookie_and_stay_out_of_the_access_log(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="maintplan.request"):
        response = client.get("/readyz")

    assert response.cookies == {}
    assert [r for r in caplog.records if r.name == "maintplan.request"] == []
