"""Simultaneous list requests for a never-synced plan (PostgreSQL, real connections).

Run with `scripts/with-postgres.sh .venv/bin/pytest tests/planning/test_sync_concurrency.py -q`.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from django.db import connections

from planning.models import ActionKind, NodeKind, PlanRole, Suggestion
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

REQUESTS = 8


def fetch(url: str, key: str) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=60) as response:  # noqa: S310
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_first_lists_agree_and_store_each_fingerprint_once(
    requires_postgres: None, live_server: Any, api_user: Any, raw_key: str
) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    code = CodeFactory.create(unit_cost=Decimal("10"), service_life_years=10)
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING)
    for i in range(60):
        node = StructureNodeFactory.create(
            plan=plan,
            parent=building,
            code=code if i % 2 else None,
            quantity=Decimal("3"),
            install_year=2000,
        )
        ActionFactory.create(node=node, kind=ActionKind.REPLACEMENT, planned_year=2030 + i % 2)
    assert not Suggestion.objects.filter(plan=plan).exists()

    url = f"{live_server.url}/api/v1/platform/plans/{plan.number}/suggestions"
    barrier = threading.Barrier(REQUESTS)
    results: list[tuple[int, dict[str, Any]] | BaseException] = [None] * REQUESTS  # type: ignore[list-item]

    def worker(index: int) -> None:
        try:
            barrier.wait()
            results[index] = fetch(url, raw_key)
        except BaseException as error:  # reported by the assertions below
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(REQUESTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    statuses = [r[0] if isinstance(r, tuple) else repr(r) for r in results]
    assert statuses == [200] * REQUESTS
    datas = [r[1]["data"] for r in results]  # type: ignore[index]
    assert all(data == datas[0] for data in datas)
    assert datas[0]["open_count"] > 60

    fingerprints = Counter(
        Suggestion.objects.filter(plan=plan).values_list("fingerprint", flat=True)
    )
    assert fingerprints and max(fingerprints.values()) == 1
    stored_ids = set(
        Suggestion.objects.filter(plan=plan, status="open").values_list("id", flat=True)
    )
    assert {s["id"] for s in datas[0]["suggestions"]} == {str(i) for i in stored_ids}
    # and a later sync finds nothing left to do
    result = suggestion_sync(plan=plan)
    assert (result.created, result.updated, result.resolved, result.reopened) == (0, 0, 0, 0)
