"""Every password entry point locks an (account, address) pair out after repeated failures
(django-axes, counted in the shared cache)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from tests.config.test_redis_cache import redis_url  # noqa: F401 (fixture)
from tests.config.test_settings import PRODUCTION_ENV, run_django
from tests.envelope import assert_envelope
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db
LOGIN_PAGE = "/accounts/login/"
LOGIN_JSON = "/api/v1/auth/login/user"
ADMIN_LOGIN = "/admin/login/"
LIMIT = 3
WRONG_PASSWORD = "wrong-password"


@pytest.fixture(autouse=True)
def _small_limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT


def web_login(client, email, password=WRONG_PASSWORD, address="203.0.113.5"):
    return client.post(LOGIN_PAGE, {"email": email, "password": password}, REMOTE_ADDR=address)


def json_login(client, email, password=WRONG_PASSWORD, address="203.0.113.5"):
    return client.post(
        LOGIN_JSON,
        {"email": email, "password": password},
        content_type="application/json",
        REMOTE_ADDR=address,
    )


def admin_login(client, email, password=WRONG_PASSWORD, address="203.0.113.5"):
    return client.post(
        ADMIN_LOGIN,
        {"username": email, "password": password, "next": "/admin/"},
        REMOTE_ADDR=address,
    )


def test_web_login_locks_the_pair_out_with_a_page(client, user):
    answers = [web_login(client, user.email).status_code for _ in range(LIMIT)]

    assert answers == [200] * (LIMIT - 1) + [429]
    locked = web_login(client, user.email, TEST_PASSWORD)
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == 15 * 60
    assert "Too many failed logins for this account" in locked.content.decode()
    assert "_auth_user_id" not in client.session


def test_json_login_locks_out_in_the_envelope(client, user):
    for _ in range(LIMIT - 1):
        assert_envelope(json_login(client, user.email), 401, "auth.invalid_credentials")

    assert_envelope(json_login(client, user.email), 429, "auth.locked_out")
    locked = json_login(client, user.email, TEST_PASSWORD)
    assert_envelope(locked, 429, "auth.locked_out")
    assert int(locked["Retry-After"]) == 15 * 60


def test_admin_login_is_locked_out_too(client, db):
    staff = UserFactory(is_staff=True, is_superuser=True)
    answers = [admin_login(client, staff.email).status_code for _ in range(LIMIT + 5)]

    assert answers[: LIMIT - 1] == [200] * (LIMIT - 1)
    assert set(answers[LIMIT - 1 :]) == {429}
    assert admin_login(client, staff.email, TEST_PASSWORD).status_code == 429


def test_failures_at_the_admin_count_for_the_site_login(client, user):
    for _ in range(LIMIT):
        admin_login(client, user.email)

    assert web_login(client, user.email, TEST_PASSWORD).status_code == 429
    assert_envelope(json_login(client, user.email, TEST_PASSWORD), 429, "auth.locked_out")


def test_the_account_is_matched_whatever_its_case(client, user):
    for _ in range(LIMIT):
        web_login(client, f"  {user.email.upper()} ")

    assert web_login(client, user.email, TEST_PASSWORD).status_code == 429


def test_the_lockout_is_per_account_and_address(client, user):
    other = UserFactory()
    for _ in range(LIMIT):
        web_login(client, user.email)

    # Same account from another address, another account from the same address: both log in.
    assert web_login(client, user.email, TEST_PASSWORD, address="198.51.100.7").status_code == 302
    client.logout()
    assert web_login(client, other.email, TEST_PASSWORD).status_code == 302


def test_a_success_before_the_limit_resets_the_count(client, user):
    for _ in range(LIMIT - 1):
        web_login(client, user.email)
    assert web_login(client, user.email, TEST_PASSWORD).status_code == 302
    client.logout()

    answers = [web_login(client, user.email).status_code for _ in range(LIMIT - 1)]

    assert answers == [200] * (LIMIT - 1)


def test_lockouts_are_shared_between_processes_through_redis(redis_url):  # noqa: F811
    env = {**PRODUCTION_ENV, "REDIS_URL": redis_url, "LOGIN_FAILURE_LIMIT": "2"}
    request = (
        "from django.test import RequestFactory; "
        "r = RequestFactory().post('/accounts/login/', REMOTE_ADDR='203.0.113.9'); "
    )
    fail = (
        request + "from axes.handlers.proxy import AxesProxyHandler; "
        "[AxesProxyHandler.user_login_failed(None, {'username': 'ada@example.com'}, r) "
        "for _ in range(2)]"
    )
    check = (
        request + "from axes.handlers.proxy import AxesProxyHandler; "
        "print(AxesProxyHandler.is_allowed(r, {'username': 'ada@example.com'}))"
    )

    assert run_django(["shell", "-c", check], env).stdout.split()[-1] == "True"
    assert run_django(["shell", "-c", fail], env).returncode == 0
    result = run_django(["shell", "-c", check], env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "False"


# --- The ceiling per account across addresses (accounts.lockout) ----------------------------
ACCOUNT_LIMIT = 5
NEW_PASSWORD = "quince-harbour-lantern-42"


@pytest.fixture
def clock(monkeypatch, settings):
    """The lockout's clock, moved forward by hand; the account ceiling is ACCOUNT_LIMIT."""
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = ACCOUNT_LIMIT
    now = [1_800_000_000.0]
    monkeypatch.setattr("accounts.lockout._now", lambda: now[0])

    def advance(seconds):
        now[0] += seconds

    return advance


def fail_from_many_addresses(client, email, failures):
    """`failures` wrong passwords, each from its own address (no pair gets near its limit)."""
    return [web_login(client, email, address=f"198.51.100.{n}") for n in range(failures)]


@pytest.mark.parametrize(
    ("failures", "seconds"),
    [(29, 0), (30, 60), (31, 120), (32, 240), (35, 1920), (36, 3600), (37, 3600), (10**6, 3600)],
)
def test_the_account_delay_starts_at_the_limit_doubles_and_stops_at_the_maximum(
    settings, failures, seconds
):
    from accounts.lockout import account_delay_seconds

    settings.LOGIN_ACCOUNT_FAILURE_LIMIT, settings.LOGIN_ACCOUNT_MAX_DELAY_MINUTES = 30, 60

    assert account_delay_seconds(failures=failures) == seconds


def test_failures_from_many_addresses_lock_the_account_everywhere(client, user, clock):
    answers = fail_from_many_addresses(client, user.email, ACCOUNT_LIMIT)

    assert [a.status_code for a in answers] == [200] * (ACCOUNT_LIMIT - 1) + [429]
    owner = web_login(client, user.email, TEST_PASSWORD, address="192.0.2.77")
    assert owner.status_code == 429
    assert int(owner["Retry-After"]) == 60
    page = owner.content.decode()
    assert "Too many failed logins for this account. Try again in 1 minutes." in page
    assert 'href="/accounts/password-reset/"' in page
    assert "_auth_user_id" not in client.session
    assert_envelope(
        json_login(client, user.email, TEST_PASSWORD, "192.0.2.78"), 429, "auth.locked_out"
    )


def test_the_delay_doubles_with_each_failure_after_it(client, user, clock):
    fail_from_many_addresses(client, user.email, ACCOUNT_LIMIT)
    clock(61)
    assert web_login(client, user.email, address="192.0.2.1").status_code == 429
    assert int(web_login(client, user.email, TEST_PASSWORD, "192.0.2.2")["Retry-After"]) == 120
    clock(121)

    assert int(web_login(client, user.email, address="192.0.2.3")["Retry-After"]) == 240


def test_attempts_refused_during_the_delay_are_not_counted(client, user, clock):
    fail_from_many_addresses(client, user.email, ACCOUNT_LIMIT)
    for n in range(5):
        assert web_login(client, user.email, address=f"192.0.2.{n}").status_code == 429
    clock(61)

    assert web_login(client, user.email, TEST_PASSWORD, "192.0.2.50").status_code == 302
    client.logout()
    assert int(web_login(client, user.email, address="192.0.2.51")["Retry-After"]) == 120


def test_a_successful_login_does_not_give_guessers_a_fresh_allowance(client, user, clock):
    fail_from_many_addresses(client, user.email, ACCOUNT_LIMIT - 1)
    assert web_login(client, user.email, TEST_PASSWORD, "192.0.2.10").status_code == 302
    client.logout()

    assert web_login(client, user.email, address="192.0.2.11").status_code == 429


def test_an_email_without_an_account_is_counted_the_same(client, user, clock):
    def answers(email):
        return [a.status_code for a in fail_from_many_addresses(client, email, ACCOUNT_LIMIT + 1)]

    assert answers(user.email) == answers("nobody@example.com") == [200] * 4 + [429, 429]


def test_a_password_reset_lets_the_owner_back_in_while_guessers_stay_locked(
    client, user, clock, settings
):
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = account_limit = 2 * LIMIT + 2
    owner_address, guesser_address = "192.0.2.200", "192.0.2.201"
    for _ in range(LIMIT):  # someone behind the owner's NAT guessed
        web_login(client, user.email, address=owner_address)
    for _ in range(LIMIT):
        web_login(client, user.email, address=guesser_address)
    answers = fail_from_many_addresses(client, user.email, 2)
    assert [a.status_code for a in answers] == [200, 429]  # both pairs and the account locked
    assert web_login(client, user.email, TEST_PASSWORD, owner_address).status_code == 429

    # The reset page is not locked: the owner asks for a link and chooses a new password.
    client.post("/accounts/password-reset/", {"email": user.email}, REMOTE_ADDR=owner_address)
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", str(mail.outbox[-1].body))
    assert link is not None
    form = client.get(link.group(1), REMOTE_ADDR=owner_address)
    done = client.post(
        form["Location"],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        REMOTE_ADDR=owner_address,
    )
    assert done.status_code == 302 and done["Location"] == "/accounts/reset/done/"

    assert web_login(client, user.email, NEW_PASSWORD, owner_address).status_code == 302
    client.logout()
    assert web_login(client, user.email, NEW_PASSWORD, guesser_address).status_code == 429
    # The count across addresses starts again from nothing.
    answers = fail_from_many_addresses(client, user.email, account_limit - 1)
    assert {a.status_code for a in answers} == {200}
