"""Conditional requests (ETag, If-None-Match -> 304), caching headers and gzip of
GET /api/v1/platform/plans/{planNumber}/suggestions (docs/subsystems/integrator-api.md "Integrator
API")."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from planning.models import ActionKind, NodeKind, Plan, PlanRole, StructureNode, Suggestion
from planning.plans.services.nodes import node_code_assign, node_delete
from planning.suggestions.services.dismissal import suggestions_dismiss
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.openapi_contract import assert_conforms, find_operation
from tests.statements import statement_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _public_responses_match_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/conftest.py's check of every response against the schema, for the answers it
    cannot read yet: a 304 (no body) is checked against its documented headers, a gzip body is
    checked after decompressing it."""
    original = Client.request

    def request_and_check(self: Client, **request: Any) -> Any:
        response = original(self, **request)
        method, path = request["REQUEST_METHOD"], request["PATH_INFO"]
        if response.status_code == 304:
            documented = find_operation(method, path)["responses"]["304"]  # type: ignore[index]
            assert "content" not in documented
            for header, spec in documented["headers"].items():
                assert not spec.get("required") or response.has_header(header), header
        elif response.get("Content-Encoding") == "gzip":
            plain = SimpleNamespace(
                status_code=response.status_code,
                content=gzip.decompress(response.content),
                has_header=response.has_header,
            )
            assert_conforms(method, path, plain)
        else:
            assert_conforms(method, path, response)
        return response

    monkeypatch.setattr(Client, "request", request_and_check)


@pytest.fixture
def plan(api_user: Any) -> Plan:
    """A building with an uncoded boiler (missing code) and a coded roof whose replacement
    costs five times the reference (critical deviation)."""
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.EDITOR)
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    code = CodeFactory.create(unit_cost=Decimal("100"), service_life_years=None)
    roof = StructureNodeFactory.create(
        plan=plan, parent=building, name="Roof", code=code, quantity=Decimal("1")
    )
    ActionFactory.create(node=roof, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("500"))
    StructureNodeFactory.create(plan=plan, parent=building, name="Boiler")
    return plan


def get(client: Client, key: str, plan: Plan, params: Any = None, **headers: str) -> Any:
    return client.get(
        f"/api/v1/platform/plans/{plan.number}/suggestions",
        params or {},
        headers={"Authorization": f"Bearer {key}", **headers},
    )


def body_of(response: Any) -> dict[str, Any]:
    content = response.content
    if response.get("Content-Encoding") == "gzip":
        content = gzip.decompress(content)
    result: dict[str, Any] = json.loads(content)
    return result


def node(plan: Plan, name: str) -> StructureNode:
    return StructureNode.objects.get(plan=plan, name=name)


# --- ETag and 304 ---------------------------------------------------------------------------


def test_every_list_answer_has_a_weak_etag_and_private_no_cache(
    client: Client, raw_key: str, plan: Plan
) -> None:
    for params in ({}, {"limit": 1}, {"severity": "critical"}):
        response = get(client, raw_key, plan, params)

        assert response.status_code == 200
        assert response["ETag"].startswith('W/"') and response["ETag"].endswith('"')
        assert response["Cache-Control"] == "private, no-cache"


def test_an_unchanged_list_is_a_304_without_body(client: Client, raw_key: str, plan: Plan) -> None:
    etag = get(client, raw_key, plan)["ETag"]

    response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag
    assert response["Cache-Control"] == "private, no-cache"
    assert response["X-Request-ID"]


def test_the_304_echoes_the_request_id(client: Client, raw_key: str, plan: Plan) -> None:
    etag = get(client, raw_key, plan)["ETag"]

    response = get(client, raw_key, plan, If_None_Match=etag, X_Request_ID="erp-poll-000042")

    assert response.status_code == 304
    assert response["X-Request-ID"] == "erp-poll-000042"


@pytest.mark.parametrize(
    "header",
    [
        "{etag}",
        "{strong}",
        '"nope", {etag}',
        'W/"nope",{etag} ',
        "*",
    ],
)
def test_if_none_match_uses_weak_comparison_lists_and_star(
    client: Client, raw_key: str, plan: Plan, header: str
) -> None:
    etag = get(client, raw_key, plan)["ETag"]
    strong = etag.removeprefix("W/")

    response = get(client, raw_key, plan, If_None_Match=header.format(etag=etag, strong=strong))

    assert response.status_code == 304


def test_another_etag_gets_the_full_list(client: Client, raw_key: str, plan: Plan) -> None:
    response = get(client, raw_key, plan, If_None_Match='W/"0123456789abcdef"')

    assert response.status_code == 200
    assert body_of(response)["data"]["open_count"] == 2


def test_the_sync_runs_before_the_etag_is_compared(
    client: Client, raw_key: str, plan: Plan
) -> None:
    etag = get(client, raw_key, plan)["ETag"]
    StructureNodeFactory.create(plan=plan, parent=node(plan, "House"), name="Fence")

    response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 200
    assert response["ETag"] != etag
    assert body_of(response)["data"]["open_count"] == 3


def test_a_dismissal_changes_the_etag(
    client: Client, raw_key: str, plan: Plan, api_user: Any
) -> None:
    etag = get(client, raw_key, plan)["ETag"]
    suggestions_dismiss(
        plan=plan,
        suggestion_ids=[Suggestion.objects.get(plan=plan, suggestion_type="missing_code").pk],
        user=api_user,
        reason="false_positive",
    )

    response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 200
    assert body_of(response)["data"]["open_count"] == 1


def test_a_change_that_resolves_a_suggestion_changes_the_etag(
    client: Client, raw_key: str, plan: Plan
) -> None:
    etag = get(client, raw_key, plan)["ETag"]
    node_code_assign(node=node(plan, "Boiler"), code=CodeFactory.create())

    response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 200
    assert [s["suggestion_type"] for s in body_of(response)["data"]["suggestions"]] == ["deviation"]


def test_a_node_moving_out_of_the_filtered_subtree_changes_the_etag(
    client: Client, raw_key: str, plan: Plan
) -> None:
    house = node(plan, "House")
    params = {"structure_node_id": str(house.pk)}
    etag = get(client, raw_key, plan, params)["ETag"]
    boiler = node(plan, "Boiler")
    StructureNode.objects.filter(pk=boiler.pk).update(
        parent=StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Shed")
    )

    response = get(client, raw_key, plan, params, If_None_Match=etag)

    assert response.status_code == 200
    assert str(boiler.pk) not in {
        s["structure_node_id"] for s in body_of(response)["data"]["suggestions"]
    }


def test_deleting_a_node_with_open_suggestions_changes_the_etag(
    client: Client, raw_key: str, plan: Plan
) -> None:
    etag = get(client, raw_key, plan)["ETag"]
    node_delete(node=node(plan, "Boiler"))

    response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 200
    assert body_of(response)["data"]["open_count"] == 1


def test_each_query_has_its_own_etag(client: Client, raw_key: str, plan: Plan) -> None:
    first_page = get(client, raw_key, plan, {"limit": 1})
    cursor = body_of(first_page)["data"]["next_cursor"]
    answers = [
        get(client, raw_key, plan),
        get(client, raw_key, plan, {"severity": "critical"}),
        get(client, raw_key, plan, {"suggestion_type": "missing_code"}),
        get(client, raw_key, plan, {"structure_node_id": str(node(plan, "House").pk)}),
        first_page,
        get(client, raw_key, plan, {"limit": 2}),
        get(client, raw_key, plan, {"limit": 1, "cursor": cursor}),
    ]

    assert len({answer["ETag"] for answer in answers}) == len(answers)


def test_the_etag_ignores_how_the_filters_are_spelled(
    client: Client, raw_key: str, plan: Plan
) -> None:
    joined = get(client, raw_key, plan, {"severity": "critical,info", "utm_source": "x"})
    repeated = get(client, raw_key, plan, {"severity": ["info", "critical", "info"]})

    assert joined["ETag"] == repeated["ETag"]


def test_a_page_304s_while_nothing_changed(client: Client, raw_key: str, plan: Plan) -> None:
    etag = get(client, raw_key, plan, {"limit": 1})["ETag"]

    assert get(client, raw_key, plan, {"limit": 1}, If_None_Match=etag).status_code == 304


def test_a_bad_query_is_a_400_even_with_a_matching_etag(
    client: Client, raw_key: str, plan: Plan
) -> None:
    etag = get(client, raw_key, plan)["ETag"]

    response = get(client, raw_key, plan, {"limit": "0"}, If_None_Match="*")

    assert response.status_code == 400
    assert response.json()["messageKey"] == "validation.query"
    assert etag


# --- gzip -----------------------------------------------------------------------------------


def make_big(plan: Plan) -> None:
    """Enough uncoded components for a list body well over 1 KB."""
    StructureNodeFactory.create_batch(20, plan=plan, parent=node(plan, "House"))


def test_a_big_list_is_gzipped_when_the_client_accepts_it(
    client: Client, raw_key: str, plan: Plan
) -> None:
    make_big(plan)
    plain = get(client, raw_key, plan)

    response = get(client, raw_key, plan, Accept_Encoding="gzip, deflate, br")

    assert response["Content-Encoding"] == "gzip"
    assert response["Vary"] == "Accept-Encoding"
    assert int(response["Content-Length"]) == len(response.content) < len(plain.content)
    compressed = body_of(response)
    uncompressed = plain.json()
    compressed.pop("traceId")
    uncompressed.pop("traceId")
    assert compressed == uncompressed


def test_a_big_list_is_not_gzipped_without_accept_encoding(
    client: Client, raw_key: str, plan: Plan
) -> None:
    make_big(plan)

    response = get(client, raw_key, plan)

    assert len(response.content) > 1024
    assert not response.has_header("Content-Encoding")
    assert response["Vary"] == "Accept-Encoding"
    assert response.json()["data"]["open_count"] == 22


@pytest.mark.parametrize("accept_encoding", ["gzip;q=0", "identity", "br", "*;q=0"])
def test_a_big_list_is_not_gzipped_when_gzip_is_refused(
    client: Client, raw_key: str, plan: Plan, accept_encoding: str
) -> None:
    make_big(plan)

    response = get(client, raw_key, plan, Accept_Encoding=accept_encoding)

    assert not response.has_header("Content-Encoding")
    assert response.json()["success"] is True


@pytest.mark.parametrize("accept_encoding", ["GZIP", "br;q=1.0, gzip;q=0.5", "*"])
def test_gzip_is_recognised_in_any_accept_encoding_spelling(
    client: Client, raw_key: str, plan: Plan, accept_encoding: str
) -> None:
    make_big(plan)

    response = get(client, raw_key, plan, Accept_Encoding=accept_encoding)

    assert response["Content-Encoding"] == "gzip"


def test_a_list_of_at_most_1_kb_is_not_gzipped(client: Client, raw_key: str, plan: Plan) -> None:
    params = {"suggestion_type": "missing_code"}
    assert len(get(client, raw_key, plan, params).content) <= 1024

    response = get(client, raw_key, plan, params, Accept_Encoding="gzip")

    assert not response.has_header("Content-Encoding")
    assert response["Vary"] == "Accept-Encoding"
    assert response.json()["data"]["open_count"] == 1


def test_an_error_is_not_gzipped(client: Client, raw_key: str, plan: Plan) -> None:
    response = get(
        client, raw_key, plan, {"severity": ",".join(["x" * 40] * 40)}, Accept_Encoding="gzip"
    )

    assert response.status_code == 400
    assert len(response.content) > 1024
    assert not response.has_header("Content-Encoding")


# --- the whole list, rendered once per ETag (list_cache) ------------------------------------


def _suggestion_reads(queries: CaptureQueriesContext) -> list[str]:
    table = Suggestion._meta.db_table
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].lstrip().upper().startswith("SELECT") and f'FROM "{table}"' in q["sql"]
    ]


def test_a_second_whole_list_is_served_without_reading_the_suggestions(
    client: Client, raw_key: str, plan: Plan
) -> None:
    first = get(client, raw_key, plan)
    with CaptureQueriesContext(connection) as queries:
        second = get(client, raw_key, plan)

    assert _suggestion_reads(queries) == []
    first_body, second_body = body_of(first), body_of(second)
    assert second_body["data"] == first_body["data"]
    assert second_body["traceId"] != first_body["traceId"]  # the envelope is this request's


def test_a_change_is_listed_at_once_not_the_kept_list(
    client: Client, raw_key: str, plan: Plan
) -> None:
    before = body_of(get(client, raw_key, plan))["data"]
    node_code_assign(node=node(plan, "Boiler"), code=CodeFactory.create())

    after = body_of(get(client, raw_key, plan))["data"]

    assert after["open_count"] == before["open_count"] - 1
    assert "missing_code" not in {s["suggestion_type"] for s in after["suggestions"]}


def test_a_kept_list_renders_indented_on_request(client: Client, raw_key: str, plan: Plan) -> None:
    compact = body_of(get(client, raw_key, plan))["data"]
    response = get(client, raw_key, plan, Accept="application/json; indent=2")

    assert response.status_code == 200
    assert b'\n  "success"' in response.content
    assert body_of(response)["data"] == compact


def test_a_raw_sql_change_is_seen_by_the_next_conditional_request(
    client: Client, raw_key: str, plan: Plan
) -> None:
    """A change no service made raised no data version: the pending change alone says a sync
    is due, and the answer is the new list, not a 304."""
    etag = get(client, raw_key, plan)["ETag"]
    StructureNode.objects.filter(pk=node(plan, "Boiler").pk).update(code=CodeFactory.create())

    response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 200 and response["ETag"] != etag
    assert "missing_code" not in {
        s["suggestion_type"] for s in body_of(response)["data"]["suggestions"]
    }


def test_a_304_with_nothing_due_takes_no_lock_and_writes_nothing(
    client: Client, raw_key: str, plan: Plan
) -> None:
    etag = get(client, raw_key, plan)["ETag"]

    with CaptureQueriesContext(connection) as queries:
        response = get(client, raw_key, plan, If_None_Match=etag)

    assert response.status_code == 304
    ran = [statement_text(q["sql"]) for q in queries.captured_queries]
    statements = [sql.lstrip().split()[0].upper() for sql in ran]
    assert set(statements) == {"SELECT"}, statements
    assert not any("FOR UPDATE" in sql for sql in ran)


# --- the whole list kept compressed for gzip clients (list_cache) ---------------------------

TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def test_a_kept_compressed_list_is_byte_for_byte_the_first_answer(
    client: Client, raw_key: str, plan: Plan
) -> None:
    make_big(plan)
    cold = get(client, raw_key, plan, Accept_Encoding="gzip", traceparent=TRACE)
    with CaptureQueriesContext(connection) as queries:
        warm = get(client, raw_key, plan, Accept_Encoding="gzip", traceparent=TRACE)
    plain = get(client, raw_key, plan, traceparent=TRACE)

    assert _suggestion_reads(queries) == []
    assert warm["Content-Encoding"] == cold["Content-Encoding"] == "gzip"
    assert warm["Content-Type"] == plain["Content-Type"] == "application/json"
    assert int(warm["Content-Length"]) == len(warm.content)
    assert gzip.decompress(warm.content) == gzip.decompress(cold.content) == plain.content
    assert json.loads(plain.content)["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736"


def test_each_compressed_answer_carries_its_own_trace_id(
    client: Client, raw_key: str, plan: Plan
) -> None:
    make_big(plan)
    first = body_of(get(client, raw_key, plan, Accept_Encoding="gzip"))
    second = body_of(get(client, raw_key, plan, Accept_Encoding="gzip", traceparent=TRACE))

    assert second["traceId"] == "4bf92f3577b34da6a3ce929d0e0e4736" != first["traceId"]
    assert second["data"] == first["data"]


def test_a_change_gives_a_new_compressed_list(client: Client, raw_key: str, plan: Plan) -> None:
    make_big(plan)
    boiler = node(plan, "Boiler")
    before = get(client, raw_key, plan, Accept_Encoding="gzip")
    node_code_assign(node=boiler, code=CodeFactory.create())

    after = get(client, raw_key, plan, Accept_Encoding="gzip")

    assert after["ETag"] != before["ETag"]
    assert body_of(after)["data"]["open_count"] == body_of(before)["data"]["open_count"] - 1
    listed = {s["structure_node_id"] for s in body_of(after)["data"]["suggestions"]}
    assert str(boiler.pk) in {
        s["structure_node_id"] for s in body_of(before)["data"]["suggestions"]
    }
    assert str(boiler.pk) not in listed


def test_a_list_holding_a_nul_character_is_whole_when_compressed(
    client: Client, raw_key: str, plan: Plan
) -> None:
    """The kept start ends where the envelope's array goes; a NUL in the data is no such end."""
    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL stores no NUL in text")
    make_big(plan)
    StructureNodeFactory.create(plan=plan, parent=node(plan, "House"), name="Pump\x00 2")
    plain = get(client, raw_key, plan, traceparent=TRACE)

    for _ in range(2):  # compressed afresh, then from the kept start
        response = get(client, raw_key, plan, Accept_Encoding="gzip", traceparent=TRACE)
        assert gzip.decompress(response.content) == plain.content
    assert b"Pump\\u0000 2" in plain.content


def test_a_gzip_client_keeps_only_the_compressed_list(
    client: Client, raw_key: str, plan: Plan
) -> None:
    """The JSON array (five times the size) is kept only once a client asks for plain JSON."""
    make_big(plan)
    get(client, raw_key, plan, Accept_Encoding="gzip")

    with CaptureQueriesContext(connection) as plain_reads:
        get(client, raw_key, plan)
    with CaptureQueriesContext(connection) as again:
        get(client, raw_key, plan)

    assert _suggestion_reads(plain_reads) != []
    assert _suggestion_reads(again) == []


@pytest.mark.parametrize("accept_encoding", ["gzip", ""])
def test_a_kept_list_is_read_afresh_after_15_minutes(
    client: Client, raw_key: str, plan: Plan, time_machine: Any, accept_encoding: str
) -> None:
    make_big(plan)
    time_machine.move_to(datetime.now(UTC), tick=False)
    get(client, raw_key, plan, Accept_Encoding=accept_encoding)

    time_machine.shift(14 * 60)
    with CaptureQueriesContext(connection) as kept:
        get(client, raw_key, plan, Accept_Encoding=accept_encoding)
    time_machine.shift(2 * 60)
    with CaptureQueriesContext(connection) as expired:
        get(client, raw_key, plan, Accept_Encoding=accept_encoding)

    assert _suggestion_reads(kept) == []
    assert _suggestion_reads(expired) != []


def test_a_page_is_not_served_from_the_kept_list(client: Client, raw_key: str, plan: Plan) -> None:
    make_big(plan)
    whole = body_of(get(client, raw_key, plan, Accept_Encoding="gzip"))

    page = body_of(get(client, raw_key, plan, {"limit": 2}, Accept_Encoding="gzip"))

    assert page["data"]["suggestions"] == whole["data"]["suggestions"][:2]
    assert page["data"]["next_cursor"]
