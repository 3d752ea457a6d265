"""Password reset requests: throttled per email and per address without telling which emails
have accounts, and links built from SITE_URL (accounts.password_reset)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
RESET = "/accounts/password-reset/"
SENT = "/accounts/password-reset/sent/"


@pytest.fixture
def rates(settings):
    def set_rates(*, account: str = "100/hour", address: str = "100/hour") -> None:
        settings.MAINTPLAN_THROTTLE_RATES = {
            **settings.MAINTPLAN_THROTTLE_RATES,
            "password_reset_account": account,
            "password_reset_address": address,
        }

    return set_rates


def request_reset(client, email, address="203.0.113.5", **extra):
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address, **extra)


def test_reset_requests_for_one_email_stop_at_the_limit_from_any_address(client, user, rates):
    rates(account="3/hour")

    answers = [request_reset(client, user.email, f"203.0.113.{n}") for n in range(1, 6)]

    assert [a.status_code for a in answers] == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3
    assert 3000 < int(answers[-1]["Retry-After"]) <= 3600
    page = answers[-1].content.decode()
    assert "Too many password reset requests for this email address." in page
    assert "Try again in 60 minutes" in page
    # Whoever spent the allowance, the owner's mailbox holds links that still work.
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", str(mail.outbox[0].body))
    assert link is not None
    assert "Choose a new password" in client.get(link.group(1), follow=True).content.decode()


def test_the_limit_counts_the_email_whatever_its_case(client, user, rates):
    rates(account="2/hour")
    request_reset(client, user.email.upper())
    request_reset(client, f" {user.email} ")

    assert request_reset(client, user.email).status_code == 429
    assert len(mail.outbox) == 2


def test_an_email_without_an_account_gets_the_same_answers(client, user, rates):
    rates(account="2/hour")

    def answers(email):
        responses = [request_reset(client, email, f"198.51.100.{n}") for n in range(4)]
        # The seconds left may differ by one between the two runs.
        return [
            (r.status_code, r.get("Location"), re.sub(r"\d+", "N", r.content.decode()))
            for r in responses
        ]

    assert answers(user.email) == answers("nobody@example.com")
    assert len(mail.outbox) == 2 and {m.to[0] for m in mail.outbox} == {user.email}


def test_reset_requests_from_one_address_stop_at_the_limit(client, rates):
    rates(address="2/hour")
    users = UserFactory.create_batch(4)

    answers = [request_reset(client, u.email).status_code for u in users]

    assert answers == [302, 302, 429, 429]
    assert len(mail.outbox) == 2
    refused = request_reset(client, "nobody@example.com")
    assert "Too many password reset requests from your address." in refused.content.decode()
    assert request_reset(client, users[3].email, address="198.51.100.9").status_code == 302


def test_a_form_with_errors_counts_nothing(client, user, rates):
    rates(account="1/hour", address="1/hour")
    for _ in range(3):
        assert request_reset(client, "not an email").status_code == 200

    assert request_reset(client, user.email)["Location"] == SENT
    assert len(mail.outbox) == 1


def test_the_link_is_built_from_site_url_not_the_host_header(client, user, settings):
    settings.ALLOWED_HOSTS = ["maintplan.example.com", "attacker.example.net"]
    settings.SITE_URL = "https://maintplan.example.com"

    response = request_reset(client, user.email, HTTP_HOST="attacker.example.net")

    assert response.status_code == 302
    (email,) = mail.outbox
    assert "attacker.example.net" not in f"{email.subject} {email.body}"
    links = re.findall(r"\S+/accounts/reset/\S+", str(email.body))
    assert len(links) == 1 and links[0].startswith("https://maintplan.example.com/accounts/reset/")
