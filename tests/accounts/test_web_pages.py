"""Registration, login and logout pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.conftest import TEST_PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()
GOOD_PASSWORD = "plum-orchard-ladder-77"


def register(client, **overrides):
    form = {"email": "ada@example.com", "name": "Ada", "password": GOOD_PASSWORD, **overrides}
    return client.post("/accounts/register/", form)


def test_registration_creates_account_and_logs_in(client):
    response = register(client)

    assert response.status_code == 302
    assert response["Location"] == "/plans/"
    user = User.objects.get(email="ada@example.com")
    assert user.name == "Ada"
    assert user.check_password(GOOD_PASSWORD)
    assert not user.api_access_enabled
    assert client.get("/plans/").status_code == 200


def test_registration_stores_email_lowercased(client):
    register(client, email="Ada.Lovelace@Example.COM")

    assert User.objects.filter(email="ada.lovelace@example.com").exists()


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"email": ""}, "email", "This field is required."),
        ({"email": "not-an-email"}, "email", "Enter a valid email address."),
        ({"password": ""}, "password", "This field is required."),
        ({"password": "short1"}, "password", "This password is too short."),
        ({"password": "password123"}, "password", "This password is too common."),
        ({"password": "83749271658"}, "password", "This password is entirely numeric."),
        ({"password": "ada@example.com1"}, "password", "too similar"),
    ],
)
def test_registration_shows_each_validation_failure(client, overrides, field, message):
    response = register(client, **overrides)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert field in response.context["form"].errors
    assert not User.objects.exists()


def test_registration_rejects_duplicate_email_case_insensitively(client, user):
    response = register(client, email=user.email.upper())

    assert response.status_code == 200
    assert "An account with this email already exists" in response.content.decode()
    assert User.objects.count() == 1


def test_registration_race_on_one_email_shows_the_duplicate_error(client, user, monkeypatch):
    monkeypatch.setattr("accounts.forms.RegistrationForm.clean_email", lambda form: user.email)

    response = register(client, email=user.email)

    assert response.status_code == 200
    assert "An account with this email already exists" in response.content.decode()
    assert User.objects.count() == 1


def test_registration_page_requires_csrf_token(db):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    response = csrf_client.post(
        "/accounts/register/", {"email": "x@example.com", "password": GOOD_PASSWORD}
    )

    assert response.status_code == 403
    assert not User.objects.exists()


def test_login_with_correct_password_redirects_to_plans(client, user):
    response = client.post("/accounts/login/", {"email": user.email, "password": TEST_PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/plans/"
    assert client.get("/plans/").status_code == 200


def test_login_is_case_insensitive_on_email(client, user):
    response = client.post(
        "/accounts/login/", {"email": user.email.upper(), "password": TEST_PASSWORD}
    )

    assert response.status_code == 302


def test_login_follows_safe_next_only(client, user):
    safe = client.post(
        "/accounts/login/",
        {"email": user.email, "password": TEST_PASSWORD, "next": "/profile/integrations/api-keys/"},
    )
    client.logout()
    unsafe = client.post(
        "/accounts/login/",
        {"email": user.email, "password": TEST_PASSWORD, "next": "https://evil.example/"},
    )

    assert safe["Location"] == "/profile/integrations/api-keys/"
    assert unsafe["Location"] == "/plans/"


def test_login_with_wrong_password_shows_error(client, user):
    response = client.post("/accounts/login/", {"email": user.email, "password": "wrong-one-99"})

    assert response.status_code == 200
    assert "The email or password is not correct." in response.content.decode()
    assert client.get("/plans/").status_code == 302


def test_login_of_inactive_account_is_refused(client, user):
    user.is_active = False
    user.save()

    response = client.post("/accounts/login/", {"email": user.email, "password": TEST_PASSWORD})

    assert response.status_code == 200
    assert "The email or password is not correct." in response.content.decode()


def test_login_with_blank_fields_shows_field_errors(client):
    response = client.post("/accounts/login/", {"email": "", "password": ""})

    assert response.status_code == 200
    assert set(response.context["form"].errors) == {"email", "password"}


def test_login_page_is_throttled_per_address(client, user, settings):
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "auth": "3/minute"}
    for _ in range(3):
        client.post("/accounts/login/", {"email": user.email, "password": "wrong-one-99"})

    response = client.post("/accounts/login/", {"email": user.email, "password": TEST_PASSWORD})

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many attempts" in response.content.decode()
    assert client.get("/plans/").status_code == 302


def test_logout_requires_post_and_ends_session(client, user):
    client.force_login(user)

    assert client.get("/accounts/logout/").status_code == 200
    assert client.get("/plans/").status_code == 200
    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert client.get("/plans/").status_code == 302


def test_pages_require_login(client):
    response = client.get("/plans/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/plans/")


def test_a_visitor_at_the_root_sees_what_maintplan_is(client: Client) -> None:
    response = client.get("/")

    page = response.content.decode()
    assert response.status_code == 200
    assert "Plan every building" in page
    assert 'href="/accounts/register/"' in page and 'href="/accounts/login/"' in page
    assert 'class="preview-grid"' in page


def test_someone_signed_in_goes_from_the_root_to_their_plans(client: Client, user: Any) -> None:
    client.force_login(user)

    response = client.get("/")

    assert response.status_code == 302 and response["Location"] == "/plans/"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/accounts/login/", {"email": "username", "password": "current-password"}),
        (
            "/accounts/register/",
            {"email": "email", "name": "name", "password": "new-password"},
        ),
    ],
)
def test_credential_fields_tell_password_managers_what_they_are(
    client: Client, url: str, expected: dict[str, str]
) -> None:
    page = client.get(url).content.decode()

    fields = re.findall(r'<input[^>]*\bname="(\w+)"[^>]*\bautocomplete="([\w-]+)"', page)
    assert dict(fields) == expected
