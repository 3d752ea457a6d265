"""One test per outcome of the Bearer authentication, through the session check."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from api.envelope import api_response
from api.throttling import ApiKeyThrottle
from apikeys.authentication import ApiKeyAuthentication, api_key_authenticate
from apikeys.keys import key_checksum, key_hash
from apikeys.models import ApiKey
from apikeys.selectors import api_key_by_hash, plan_for_key
from apikeys.services import api_access_set, api_key_create, api_key_revoke
from planning.models import Plan, PlanRole
from tests.apikeys.conftest import session_check
from tests.envelope import ENVELOPE_FIELDS, assert_envelope
from tests.factories import PlanFactory, PlanMembershipFactory
from tests.statements import statement_text


def test_missing_header_is_missing_api_key(client: Any, db: Any) -> None:
    assert_envelope(session_check(client, None), 401, "auth.missing_api_key")


def test_empty_header_is_missing_api_key(client: Any, db: Any) -> None:
    assert_envelope(session_check(client, ""), 401, "auth.missing_api_key")


def test_other_scheme_is_malformed_authorization(client: Any, raw_key: str) -> None:
    assert_envelope(session_check(client, f"Token {raw_key}"), 401, "auth.malformed_authorization")


def test_key_without_scheme_is_malformed_authorization(client: Any, raw_key: str) -> None:
    assert_envelope(session_check(client, raw_key), 401, "auth.malformed_authorization")


def test_bearer_without_key_is_malformed_authorization(client: Any, db: Any) -> None:
    assert_envelope(session_check(client, "Bearer "), 401, "auth.malformed_authorization")


def test_extra_spaces_are_malformed_authorization(client: Any, raw_key: str) -> None:
    assert_envelope(
        session_check(client, f"Bearer  {raw_key}"), 401, "auth.malformed_authorization"
    )
    assert_envelope(
        session_check(client, f"Bearer {raw_key} "), 401, "auth.malformed_authorization"
    )


def test_lowercase_scheme_is_accepted(client: Any, raw_key: str) -> None:
    assert session_check(client, f"bearer {raw_key}").status_code == 200


def test_non_ascii_key_is_invalid(client: Any, db: Any) -> None:
    body = "mpk_" + "é" * 32
    key = body + key_checksum(body)  # a matching checksum: only the alphabet check refuses it
    assert_envelope(session_check(client, f"Bearer {key}"), 401, "auth.invalid_api_key")


def test_wrong_prefix_is_invalid(client: Any, db: Any) -> None:
    body = "sk_live_" + "A" * 32
    key = body + key_checksum(body)
    assert_envelope(session_check(client, f"Bearer {key}"), 401, "auth.invalid_api_key")


def test_bad_checksum_is_invalid(client: Any, raw_key: str) -> None:
    tampered = raw_key[:-1] + ("0" if raw_key[-1] != "0" else "1")
    assert_envelope(session_check(client, f"Bearer {tampered}"), 401, "auth.invalid_api_key")


def test_unknown_key_is_invalid(client: Any, db: Any) -> None:
    body = "mpk_" + "Q" * 32
    unknown = body + key_checksum(body)
    assert_envelope(session_check(client, f"Bearer {unknown}"), 401, "auth.invalid_api_key")


def test_revoked_key_is_rejected(client: Any, api_key_and_raw: tuple[ApiKey, str]) -> None:
    api_key, raw = api_key_and_raw
    api_key_revoke(api_key=api_key)
    assert_envelope(session_check(client, f"Bearer {raw}"), 401, "auth.api_key_revoked")


def test_expired_key_is_rejected(client: Any, api_key_and_raw: tuple[ApiKey, str]) -> None:
    api_key, raw = api_key_and_raw
    ApiKey.objects.filter(pk=api_key.pk).update(
        created_at=timezone.now() - timedelta(days=10),
        expires_at=timezone.now() - timedelta(seconds=1),
    )
    assert_envelope(session_check(client, f"Bearer {raw}"), 401, "auth.api_key_expired")


def test_revoked_and_expired_key_is_reported_revoked(
    client: Any, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    api_key, raw = api_key_and_raw
    ApiKey.objects.filter(pk=api_key.pk).update(
        created_at=timezone.now() - timedelta(days=10),
        expires_at=timezone.now() - timedelta(days=1),
        revoked_at=timezone.now(),
    )
    assert_envelope(session_check(client, f"Bearer {raw}"), 401, "auth.api_key_revoked")


def test_key_of_inactive_account_is_forbidden(client: Any, api_user: Any, raw_key: str) -> None:
    api_user.is_active = False
    api_user.save(update_fields=["is_active"])
    assert_envelope(session_check(client, f"Bearer {raw_key}"), 403, "auth.account_inactive")


def test_key_without_api_access_is_forbidden(client: Any, api_user: Any, raw_key: str) -> None:
    api_access_set(user=api_user, enabled=False)
    assert_envelope(session_check(client, f"Bearer {raw_key}"), 403, "auth.api_access_disabled")


def test_key_without_api_access_works_when_policy_is_off(
    client: Any, settings: Any, user: Any
) -> None:
    settings.API_ACCESS_REQUIRES_GRANT = False
    _api_key, raw = api_key_create(user=user, name="no grant needed")
    response = session_check(client, f"Bearer {raw}")
    assert response.status_code == 200
    assert response.json()["data"]["api_access_enabled"] is True


def test_valid_key_is_accepted(client: Any, api_key_and_raw: tuple[ApiKey, str]) -> None:
    api_key, raw = api_key_and_raw
    response = session_check(client, f"Bearer {raw}")
    body = response.json()
    assert response.status_code == 200
    assert set(body) == ENVELOPE_FIELDS
    assert body["success"] is True
    assert body["data"]["api_key"]["id"] == str(api_key.pk)
    assert "WWW-Authenticate" not in response


def test_valid_key_costs_one_query_when_recently_used(
    client: Any, api_key_and_raw: tuple[ApiKey, str], django_assert_max_num_queries: Any
) -> None:
    api_key, raw = api_key_and_raw
    session_check(client, f"Bearer {raw}")  # the first use from this address is logged once
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=timezone.now())
    with django_assert_max_num_queries(1):
        response = session_check(client, f"Bearer {raw}")
    assert response.status_code == 200


def test_first_use_adds_the_last_used_write_and_the_new_address_line(
    client: Any, raw_key: str, django_assert_num_queries: Any
) -> None:
    api_key_by_hash(key_hash="0" * 64)  # served a request before (PostgreSQL: prepared then)
    # The lookup, the last_used_at UPDATE, then the security log's "new address" check and line.
    with django_assert_num_queries(4):
        response = session_check(client, f"Bearer {raw_key}")
    assert response.status_code == 200


def test_valid_key_lookup_is_by_hash_with_owner_joined(client: Any, raw_key: str) -> None:
    sent: list[tuple[str, Any]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        session_check(client, f"Bearer {raw_key}")
    lookup, params = next((sql, params) for sql, params in sent if params)
    assert "key_hash" in statement_text(lookup)
    assert "accounts_user" in statement_text(lookup)
    assert list(params) == [key_hash(raw_key)]
    assert not any(raw_key in sql or raw_key in str(params) for sql, params in sent)


def test_bad_checksum_key_makes_no_query(
    client: Any, raw_key: str, django_assert_num_queries: Any
) -> None:
    tampered = raw_key[:5] + ("x" if raw_key[5] != "x" else "y") + raw_key[6:]
    with django_assert_num_queries(0):
        response = session_check(client, f"Bearer {tampered}")
    assert_envelope(response, 401, "auth.invalid_api_key")


def test_malformed_header_makes_no_query(
    client: Any, db: Any, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        response = session_check(client, "Basic dXNlcjpwYXNz")
    assert_envelope(response, 401, "auth.malformed_authorization")


class ProbeApi(APIView):
    """How another endpoint uses the classes: DRF's default AllowAny, or IsAuthenticated."""

    authentication_classes = [ApiKeyAuthentication]
    throttle_classes = [ApiKeyThrottle]

    def get(self, request: Request) -> Response:
        return api_response(request, {"user": request.user.get_username()})


@pytest.mark.parametrize("permission_classes", [[AllowAny], [IsAuthenticated]])
@pytest.mark.parametrize(
    ("authorization", "status", "message_key"),
    [
        (None, 401, "auth.missing_api_key"),
        ("Basic abc", 401, "auth.malformed_authorization"),
        ("Bearer mpk_nonsense", 401, "auth.invalid_api_key"),
    ],
)
def test_other_views_get_the_authentication_error_whatever_their_permissions(
    db: Any,
    permission_classes: list[type],
    authorization: str | None,
    status: int,
    message_key: str,
) -> None:
    view = ProbeApi.as_view(permission_classes=permission_classes)
    headers: dict[str, Any] = {}
    if authorization is not None:
        headers["HTTP_AUTHORIZATION"] = authorization
    response = view(APIRequestFactory().get("/probe", **headers))
    assert response.status_code == status
    assert response.data["messageKey"] == message_key
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_other_views_see_the_owner_and_the_key(api_user: Any, raw_key: str) -> None:
    view = ProbeApi.as_view()
    response = view(APIRequestFactory().get("/probe", HTTP_AUTHORIZATION=f"Bearer {raw_key}"))
    assert response.status_code == 200
    assert response.data["data"] == {"user": api_user.email}


def test_a_304_reads_its_key_and_plan_in_one_query_as_the_session_check_reads_its_key(
    client: Client, api_user: Any, raw_key: str
) -> None:
    """A GET that names a plan reads the plan with the key (apikeys.lookup.key_and_plan):
    a conditional poll costs the session check's one query."""
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    headers = {"Authorization": f"Bearer {raw_key}"}
    path = f"/api/v1/platform/plans/{plan.number}/suggestions"
    etag = client.get(path, headers=headers)["ETag"]  # synced, key used, address noted
    session_check(client, f"Bearer {raw_key}")  # both statements prepared (PostgreSQL)
    with CaptureQueriesContext(connection) as check:
        assert session_check(client, f"Bearer {raw_key}").status_code == 200
    with CaptureQueriesContext(connection) as poll:
        response = client.get(path, headers={**headers, "If-None-Match": etag})
    assert response.status_code == 304
    assert len(check.captured_queries) == len(poll.captured_queries) == 1
    assert "planning_plan" in statement_text(poll.captured_queries[0]["sql"])
    assert "planning_plan" not in statement_text(check.captured_queries[0]["sql"])


def test_a_plan_read_with_the_key_is_taken_once(api_user: Any, raw_key: str) -> None:
    """A second read of the plan in the same request sees it as it is then."""
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    api_key = api_key_authenticate(raw_key, plan_number=plan.number)
    with CaptureQueriesContext(connection) as first:
        assert plan_for_key(api_key=api_key, number=plan.number).pk == plan.pk
    assert len(first.captured_queries) == 0
    Plan.objects.filter(pk=plan.pk).update(name="Renamed")
    with CaptureQueriesContext(connection) as second:
        assert plan_for_key(api_key=api_key, number=plan.number).name == "Renamed"
    assert second.captured_queries  # read again (on PostgreSQL, prepared on its first run)


def test_a_plan_read_with_the_key_carries_the_sync_state_only_when_asked(
    api_user: Any, raw_key: str
) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    for sync_state in (False, True):
        api_key = api_key_authenticate(raw_key, plan_number=plan.number)
        read = plan_for_key(api_key=api_key, number=plan.number, sync_state=sync_state)
        assert hasattr(read, "changes_pending") is sync_state


def test_a_write_reads_its_plan_when_it_acts_not_with_the_key(
    client: Client, api_user: Any
) -> None:
    """A POST that names a plan reads the key alone, then the plan (under the act's rules)."""
    api_access_set(user=api_user, enabled=True)
    _, raw = api_key_create(user=api_user, name="writer", permission=ApiKey.Permission.READ_WRITE)
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.EDITOR)
    path = f"/api/v1/platform/plans/{plan.number}/suggestions/{uuid.uuid4()}/dismiss"
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            path,
            {"reason": "not_applicable"},
            content_type="application/json",
            headers={"Authorization": f"Bearer {raw}", "Idempotency-Key": "one"},
        )
    assert_envelope(response, 404, "suggestions.not_found")
    statements = [statement_text(q["sql"]) for q in queries.captured_queries]
    key_read = next(sql for sql in statements if "key_hash" in sql)
    assert "planning_plan" not in key_read
