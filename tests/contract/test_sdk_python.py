"""The Python SDK (clients/python) against a live server, as an integrator uses it: every page
of a list, a conditional poll (304), a dismissal sent twice with one idempotency key (one
act), event replay, and a real webhook delivery verified (docs/subsystems/schema-and-sdks.md
"SDKs")."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from planning.models import Plan
from planning.suggestions.sync.run import suggestion_sync
from tests.contract.conftest import SdkServer
from tests.factories import StructureNodeFactory
from tests.webhooks.conftest import run_worker

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))

from maintplan import (  # noqa: E402 (the SDK is not installed into the project's venv)
    ApiError,
    Client,
    WebhookVerificationError,
    verify,
)
from maintplan._generated.models import (  # noqa: E402
    EventTypeEnum,
    SuggestionsBulkChangedData,
)

pytestmark = pytest.mark.django_db(transaction=True)
SUGGESTIONS = "/platform/plans/1/suggestions"


def test_pages_poll_dismiss_twice_replay_and_verify(sdk_server: SdkServer) -> None:
    client = Client(sdk_server.url, sdk_server.api_key)

    pages = list(client.pages(SUGGESTIONS, {"limit": 2}))
    listed = [s["id"] for page in pages for s in page["suggestions"]]
    assert len(pages) > 1
    assert len(listed) == len(set(listed)) == pages[0]["open_count"]
    assert [str(s.id) for s in client.suggestions(1, limit=3)] == listed

    polled = client.poll(SUGGESTIONS, {"limit": 2})
    assert polled is not None
    assert polled["suggestions"] == pages[0]["suggestions"]
    assert client.poll(SUGGESTIONS, {"limit": 2}) is None  # 304: nothing changed

    target = listed[-1]
    first = client.dismiss(1, target, "accepted", "Budgeted in the 2027 roof project")
    again = client.dismiss(
        1, target, "accepted", "Budgeted in the 2027 roof project", first.idempotency_key
    )
    assert (first.replayed, again.replayed) == (False, True)
    assert first.suggestion.status == again.suggestion.status == "dismissed"
    assert again.suggestion.to_dict() == first.suggestion.to_dict()
    assert target not in [str(s.id) for s in client.suggestions(1)]
    assert client.poll(SUGGESTIONS, {"limit": 2}) is not None  # changed since the last poll
    with pytest.raises(ApiError) as conflict:  # another key: another request, refused
        client.dismiss(1, target, "accepted")
    assert conflict.value.message_key == "suggestions.state_conflict"

    events = list(client.events(plan=1, limit=1))
    dismissals = [
        change
        for event in events
        for change in event.to_dict()["data"]["changes"]
        if change.get("change") == "dismissed"  # plan data events carry no `change`
    ]
    assert [c["suggestion"]["id"] for c in dismissals] == [target]  # one act
    assert [e.id for e in client.events(after=events[-2].id)] == [events[-1].id]

    run_worker()
    (delivery,) = [
        r
        for r in sdk_server.receiver.received
        if any(c.get("change") == "dismissed" for c in r.event["data"]["changes"])
    ]
    verified = verify(sdk_server.secret, delivery.body, delivery.headers)
    assert verified.id == events[-1].id  # the typed event, as the events list has it
    assert verified.to_dict() == events[-1].to_dict()
    standard = {k: v for k, v in delivery.headers.items() if k.lower().startswith("webhook-")}
    own = {"Maintplan-Signature": delivery.headers["Maintplan-Signature"]}
    assert verify(sdk_server.secret, delivery.body, standard).id == delivery.event["id"]
    typed = verify(sdk_server.secret, delivery.body, own)
    assert (typed.id, typed.type_) == (delivery.event["id"], delivery.event["type"])
    for headers in (standard, own):
        with pytest.raises(WebhookVerificationError):
            verify(sdk_server.secret, delivery.body + b" ", headers)
        with pytest.raises(WebhookVerificationError):
            verify("whsec_" + "A" * 32, delivery.body, headers)
        with pytest.raises(WebhookVerificationError):
            verify(sdk_server.secret, delivery.body, headers, now=time.time() + 301)


@pytest.mark.usefixtures("suggestion_events_only")
def test_a_first_syncs_summary_verifies_as_a_typed_bulk_change(sdk_server: SdkServer) -> None:
    plan = Plan.objects.get(number=1)
    StructureNodeFactory.create_batch(100, plan=plan)  # 105 missing codes: more than one event
    suggestion_sync(plan=plan)
    run_worker()

    (delivery,) = sdk_server.receiver.received
    typed = verify(sdk_server.secret, delivery.body, delivery.headers)

    assert typed.type_ == EventTypeEnum.SUGGESTIONS_BULK_CHANGED
    assert isinstance(typed.data, SuggestionsBulkChangedData)
    assert (typed.data.reason, typed.data.open_count) == ("first_sync", 105)
    assert typed.data.open_by_severity.to_dict() == {"info": 105, "warning": 0, "critical": 0}
