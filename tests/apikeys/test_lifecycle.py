"""Key lifecycle: roll with grace, expiry reminders, keys limited to plans, the security log."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from accounts.models import SecurityEvent
from apikeys.models import ApiKey
from apikeys.services import (
    api_access_set,
    api_key_create,
    api_key_expiry_notices_send,
    api_key_revoke,
    api_key_roll,
)
from organisations.services import member_add, member_remove, organisation_create
from planning.plans.services.plans import plan_create
from tests.apikeys.conftest import session_check
from tests.envelope import assert_envelope
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def suggestions(client: Client, number: int, raw: str) -> Any:
    return client.get(
        f"/api/v1/platform/plans/{number}/suggestions", HTTP_AUTHORIZATION=f"Bearer {raw}"
    )


@pytest.fixture
def later(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Moves the clock the authentication reads forward by a given time."""

    def move(by: timedelta) -> None:
        moved = timezone.now() + by
        monkeypatch.setattr("apikeys.authentication.timezone.now", lambda: moved)

    return move


# --- roll ------------------------------------------------------------------------------------


def test_rolled_key_works_during_the_grace_and_expires_after(
    client: Client, api_key_and_raw: tuple[ApiKey, str], later: Any
) -> None:
    old, old_raw = api_key_and_raw
    new, new_raw = api_key_roll(api_key=old, grace=timedelta(hours=24))

    assert_envelope(session_check(client, f"Bearer {old_raw}"), 200, "auth.api_key_valid")
    assert_envelope(session_check(client, f"Bearer {new_raw}"), 200, "auth.api_key_valid")
    later(timedelta(hours=23, minutes=59))
    assert_envelope(session_check(client, f"Bearer {old_raw}"), 200, "auth.api_key_valid")
    later(timedelta(hours=24, seconds=1))
    assert_envelope(session_check(client, f"Bearer {old_raw}"), 401, "auth.api_key_expired")
    assert_envelope(session_check(client, f"Bearer {new_raw}"), 200, "auth.api_key_valid")
    assert new.name == old.name and new.owner == old.owner


def test_roll_without_grace_stops_the_old_key_at_once(
    client: Client, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    old, old_raw = api_key_and_raw

    _new, new_raw = api_key_roll(api_key=old, grace=timedelta(0))

    assert_envelope(session_check(client, f"Bearer {old_raw}"), 401, "auth.api_key_expired")
    assert_envelope(session_check(client, f"Bearer {new_raw}"), 200, "auth.api_key_valid")


def test_roll_keeps_the_lifetime_and_plans_and_never_extends_the_old_key(api_user: Any) -> None:
    plan = plan_create(owner=api_user, name="A")
    old, _raw = api_key_create(
        user=api_user, name="ERP", expires_at=timezone.now() + timedelta(hours=2), plans=[plan]
    )

    new, _raw = api_key_roll(api_key=old, grace=timedelta(days=7))

    assert new.expires_at is not None and old.expires_at is not None
    assert abs((new.expires_at - new.created_at) - timedelta(hours=2)) < timedelta(seconds=1)
    assert new.plan_numbers() == [plan.number]
    assert old.expires_at <= old.created_at + timedelta(hours=2)  # the 7 days do not extend it


def test_a_revoked_key_cannot_be_rolled(api_key_and_raw: tuple[ApiKey, str]) -> None:
    from django.core.exceptions import ValidationError

    old, _raw = api_key_and_raw
    api_key_revoke(api_key=old)

    with pytest.raises(ValidationError):
        api_key_roll(api_key=old, grace=timedelta(hours=1))
    assert ApiKey.objects.count() == 1


def _live_keys(user: Any) -> int:
    return ApiKey.objects.owned_by(user).active_at(timezone.now()).count()


def test_rolling_with_a_grace_never_takes_the_account_past_the_active_limit(
    api_user: Any, settings: Any
) -> None:
    """Issue 27, point 6: rolling every key of a full account with a grace made 2 x the limit
    of live keys (27 of 20 in the probe); a key in its grace is a live key."""
    from django.core.exceptions import ValidationError

    settings.API_KEYS_MAX_ACTIVE = 3
    keys = [api_key_create(user=api_user, name=f"k{i}")[0] for i in range(3)]

    for api_key in keys:
        with pytest.raises(ValidationError) as refused:
            api_key_roll(api_key=api_key, grace=timedelta(hours=1))
        assert "revoke a key" in refused.value.message_dict["grace"][0]

    assert _live_keys(api_user) == 3
    assert ApiKey.objects.count() == 3
    assert all(ApiKey.objects.get(pk=k.pk).rolled_at is None for k in keys)


def test_a_roll_with_a_grace_needs_room_for_one_more_live_key(api_user: Any, settings: Any) -> None:
    from django.core.exceptions import ValidationError

    settings.API_KEYS_MAX_ACTIVE = 2
    first, _raw = api_key_create(user=api_user, name="ERP")

    second, _raw = api_key_roll(api_key=first, grace=timedelta(hours=1))  # 2 live: fits

    assert _live_keys(api_user) == 2
    # The old key in its grace still counts: neither a new key nor another graceful roll fits.
    with pytest.raises(ValidationError, match="already have 2 active keys"):
        api_key_create(user=api_user, name="more")
    with pytest.raises(ValidationError):
        api_key_roll(api_key=second, grace=timedelta(days=7))
    assert _live_keys(api_user) == 2


def test_a_roll_without_grace_replaces_the_key_even_at_the_limit(
    api_user: Any, settings: Any
) -> None:
    settings.API_KEYS_MAX_ACTIVE = 1
    old, _raw = api_key_create(user=api_user, name="ERP")

    new, _raw = api_key_roll(api_key=old, grace=timedelta(0))

    assert list(ApiKey.objects.owned_by(api_user).active_at(timezone.now())) == [new]


# --- reminders -------------------------------------------------------------------------------


def _expiring(user: Any, name: str, *, in_: timedelta, lived: timedelta = timedelta(days=90)):
    api_key, _raw = api_key_create(user=user, name=name)
    now = timezone.now()
    ApiKey.objects.filter(pk=api_key.pk).update(created_at=now - lived, expires_at=now + in_)
    return api_key


def test_reminders_go_out_7_days_and_1_day_before_once_each(user: Any) -> None:
    _expiring(user, "Soon", in_=timedelta(days=6, hours=12))
    now = timezone.now()

    api_key_expiry_notices_send(now=now)
    api_key_expiry_notices_send(now=now)  # the job ran twice: nothing more

    assert [m.subject for m in mail.outbox] == ["Your Maintplan API key “Soon” expires in 7 days"]
    assert mail.outbox[0].to == [user.email]
    assert "/profile/integrations/api-keys/" in mail.outbox[0].body
    api_key_expiry_notices_send(now=now + timedelta(days=6))
    api_key_expiry_notices_send(now=now + timedelta(days=6, hours=1))
    assert [m.subject for m in mail.outbox][1:] == [
        "Your Maintplan API key “Soon” expires in 1 day"
    ]


def test_a_late_run_sends_only_the_1_day_reminder(user: Any) -> None:
    _expiring(user, "Late", in_=timedelta(hours=20))

    api_key_expiry_notices_send(now=timezone.now())
    api_key_expiry_notices_send(now=timezone.now())

    assert [m.subject for m in mail.outbox] == ["Your Maintplan API key “Late” expires in 1 day"]


def test_no_reminder_for_far_off_short_lived_rolled_or_revoked_keys(user: Any) -> None:
    _expiring(user, "Far", in_=timedelta(days=8))
    _expiring(user, "Week key", in_=timedelta(days=6, hours=23), lived=timedelta(hours=1))
    api_key_create(user=user, name="Forever")
    api_key_revoke(api_key=_expiring(user, "Revoked", in_=timedelta(days=3)))
    api_key_roll(api_key=_expiring(user, "Rolled", in_=timedelta(days=3)), grace=timedelta(0))

    api_key_expiry_notices_send(now=timezone.now())

    assert mail.outbox == []


def test_the_command_sends_reminders_and_logs_expiries_once(user: Any) -> None:
    _expiring(user, "Soon", in_=timedelta(days=3))
    gone = _expiring(user, "Gone", in_=timedelta(days=1))
    ApiKey.objects.filter(pk=gone.pk).update(expires_at=timezone.now() - timedelta(minutes=1))

    for _ in range(2):
        call_command("api_key_notices", stdout=io.StringIO())

    assert len(mail.outbox) == 1
    expired = SecurityEvent.objects.filter(kind=SecurityEvent.Kind.API_KEY_EXPIRED)
    assert [(e.user, e.api_key_id) for e in expired] == [(user, gone.pk)]


# --- keys limited to plans -------------------------------------------------------------------


def test_a_key_limited_to_plan_a_gets_what_a_missing_plan_gets_on_plan_b(
    client: Client, api_user: Any
) -> None:
    plan_a = plan_create(owner=api_user, name="A")
    plan_b = plan_create(owner=api_user, name="B")
    _key, limited = api_key_create(user=api_user, name="A only", plans=[plan_a])

    assert_envelope(suggestions(client, plan_a.number, limited), 200, "ok")
    outside = suggestions(client, plan_b.number, limited)
    missing = suggestions(client, 999_999, limited)

    body = assert_envelope(outside, 404, "plans.not_found")
    missing_body = assert_envelope(missing, 404, "plans.not_found")
    assert {**body, "traceId": None} == {**missing_body, "traceId": None}
    assert outside.content.replace(body["traceId"].encode(), b"") == missing.content.replace(
        missing_body["traceId"].encode(), b""
    )
    assert set(outside.headers) == set(missing.headers)


def test_an_unlimited_key_reaches_every_plan_of_its_owner(client: Client, api_user: Any) -> None:
    plan_a = plan_create(owner=api_user, name="A")
    later_plan = plan_create(owner=api_user, name="Later")
    _key, raw = api_key_create(user=api_user, name="All")

    assert suggestions(client, plan_a.number, raw).status_code == 200
    assert suggestions(client, later_plan.number, raw).status_code == 200


def test_a_limited_key_still_needs_the_membership(client: Client, api_user: Any) -> None:
    organisation = organisation_create(name="Co-op", owner=UserFactory.create())
    membership = member_add(organisation=organisation, user=api_user, role="planner")
    plan = plan_create(owner=api_user, name="A", organisation=organisation)
    _key, raw = api_key_create(user=api_user, name="A only", plans=[plan])
    assert_envelope(suggestions(client, plan.number, raw), 200, "ok")

    member_remove(membership=membership)

    assert_envelope(suggestions(client, plan.number, raw), 404, "plans.not_found")


def test_keys_cannot_be_limited_to_plans_of_others(api_user: Any) -> None:
    from django.core.exceptions import ValidationError

    foreign = plan_create(owner=UserFactory.create(), name="Theirs")

    with pytest.raises(ValidationError):
        api_key_create(user=api_user, name="Sneaky", plans=[foreign])


def test_session_check_names_the_plans_of_a_limited_key(client: Client, api_user: Any) -> None:
    plans = [plan_create(owner=api_user, name=name) for name in ("A", "B", "C")]
    _key, raw = api_key_create(user=api_user, name="Two", plans=[plans[2], plans[0]])

    body = assert_envelope(session_check(client, f"Bearer {raw}"), 200, "auth.api_key_valid")

    assert body["data"]["api_key"]["plan_numbers"] == [plans[0].number, plans[2].number]


def test_issue_api_key_limits_to_plans(client: Client, api_user: Any) -> None:
    plan_a = plan_create(owner=api_user, name="A")
    plan_b = plan_create(owner=api_user, name="B")
    stdout = io.StringIO()

    call_command(
        "issue_api_key",
        api_user.email,
        "--name",
        "cli",
        "--plan",
        str(plan_a.number),
        stdout=stdout,
        stderr=io.StringIO(),
    )

    raw = stdout.getvalue().strip()
    assert suggestions(client, plan_a.number, raw).status_code == 200
    assert suggestions(client, plan_b.number, raw).status_code == 404
    with pytest.raises(CommandError, match="not a member"):
        call_command(
            "issue_api_key",
            api_user.email,
            "--name",
            "x",
            "--plan",
            "424242",
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )


def test_the_create_form_limits_a_key_to_chosen_plans(client: Client, api_user: Any) -> None:
    plan_a = plan_create(owner=api_user, name="A")
    plan_create(owner=api_user, name="B")
    foreign = plan_create(owner=UserFactory.create(), name="Theirs")
    client.force_login(api_user)

    page = client.get("/profile/integrations/api-keys/new/").content.decode()
    refused = client.post(
        "/profile/integrations/api-keys/new/", {"name": "x", "plans": [str(foreign.pk)]}
    )
    client.post("/profile/integrations/api-keys/new/", {"name": "A", "plans": [str(plan_a.pk)]})

    assert "#1 A" in page and "Theirs" not in page
    assert refused.status_code == 200 and ApiKey.objects.filter(name="x").count() == 0
    assert ApiKey.objects.get(name="A").plan_numbers() == [plan_a.number]


# --- security log ----------------------------------------------------------------------------


def test_each_event_appears_for_its_user_and_never_for_another(
    client: Client, api_user: Any, later: Any
) -> None:
    other = UserFactory.create()
    # login, failed login
    client.post("/accounts/login/", {"email": api_user.email, "password": "wrong-one"})
    client.post("/accounts/login/", {"email": api_user.email, "password": TEST_PASSWORD})
    # key created, used from a new address, rolled, revoked, expired
    created, raw = api_key_create(user=api_user, name="ERP")
    session_check(client, f"Bearer {raw}")
    api_key_roll(api_key=created, grace=timedelta(0))
    revoked, _raw = api_key_create(user=api_user, name="Temp")
    api_key_revoke(api_key=revoked)
    api_key_expiry_notices_send(now=timezone.now() + timedelta(seconds=1))
    # password and API access changes
    api_user.set_password("a-new-secret-password-9")
    api_user.save()
    api_access_set(user=api_user, enabled=False)

    client.force_login(api_user)  # the password change ended the session
    page = client.get("/accounts/security-log/")
    client.force_login(other)
    others_page = client.get("/accounts/security-log/")

    kinds = set(SecurityEvent.objects.filter(user=api_user).values_list("kind", flat=True))
    assert kinds == set(SecurityEvent.Kind.values)
    html = page.content.decode()
    for kind in SecurityEvent.Kind:
        assert f'data-kind="{kind.value}"' in html, kind
    assert "ERP" in html
    assert "data-kind=" not in others_page.content.decode().replace(
        'data-kind="login"', ""
    )  # the other user sees only their own login
    assert not SecurityEvent.objects.filter(user=other).exclude(kind="login").exists()


def test_the_security_log_is_kept_for_its_days(user: Any, settings: Any) -> None:
    settings.SECURITY_LOG_DAYS = 90
    old = SecurityEvent.objects.create(user=user, kind=SecurityEvent.Kind.LOGIN)
    SecurityEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=91))
    SecurityEvent.objects.create(user=user, kind=SecurityEvent.Kind.LOGIN)

    call_command("api_key_notices", stdout=io.StringIO())

    assert SecurityEvent.objects.count() == 1


def test_the_security_log_needs_a_login(client: Client) -> None:
    response = client.get("/accounts/security-log/")

    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_an_event_without_a_usable_address_keeps_none(user: Any) -> None:
    from accounts.services import security_event_record

    event = security_event_record(user=user, kind=SecurityEvent.Kind.LOGIN, ip_address="None")

    event.refresh_from_db()
    assert event.ip_address is None
