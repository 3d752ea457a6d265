from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from integrations.services import api_access_set, api_key_create
from planning.importers import plan_import
from planning.models import PlanNumberCounter
from planning.services import code_catalog_defaults_load

EXAMPLE_PLAN = Path(__file__).resolve().parents[2] / "docs" / "examples" / "plan.json"


@pytest.fixture
def plan_one_key(user: Any) -> str:
    """The example plan as plan #1 (the planNumber the schema and the guide use), owned by
    `user` with API access; returns a raw key of `user`."""
    code_catalog_defaults_load()  # a transactional test before this one may have flushed it
    PlanNumberCounter.objects.update_or_create(pk=1, defaults={"last_number": 0})
    plan = plan_import(owner=user, content=EXAMPLE_PLAN.read_bytes(), filename="plan.json")
    assert plan.number == 1
    api_access_set(user=user, enabled=True)
    _api_key, raw_key = api_key_create(user=user, name="contract")
    return raw_key
