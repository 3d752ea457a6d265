"""Invitations: the link works once, for 7 days, for its address; the invite form answers the
same for any email."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from organisations.invitations import invitation_create
from organisations.models import Invitation, OrganisationMembership
from organisations.services import organisation_create
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return UserFactory.create(email="owner@example.com", name="Olga Owner")


@pytest.fixture
def organisation(owner: Any) -> Any:
    return organisation_create(name="Harbour Co-op", owner=owner)


def _invite(organisation: Any, email: str, role: str = "planner") -> str:
    _invitation, token = invitation_create(
        organisation=organisation, email=email, role=role, invited_by=None, send=False
    )
    return token


def _open(client: Client, token: str) -> Any:
    """Follows the email's link: it keeps the token in the session and redirects."""
    response = client.get(f"/invitations/{token}/")
    assert response.status_code == 302 and response["Location"] == "/invitations/accept/"
    return client.get("/invitations/accept/")


def _role(organisation: Any, user: Any) -> str | None:
    membership = OrganisationMembership.objects.filter(organisation=organisation, user=user)
    return membership.values_list("role", flat=True).first()


def test_an_existing_account_accepts_after_logging_in(client: Client, organisation: Any) -> None:
    person = UserFactory.create(email="pia@example.com")
    token = _invite(organisation, "Pia@Example.com")

    page = _open(client, token).content.decode()
    assert "Log in to accept" in page
    client.force_login(person)
    assert "Accept invitation" in client.get("/invitations/accept/").content.decode()
    response = client.post("/invitations/accept/")

    assert response.status_code == 302
    assert _role(organisation, person) == "planner"
    # lands in the inviting organisation: its plan list, named in the top bar
    assert response["Location"] == "/plans/"
    plans = client.get("/plans/").content.decode()
    assert "<h1>Plans of Harbour Co-op</h1>" in plans
    assert 'id="organisation-in-view"' in plans


def test_a_new_person_registers_with_the_invited_email_fixed(
    client: Client, organisation: Any
) -> None:
    token = _invite(organisation, "newcomer@example.com", role="viewer")
    assert "Create your account to accept" in _open(client, token).content.decode()

    response = client.post(
        "/invitations/accept/register/",
        # A changed email is not taken: the field is the invitation's.
        {"email": "someone-else@example.com", "name": "Nina New", "password": TEST_PASSWORD},
    )

    assert response.status_code == 302
    person = OrganisationMembership.objects.get(organisation=organisation, role="viewer").user
    assert person.email == "newcomer@example.com"
    assert not OrganisationMembership.objects.filter(user__email="someone-else@example.com")


def test_a_link_works_once(client: Client, organisation: Any) -> None:
    person = UserFactory.create(email="pia@example.com")
    token = _invite(organisation, person.email)
    client.force_login(person)
    _open(client, token)
    client.post("/invitations/accept/")

    again = _open(client, token)

    assert again.status_code == 404
    assert "not valid any more" in again.content.decode()


def test_an_expired_link_does_not_work(client: Client, organisation: Any) -> None:
    person = UserFactory.create(email="pia@example.com")
    token = _invite(organisation, person.email)
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    client.force_login(person)

    page = _open(client, token)

    assert page.status_code == 404
    assert client.post("/invitations/accept/").status_code == 404
    assert _role(organisation, person) is None


def test_a_revoked_link_does_not_work(client: Client, organisation: Any, owner: Any) -> None:
    person = UserFactory.create(email="pia@example.com")
    token = _invite(organisation, person.email)
    invitation = Invitation.objects.get()
    client.force_login(owner)
    client.post(f"/organisations/{organisation.slug}/invitations/{invitation.pk}/revoke/")
    client.force_login(person)

    assert _open(client, token).status_code == 404
    assert _role(organisation, person) is None


def test_a_resent_invitation_kills_the_old_link(
    client: Client, organisation: Any, owner: Any, mailoutbox: Any
) -> None:
    person = UserFactory.create(email="pia@example.com")
    old = _invite(organisation, person.email)
    client.force_login(owner)
    invitation = Invitation.objects.get()
    with_callbacks = client.post(
        f"/organisations/{organisation.slug}/invitations/{invitation.pk}/resend/"
    )
    assert with_callbacks.status_code == 302
    client.force_login(person)

    page = _open(client, old)
    assert page.status_code == 410
    text = page.content.decode()
    assert "This invitation link was replaced by a newer one" in text
    assert "Harbour Co-op sent the invitation again" in text
    assert "Open the link in the newest invitation email" in text
    assert _role(organisation, person) is None


def test_a_link_sent_twice_again_names_the_latest_and_whether_it_was_accepted(
    client: Client, organisation: Any
) -> None:
    person = UserFactory.create(email="pia@example.com")
    first = _invite(organisation, person.email)
    _invite(organisation, person.email)  # sent again: replaces the first
    latest = _invite(organisation, person.email)  # and again: replaces the second
    client.force_login(person)
    _open(client, latest)
    client.post("/invitations/accept/")

    page = _open(client, first)

    assert page.status_code == 410
    assert "has been accepted already" in page.content.decode()


def test_a_revoked_link_is_not_called_replaced(
    client: Client, organisation: Any, owner: Any
) -> None:
    """Revoked by hand, then invited again later: the old link was not replaced by a re-send."""
    person = UserFactory.create(email="pia@example.com")
    old = _invite(organisation, person.email)
    client.force_login(owner)
    invitation = Invitation.objects.get()
    client.post(f"/organisations/{organisation.slug}/invitations/{invitation.pk}/revoke/")
    _invite(organisation, person.email)
    client.force_login(person)

    page = _open(client, old)

    assert page.status_code == 404
    assert "replaced" not in page.content.decode()


def test_the_wrong_account_cannot_accept(client: Client, organisation: Any) -> None:
    UserFactory.create(email="pia@example.com")
    intruder = UserFactory.create(email="intruder@example.com")
    token = _invite(organisation, "pia@example.com")
    client.force_login(intruder)

    page = _open(client, token)
    accepted = client.post("/invitations/accept/")

    assert page.status_code == 403
    assert "sent to pia@example.com" in page.content.decode()
    assert accepted.status_code == 403
    assert _role(organisation, intruder) is None


def test_accepting_keeps_the_higher_role(client: Client, organisation: Any) -> None:
    person = UserFactory.create(email="pia@example.com")
    OrganisationMembership.objects.create(organisation=organisation, user=person, role="admin")
    token = _invite(organisation, person.email, role="viewer")
    client.force_login(person)
    _open(client, token)

    client.post("/invitations/accept/")

    assert _role(organisation, person) == "admin"


def _invite_page(client: Client, organisation: Any, email: str) -> tuple[int, str]:
    response = client.post(
        f"/organisations/{organisation.slug}/invitations/",
        {"invite-email": email, "invite-role": "planner"},
        follow=True,
    )
    text = response.content.decode().replace(email, "EMAIL")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", text)
    text = re.sub(r'nonce="[^"]+"', "", text)
    text = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "TIME", text)
    return response.status_code, text


def test_the_invite_form_answers_alike_for_a_known_and_an_unknown_email(
    client: Client, organisation: Any, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    UserFactory.create(email="known@example.com")
    client.force_login(owner)

    with django_capture_on_commit_callbacks(execute=True):
        known = _invite_page(client, organisation, "known@example.com")
    with django_capture_on_commit_callbacks(execute=True):
        unknown = _invite_page(client, organisation, "unknown@example.com")

    assert known[0] == unknown[0] == 200
    # The pending list of the second answer holds one more row; the message is the same.
    assert "Invitation sent to EMAIL" in known[1] and "Invitation sent to EMAIL" in unknown[1]
    assert [m.to for m in mail.outbox] == [["known@example.com"], ["unknown@example.com"]]
    assert mail.outbox[0].subject == mail.outbox[1].subject


def test_the_link_is_in_the_email_only_and_its_token_is_stored_hashed(
    client: Client, organisation: Any, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/organisations/{organisation.slug}/invitations/",
            {"invite-email": "pia@example.com", "invite-role": "viewer"},
            follow=True,
        )
    token = re.search(r"/invitations/([\w-]+)/", str(mail.outbox[0].body))
    assert token is not None
    assert token.group(1) not in response.content.decode()
    assert not Invitation.objects.filter(token_hash=token.group(1)).exists()
    assert mail.outbox[0].body.count("http://") + mail.outbox[0].body.count("https://") == 1


def test_a_planner_cannot_open_the_invitations_page(client: Client, organisation: Any) -> None:
    planner = UserFactory.create()
    OrganisationMembership.objects.create(organisation=organisation, user=planner, role="planner")
    client.force_login(planner)

    assert client.get(f"/organisations/{organisation.slug}/invitations/").status_code == 403


def test_the_invite_command_prints_the_link_alone(organisation: Any, capsys: Any) -> None:
    call_command("invite", organisation.slug, "pia@example.com", "--role", "viewer")

    out = capsys.readouterr().out.strip()
    assert re.fullmatch(r"https?://\S+/invitations/[\w-]+/", out)


def test_create_organisation_and_add_member_commands(owner: Any, capsys: Any) -> None:
    person = UserFactory.create(email="pia@example.com")

    call_command("create_organisation", "North Homes", "--owner", owner.email)
    slug = capsys.readouterr().out.strip()
    call_command("add_member", slug, person.email, "--role", "admin")

    assert slug == "north-homes"
    assert _role(OrganisationMembership.objects.get(user=person, role="admin").organisation, person)


def test_the_invite_command_prints_the_link_alone_with_the_console_mail_backend(
    organisation: Any, capsys: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

    with django_capture_on_commit_callbacks(execute=True):
        call_command("invite", organisation.slug, "pia@example.com", "--role", "viewer")

    captured = capsys.readouterr()
    assert re.fullmatch(r"https?://\S+/invitations/[\w-]+/", captured.out.strip())
    assert "Subject: You are invited to Harbour Co-op" in captured.err
