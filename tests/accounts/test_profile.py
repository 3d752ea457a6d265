"""Profile > Account and Password, and password reset by email (Django's views)."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from tests.conftest import TEST_PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "quince-harbour-lantern-42"


def test_the_account_page_changes_the_name(client: Client, user: Any) -> None:
    client.force_login(user)

    response = client.post("/profile/", {"name": "Ada Planner", "email": user.email})

    assert response.status_code == 302 and response["Location"] == "/profile/"
    user.refresh_from_db()
    assert user.name == "Ada Planner"
    assert "Your account was saved." in client.get("/profile/").content.decode()


def test_a_new_email_needs_the_current_password(client: Client, user: Any) -> None:
    client.force_login(user)

    refused = client.post("/profile/", {"name": "", "email": "new@example.com"})
    accepted = client.post(
        "/profile/",
        {"name": "", "email": "New@Example.com", "current_password": TEST_PASSWORD},
    )

    assert "Enter your current password to change your email." in refused.content.decode()
    assert accepted.status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.com"


def test_an_email_of_another_account_is_refused(client: Client, user: Any) -> None:
    other = UserFactory.create(email="taken@example.com")
    client.force_login(user)

    response = client.post(
        "/profile/",
        {"name": "", "email": "TAKEN@example.com", "current_password": TEST_PASSWORD},
    )

    assert response.status_code == 200
    assert "already" in response.content.decode()
    user.refresh_from_db()
    assert user.email != other.email


def test_the_password_change_keeps_this_session_signed_in(client: Client, user: Any) -> None:
    client.force_login(user)

    response = client.post(
        "/profile/password/",
        {
            "old_password": TEST_PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )

    assert response.status_code == 302
    assert client.get("/profile/").status_code == 200  # still signed in
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_password_reset_by_email_end_to_end(
    client: Client, user: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    assert "Forgot your password?" in client.get("/accounts/login/").content.decode()

    response = client.post("/accounts/password-reset/", {"email": user.email.upper()})

    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == [user.email]
    match = re.search(r"https?://[^/]+(/accounts/reset/[^/]+/[^/]+/)", str(mail.outbox[0].body))
    assert match is not None
    link = match.group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    # the link works once
    assert "no longer valid" in client.get(link, follow=True).content.decode()
    # and its token was written to no log line
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert all(token not in record.getMessage() for record in caplog.records)
    assert all(token not in str(vars(record)) for record in caplog.records)


def test_a_reset_for_an_unknown_email_looks_the_same_and_sends_nothing(client: Client) -> None:
    response = client.post("/accounts/password-reset/", {"email": "nobody@example.com"})

    assert response.status_code == 302 and response["Location"] == "/accounts/password-reset/sent/"
    assert mail.outbox == []
