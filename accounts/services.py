from __future__ import annotations

import ipaddress
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import DUPLICATE_EMAIL, SecurityEvent, User


def user_register(*, email: str, password: str, name: str = "") -> User:
    """Creates an account. Callers validate first (accounts.forms.RegistrationForm); the unique
    index still decides when two registrations of one email race past that check."""
    try:
        with transaction.atomic():
            return User.objects.create_user(email=email, password=password, name=name)
    except IntegrityError:
        raise ValidationError({"email": [DUPLICATE_EMAIL]}, code="duplicate") from None


def user_update(*, user: User, name: str, email: str) -> User:
    """Changes the account's name and email (callers check the password for a new email)."""
    user.name, user.email = name, User.objects.normalize_email(email).lower()
    try:
        with transaction.atomic():
            user.save(update_fields=["name", "email"])
    except IntegrityError:
        raise ValidationError({"email": [DUPLICATE_EMAIL]}, code="duplicate") from None
    return user


def account_lock(*, user: User) -> None:
    """Takes the account's row lock until the current transaction ends.

    The per-account ceilings (live API keys, queued imports, pending test events;
    docs/subsystems/limits.md "Shares of the job queue") count under it, so two submissions of one
    account are serialised and cannot both see room for one more. Call it inside a transaction,
    before locking any other row of the account (always the account first: one order, no deadlock).
    SQLite has no row locks; its transactions take the database's write lock at BEGIN
    (`transaction_mode` IMMEDIATE), which serialises them too.
    """
    User.objects.select_for_update().filter(pk=user.pk).first()


def security_event_record(
    *,
    user: User | None,
    kind: SecurityEvent.Kind,
    ip_address: str | None = None,
    detail: str = "",
    api_key_id: uuid.UUID | None = None,
    organisation_id: uuid.UUID | None = None,
) -> SecurityEvent:
    """Adds a line to the user's security log (or, with `organisation_id` and no user, to an
    organisation's). `detail` names what it was about in words (a key's name and hint); it
    never holds a secret."""
    return SecurityEvent.objects.create(
        user=user,
        organisation_id=organisation_id,
        kind=kind,
        ip_address=_ip_or_none(ip_address),
        detail=detail[:300],
        api_key_id=api_key_id,
    )


def security_events_purge(*, now: datetime) -> int:
    """Deletes the lines older than SECURITY_LOG_DAYS; returns how many."""
    cutoff = now - timedelta(days=settings.SECURITY_LOG_DAYS)
    deleted, _by_model = SecurityEvent.objects.filter(created_at__lt=cutoff).delete()
    return deleted


def _ip_or_none(value: str | None) -> str | None:
    """An address as the log keeps it; a request without one (a test client's, a command's)
    has none rather than a bad value PostgreSQL's inet column would refuse."""
    try:
        return str(ipaddress.ip_address(value or ""))
    except ValueError:
        return None
