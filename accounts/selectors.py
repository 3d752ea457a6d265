"""Reads of the accounts app."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet

from accounts.models import SecurityEvent, User


def user_get_by_email(*, email: str) -> User | None:
    """The account with this email, matched as people type it (case and outer spaces ignored)."""
    return User.objects.filter(email__iexact=(email or "").strip()).first()


def security_events_for_user(*, user: User, now: datetime) -> QuerySet[SecurityEvent]:
    """The user's security log, newest first, as far back as SECURITY_LOG_DAYS."""
    cutoff = now - timedelta(days=settings.SECURITY_LOG_DAYS)
    return SecurityEvent.objects.filter(user=user, created_at__gte=cutoff)


def security_events_for_organisation(
    *, organisation_id: uuid.UUID, now: datetime
) -> QuerySet[SecurityEvent]:
    """An organisation's security log (its service accounts' keys), newest first."""
    cutoff = now - timedelta(days=settings.SECURITY_LOG_DAYS)
    return SecurityEvent.objects.filter(organisation_id=organisation_id, created_at__gte=cutoff)
