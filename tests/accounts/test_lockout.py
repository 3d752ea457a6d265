"""Every password entry point locks an (account, address) pair out after repeated failures
(django-axes, counted in the shared cache)."""

from __future__ import annotations

import pytest

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
