from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from planning.catalog.services import code_catalog_defaults_load
from planning.models import Plan, PlanNumberCounter
from planning.suggestions import walk
from planning.transfer.imports.json_file import plan_import
from tests.factories import StructureNodeFactory
from tests.webhooks import conftest as webhook_fixtures
from tests.webhooks.conftest import Receiver
from webhooks.models import WebhookEndpoint
from webhooks.services import endpoint_create

receiver = webhook_fixtures.receiver  # a loopback webhook receiver, for sdk_server


@pytest.fixture(autouse=True)
def _walk_clock() -> Iterator[None]:
    """The walks' clock as it was before the test (sdk_support.walks_expire moves it on)."""
    clock = walk._seconds
    yield
    walk._seconds = clock


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


@dataclass
class SdkServer:
    """A live server with plan #1 (five open suggestions), a key that may act
    (`api_key`) and a webhook endpoint of the same user pointing at `receiver` (`secret`)."""

    url: str
    api_key: str
    endpoint: WebhookEndpoint
    secret: str
    receiver: Receiver


@pytest.fixture
def sdk_server(
    live_server: Any, user: Any, plan_one_key: str, receiver: Receiver, settings: Any
) -> SdkServer:
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True  # the receiver is on loopback
    # Four more uncoded components: five missing-code suggestions, three pages of two.
    StructureNodeFactory.create_batch(4, plan=Plan.objects.get(number=1))
    _key, raw_key = api_key_create(user=user, name="SDK", permission=ApiKey.Permission.READ_WRITE)
    endpoint, secret = endpoint_create(user=user, url=receiver.url)
    return SdkServer(
        url=live_server.url, api_key=raw_key, endpoint=endpoint, secret=secret, receiver=receiver
    )
