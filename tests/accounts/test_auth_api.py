"""The web app's JSON routes: POST /api/v1/auth/register/user and /api/v1/auth/login/user."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.conftest import TEST_PASSWORD
from tests.envelope import assert_envelope

pytestmark = pytest.mark.django_db
User = get_user_model()
REGISTER = "/api/v1/auth/register/user"
LOGIN = "/api/v1/auth/login/user"
GOOD_PASSWORD = "plum-orchard-ladder-77"


def post_json(client, url, body, **headers):
    return client.post(url, body, content_type="application/json", **headers)


def test_register_creates_user_and_returns_it(client):
    response = post_json(
        client, REGISTER, {"email": "Ada@Example.com", "password": GOOD_PASSWORD, "name": "Ada"}
    )

    assert response.status_code == 201
    body = response.json()
    assert_envelope(response, 201, "auth.registered")
    user = User.objects.get()
    assert body["data"] == {"id": str(user.pk), "email": "ada@example.com", "name": "Ada"}
    assert user.check_password(GOOD_PASSWORD)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"password": GOOD_PASSWORD}, "email"),
        ({"email": "nope", "password": GOOD_PASSWORD}, "email"),
        ({"email": "a@example.com"}, "password"),
        ({"email": "a@example.com", "password": "short1"}, "password"),
        ({"email": "a@example.com", "password": "password123"}, "password"),
        ({"email": "a@example.com", "password": "83749271658"}, "password"),
        ({"email": "a@example.com", "password": GOOD_PASSWORD, "name": "x" * 151}, "name"),
    ],
)
def test_register_reports_field_errors(client, payload, field):
    response = post_json(client, REGISTER, payload)

    assert response.status_code == 400
    body = response.json()
    assert_envelope(response, 400, "validation.failed")
    assert list(body["data"]["errors"]) == [field]
    assert all(isinstance(m, str) for m in body["data"]["errors"][field])
    assert not User.objects.exists()


def test_register_rejects_duplicate_email(client, user):
    response = post_json(client, REGISTER, {"email": user.email.upper(), "password": GOOD_PASSWORD})

    assert response.status_code == 400
    body = response.json()
    assert body["messageKey"] == "validation.failed"
    assert "already exists" in body["data"]["errors"]["email"][0]
    assert User.objects.count() == 1


def test_register_rejects_malformed_json(client):
    response = client.post(REGISTER, '{"email": ', content_type="application/json")

    assert response.status_code == 400
    assert_envelope(response, 400, "validation.malformed_json")
    assert response.json()["data"] is None


@pytest.mark.parametrize("raw_body", ['["a@example.com"]', "null", "false", "0", '""', "[]"])
def test_register_rejects_non_object_body(client, raw_body):
    response = client.post(REGISTER, raw_body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["messageKey"] == "validation.body_not_object"


def test_deeply_nested_json_is_malformed_not_a_server_error(client):
    response = client.post(LOGIN, "[" * 50_000 + "]" * 50_000, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["messageKey"] == "validation.malformed_json"


def test_options_is_405_in_the_envelope(client):
    response = client.options(LOGIN)

    assert response.status_code == 405
    assert_envelope(response, 405, "routing.method_not_allowed")


def test_register_race_on_one_email_is_a_field_error(client, user, monkeypatch):
    # Both requests passed the form's duplicate check; the unique index decides.
    monkeypatch.setattr("accounts.forms.RegistrationForm.clean_email", lambda form: user.email)

    response = post_json(client, REGISTER, {"email": user.email, "password": GOOD_PASSWORD})

    assert response.status_code == 400
    assert response.json()["messageKey"] == "validation.failed"
    assert "already exists" in response.json()["data"]["errors"]["email"][0]
    assert User.objects.count() == 1


def test_register_rejects_form_encoded_body(client):
    response = client.post(REGISTER, {"email": "a@example.com", "password": GOOD_PASSWORD})

    assert response.status_code == 415
    assert response.json()["messageKey"] == "validation.unsupported_media_type"
    assert not User.objects.exists()


def test_login_sets_session_and_returns_user(client, user):
    response = post_json(client, LOGIN, {"email": user.email, "password": TEST_PASSWORD})

    assert response.status_code == 200
    body = response.json()
    assert_envelope(response, 200, "auth.logged_in")
    assert body["data"] == {"id": str(user.pk), "email": user.email, "name": user.name}
    assert "sessionid" in response.cookies
    assert client.get("/plans/").status_code == 200


def test_login_with_wrong_password_is_401(client, user):
    response = post_json(client, LOGIN, {"email": user.email, "password": "wrong-one-99"})

    assert response.status_code == 401
    body = response.json()
    assert_envelope(response, 401, "auth.invalid_credentials")
    assert body["data"] is None
    assert "sessionid" not in response.cookies


def test_login_with_unknown_email_is_indistinguishable_from_wrong_password(client, user):
    unknown = post_json(client, LOGIN, {"email": "nobody@example.com", "password": "x-y-z-1"})
    wrong = post_json(client, LOGIN, {"email": user.email, "password": "x-y-z-1"})

    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json()["message"] == wrong.json()["message"]


def test_login_with_missing_fields_reports_each(client):
    response = post_json(client, LOGIN, {})

    assert response.status_code == 400
    assert set(response.json()["data"]["errors"]) == {"email", "password"}


def test_login_route_rejects_get_with_405(client):
    response = client.get(LOGIN)

    assert response.status_code == 405
    assert_envelope(response, 405, "routing.method_not_allowed")
    assert "POST" in response["Allow"]


@pytest.mark.parametrize("url", [LOGIN, REGISTER])
def test_password_routes_are_throttled_per_address(client, user, settings, url):
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "auth": "2/minute"}
    for _ in range(2):
        post_json(client, url, {"email": user.email, "password": "wrong-one-99"})

    response = post_json(client, url, {"email": user.email, "password": TEST_PASSWORD})
    other_address = post_json(
        client, url, {"email": "z@example.com", "password": "x"}, REMOTE_ADDR="10.9.8.7"
    )

    assert response.status_code == 429
    assert_envelope(response, 429, "throttle.rate_limited")
    assert 0 < int(response["Retry-After"]) <= 60
    assert other_address.status_code != 429


def test_password_throttle_ignores_a_forged_forwarded_for(client, user, settings):
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "auth": "2/minute"}
    statuses = [
        post_json(
            client,
            LOGIN,
            {"email": user.email, "password": "wrong-one-99"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{attempt}",
        ).status_code
        for attempt in range(3)
    ]

    assert statuses == [401, 401, 429]
