"""Profile > Integrations > API keys."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apikeys.keys import key_hash
from apikeys.models import ApiKey
from apikeys.selectors import PAST_KEYS_SHOWN
from apikeys.services import api_access_set, api_key_create, api_key_revoke, api_key_roll

LIST_URL = "/profile/integrations/api-keys/"
CREATE_URL = "/profile/integrations/api-keys/new/"
KEY_PATTERN = re.compile(r"mpk_[0-9A-Za-z]{38}")


def revoke_url(api_key: ApiKey) -> str:
    return reverse("integrations:api_key_revoke", args=[api_key.pk])


@pytest.fixture
def logged_in(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def test_list_requires_login(client: Client, db: Any) -> None:
    response = client.get(LIST_URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_list_shows_name_hint_and_state_of_own_keys(logged_in: Client, user: Any) -> None:
    expires_at = timezone.now() + timedelta(days=30)
    api_key, _raw = api_key_create(user=user, name="ERP sync", expires_at=expires_at)
    response = logged_in.get(LIST_URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "ERP sync" in html
    assert f"{api_key.hint}…" in html
    assert "Active" in html
    assert "<td>Never</td>" in html  # last used: never (the expiry column shows a date)
    assert f"{expires_at:%Y-%m-%d %H:%M} UTC" in html


def _past_keys(user: Any, count: int) -> None:
    """`count` revoked keys, named "Old 0".. oldest first."""
    for number in range(count):
        api_key, _raw = api_key_create(user=user, name=f"Old {number}")
        ApiKey.objects.filter(pk=api_key.pk).update(
            revoked_at=timezone.now(), created_at=timezone.now() + timedelta(seconds=number)
        )


def test_list_shows_the_newest_past_keys_collapsed_and_how_many_there_are(
    logged_in: Client, user: Any
) -> None:
    _past_keys(user, PAST_KEYS_SHOWN + 5)
    api_key_create(user=user, name="Working key")

    html = logged_in.get(LIST_URL).content.decode()

    live, past = html.split('data-testid="past-keys"')
    assert "Working key" in live and "Old " not in live
    assert f"{PAST_KEYS_SHOWN + 5} revoked or expired keys" in past
    shown = re.findall(r"Old (\d+)", past)
    assert shown == [str(n) for n in range(PAST_KEYS_SHOWN + 4, 4, -1)]  # newest first
    assert "security log" in past.split("</p>")[0]


def test_the_list_makes_no_more_queries_for_50_past_keys_than_for_5(
    logged_in: Client, user: Any, django_assert_max_num_queries: Any
) -> None:
    _past_keys(user, 5)
    with CaptureQueriesContext(connection) as few:
        logged_in.get(LIST_URL)
    _past_keys(user, 45)
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = logged_in.get(LIST_URL).content.decode()
    assert html.count("Old ") == PAST_KEYS_SHOWN


def test_list_does_not_show_other_users_keys(logged_in: Client, other_user: Any) -> None:
    api_key_create(user=other_user, name="Somebody else's key")
    assert "Somebody else" not in logged_in.get(LIST_URL).content.decode()


def test_create_redirects_and_shows_the_key_once(logged_in: Client, user: Any) -> None:
    posted = logged_in.post(CREATE_URL, {"name": "Monitoring"})

    api_key = ApiKey.objects.get(owner=user)
    assert posted.status_code == 302
    assert posted["Location"] == reverse("integrations:api_key_created", args=[api_key.pk])
    assert KEY_PATTERN.search(posted.content.decode()) is None
    response = logged_in.get(posted["Location"])
    html = response.content.decode()
    (raw,) = set(KEY_PATTERN.findall(html))
    assert api_key.name == "Monitoring"
    assert api_key.key_hash == key_hash(raw)
    assert "shown only this once" in html
    assert "Copy key" in html
    assert "no-store" in response["Cache-Control"]
    assert raw not in logged_in.get(LIST_URL).content.decode()


def test_reloading_the_new_key_page_shows_no_key_and_creates_none(
    logged_in: Client, user: Any
) -> None:
    posted = logged_in.post(CREATE_URL, {"name": "Monitoring"})
    assert KEY_PATTERN.search(logged_in.get(posted["Location"]).content.decode())

    reloaded = logged_in.get(posted["Location"])

    html = reloaded.content.decode()
    assert reloaded.status_code == 200
    assert KEY_PATTERN.search(html) is None
    assert "This key is no longer shown" in html
    assert ApiKey.objects.count() == 1


def test_the_new_key_is_not_kept_whole_in_the_session_or_the_cookie(
    logged_in: Client, user: Any
) -> None:
    posted = logged_in.post(CREATE_URL, {"name": "Monitoring"})
    session_values = str(dict(logged_in.session.items()))
    cookie = posted.cookies["shown_once_pad"]

    raw = KEY_PATTERN.findall(logged_in.get(posted["Location"]).content.decode())[0]

    assert raw[4:-6] not in session_values
    assert raw[4:-6] not in cookie.value
    assert cookie["httponly"] and cookie["path"] == posted["Location"]
    assert "shown_once" not in logged_in.session


def test_another_browser_cannot_see_the_new_key(logged_in: Client, user: Any) -> None:
    posted = logged_in.post(CREATE_URL, {"name": "Monitoring"})
    other = Client()
    other.force_login(user)  # the same account, without the first browser's pad cookie

    assert KEY_PATTERN.search(other.get(posted["Location"]).content.decode()) is None


def test_list_never_shows_a_raw_key(logged_in: Client, user: Any) -> None:
    _api_key, raw = api_key_create(user=user, name="ERP sync")
    html = logged_in.get(LIST_URL).content.decode()
    assert raw not in html
    assert KEY_PATTERN.search(html) is None


def test_create_with_expiry_date(logged_in: Client, user: Any) -> None:
    expires_on = (timezone.now() + timedelta(days=30)).date()
    logged_in.post(CREATE_URL, {"name": "Temporary", "expires_on": expires_on.isoformat()})
    api_key = ApiKey.objects.get(owner=user)
    assert api_key.expires_at is not None
    assert api_key.expires_at.date() == expires_on


def test_create_rejects_a_past_expiry(logged_in: Client, user: Any) -> None:
    response = logged_in.post(CREATE_URL, {"name": "Old", "expires_on": "2020-01-01"})
    assert response.status_code == 200
    assert "Choose a date after today." in response.content.decode()
    assert not ApiKey.objects.exists()


def test_create_without_name_shows_the_error(logged_in: Client) -> None:
    response = logged_in.post(CREATE_URL, {"name": "   "})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert KEY_PATTERN.search(response.content.decode()) is None
    assert not ApiKey.objects.exists()


def test_create_requires_csrf(user: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(CREATE_URL, {"name": "x"}).status_code == 403
    assert not ApiKey.objects.exists()


def test_revoke_asks_for_confirmation(logged_in: Client, user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="ERP sync")
    response = logged_in.get(revoke_url(api_key))
    assert response.status_code == 200
    assert "Revoking is permanent" in response.content.decode()
    api_key.refresh_from_db()
    assert api_key.revoked_at is None


def test_revoke_revokes_the_key(logged_in: Client, user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="ERP sync")
    response = logged_in.post(revoke_url(api_key), follow=True)
    html = response.content.decode()
    assert response.redirect_chain[-1][0] == LIST_URL
    assert "is revoked" in html
    assert "Revoked" in html
    api_key.refresh_from_db()
    assert api_key.revoked_at is not None


def test_revoked_key_has_no_revoke_link(logged_in: Client, user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="ERP sync")
    active_key, _raw = api_key_create(user=user, name="Monitoring")
    api_key_revoke(api_key=api_key)
    html = logged_in.get(LIST_URL).content.decode()
    assert revoke_url(api_key) not in html
    assert revoke_url(active_key) in html


def test_another_users_key_is_not_found(logged_in: Client, other_user: Any) -> None:
    other_key, _raw = api_key_create(user=other_user, name="Theirs")
    assert logged_in.get(revoke_url(other_key)).status_code == 404
    assert logged_in.post(revoke_url(other_key)).status_code == 404
    other_key.refresh_from_db()
    assert other_key.revoked_at is None


def test_screen_says_when_api_access_is_not_enabled(logged_in: Client) -> None:
    html = logged_in.get(LIST_URL).content.decode()
    assert "API access is not enabled for any organisation whose plans you can see" in html


def test_screen_has_no_notice_when_api_access_is_enabled(logged_in: Client, user: Any) -> None:
    api_access_set(user=user, enabled=True)
    assert "API access is not enabled" not in logged_in.get(LIST_URL).content.decode()


def test_screen_has_no_notice_when_the_policy_is_off(logged_in: Client, settings: Any) -> None:
    settings.API_ACCESS_REQUIRES_GRANT = False
    assert "API access is not enabled" not in logged_in.get(LIST_URL).content.decode()


def test_created_page_repeats_the_access_notice(logged_in: Client) -> None:
    html = logged_in.post(CREATE_URL, {"name": "x"}, follow=True).content.decode()
    assert "API access is not enabled for any organisation whose plans you can see" in html


def test_create_page_says_when_api_access_is_not_enabled(logged_in: Client) -> None:
    html = logged_in.get(CREATE_URL).content.decode()
    assert "API access is not enabled for any organisation whose plans you can see" in html


def test_list_links_to_the_api_docs_and_the_guide(logged_in: Client) -> None:
    html = logged_in.get(LIST_URL).content.decode()
    assert 'href="/api/v1/docs/"' in html
    assert 'href="/profile/integrations/guide/"' in html
    guide = logged_in.get("/profile/integrations/guide/")
    assert guide.status_code == 200
    assert guide.content.decode().startswith("# Integrator guide")


def test_list_shows_expired_state(logged_in: Client, user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="Old")
    ApiKey.objects.filter(pk=api_key.pk).update(
        created_at=timezone.now() - timedelta(days=3),
        expires_at=timezone.now() - timedelta(days=1),
    )
    assert "Expired" in logged_in.get(LIST_URL).content.decode()


def test_create_over_the_active_limit_shows_the_error(
    logged_in: Client, user: Any, settings: Any
) -> None:
    settings.API_KEYS_MAX_ACTIVE = 1
    api_key_create(user=user, name="one")

    response = logged_in.post(CREATE_URL, {"name": "two"})

    assert response.status_code == 200
    assert "already have 1 active keys" in response.content.decode()
    assert ApiKey.objects.count() == 1


@pytest.mark.parametrize(("choice", "days"), [("7", 7), ("30", 30), ("90", 90), ("365", 365)])
def test_expiry_presets(logged_in: Client, user: Any, choice: str, days: int) -> None:
    logged_in.post(CREATE_URL, {"name": "Preset", "expires_in": choice})

    api_key = ApiKey.objects.get(owner=user)
    assert api_key.expires_at is not None
    lifetime = api_key.expires_at - api_key.created_at
    assert abs(lifetime - timedelta(days=days)) < timedelta(seconds=5)


def test_the_default_expiry_is_90_days(logged_in: Client, user: Any) -> None:
    form_html = logged_in.get(CREATE_URL).content.decode()
    assert re.search(r'<option value="90" selected>', form_html)

    logged_in.post(CREATE_URL, {"name": "Default"})

    api_key = ApiKey.objects.get(owner=user)
    assert api_key.expires_at is not None
    lifetime = api_key.expires_at - api_key.created_at
    assert abs(lifetime - timedelta(days=90)) < timedelta(seconds=5)


def test_no_expiry_is_possible_with_a_warning(logged_in: Client, user: Any) -> None:
    assert "No expiry (not recommended)" in logged_in.get(CREATE_URL).content.decode()

    shown = logged_in.post(CREATE_URL, {"name": "Forever", "expires_in": "never"}, follow=True)

    assert ApiKey.objects.get(owner=user).expires_at is None
    assert "This key never expires" in shown.content.decode()


def test_on_a_date_needs_the_date(logged_in: Client) -> None:
    response = logged_in.post(CREATE_URL, {"name": "Dated", "expires_in": "date"})

    assert response.status_code == 200
    assert "Choose the date the key stops working." in response.content.decode()
    assert not ApiKey.objects.exists()


def test_list_shows_revoked_and_rolled_dates(logged_in: Client, user: Any) -> None:
    revoked, _raw = api_key_create(user=user, name="Old")
    api_key_revoke(api_key=revoked)
    rolled, _raw = api_key_create(user=user, name="Rolled")
    api_key_roll(api_key=rolled, grace=timedelta(hours=1))
    revoked.refresh_from_db()
    rolled.refresh_from_db()

    html = logged_in.get(LIST_URL).content.decode()

    assert f"revoked {revoked.revoked_at:%Y-%m-%d %H:%M} UTC" in html
    assert f"rolled {rolled.rolled_at:%Y-%m-%d %H:%M} UTC" in html


def test_roll_shows_the_new_key_once_and_keeps_the_old_for_the_grace(
    logged_in: Client, user: Any
) -> None:
    old, _raw = api_key_create(user=user, name="ERP")
    url = reverse("integrations:api_key_roll", args=[old.pk])
    assert "24 hours" in logged_in.get(url).content.decode()

    posted = logged_in.post(url, {"grace": "3600"})

    new = ApiKey.objects.exclude(pk=old.pk).get()
    assert posted.status_code == 302
    html = logged_in.get(posted["Location"]).content.decode()
    (raw,) = set(KEY_PATTERN.findall(html))
    assert new.key_hash == key_hash(raw) and new.name == "ERP"
    old.refresh_from_db()
    assert old.rolled_at is not None
    assert old.expires_at is not None
    assert abs(old.expires_at - (old.rolled_at + timedelta(hours=1))) < timedelta(seconds=1)
    # A rolled key cannot be rolled again.
    assert "Only a working key" in logged_in.post(url, {"grace": "0"}).content.decode()
    assert ApiKey.objects.count() == 2


def test_roll_at_the_active_limit_says_why_instead_of_adding_a_key(
    logged_in: Client, user: Any, settings: Any
) -> None:
    settings.API_KEYS_MAX_ACTIVE = 2
    old, _raw = api_key_create(user=user, name="ERP")
    api_key_create(user=user, name="Monitoring")
    url = reverse("integrations:api_key_roll", args=[old.pk])

    page = logged_in.get(url).content.decode()
    assert re.search(r'<option value="0" selected>', page)  # the one choice that fits
    assert "revoke a key you no longer use first" in page

    response = logged_in.post(url, {"grace": "604800"})

    assert response.status_code == 200
    html = response.content.decode()
    assert "You have 2 live keys, the most one account may have" in html
    assert "revoke a key you no longer use first" in html
    assert ApiKey.objects.count() == 2
    old.refresh_from_db()
    assert old.rolled_at is None
    # Without grace the roll replaces the key and goes through.
    assert logged_in.post(url, {"grace": "0"}).status_code == 302
    assert ApiKey.objects.active_at(timezone.now()).count() == 2


def test_the_list_says_dates_relatively_with_the_exact_time_on_hover(
    logged_in: Client, user: Any, time_machine: Any
) -> None:
    # 30 days and 5 minutes is "1 month" only where the month has 30 days or fewer (in
    # December it is "4 weeks"): the clock is pinned to a day where it is.
    time_machine.move_to(datetime(2026, 6, 1, 12, 0, tzinfo=UTC), tick=False)
    expires = timezone.now() + timedelta(days=30, minutes=5)
    api_key_create(user=user, name="cron", expires_at=expires)

    page = logged_in.get(LIST_URL).content.decode()

    assert "in 1\xa0month</time>" in page
    assert f'title="{expires:%Y-%m-%d %H:%M} UTC"' in page
    assert "0\xa0minutes ago" in page  # created just now


def test_a_revoked_key_shows_no_expiry_to_come(logged_in: Client, user: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from apikeys.services import api_key_create, api_key_revoke

    api_key, _raw = api_key_create(
        user=user, name="Old", expires_at=timezone.now() + timedelta(days=30)
    )
    api_key_revoke(api_key=api_key)

    html = logged_in.get(LIST_URL).content.decode()

    row = re.search(rf'data-api-key-id="{api_key.pk}">(.*?)</tr>', html, re.S)
    assert row is not None
    assert "in 4" not in row.group(1) and "Revoked" in row.group(1)


def test_a_rolled_key_is_told_apart_from_its_successor_by_name(
    logged_in: Client, user: Any
) -> None:
    old, _raw = api_key_create(user=user, name="ERP")
    new, _raw = api_key_roll(api_key=old, grace=timedelta(hours=1))
    old.refresh_from_db()

    html = logged_in.get(LIST_URL).content.decode()

    def name_cell(api_key: ApiKey) -> str:
        row = re.search(rf'data-api-key-id="{api_key.pk}">\s*<td>(.*?)</td>', html, re.S)
        assert row is not None
        return re.sub(r"<[^>]+>", "", row.group(1)).strip()

    assert name_cell(new) == "ERP"
    assert name_cell(old) == f"ERP (rolled, works until {old.expires_at:%Y-%m-%d %H:%M} UTC)"
