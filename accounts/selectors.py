"""Reads of the accounts app."""

from __future__ import annotations

from accounts.models import User


def user_get_by_email(*, email: str) -> User | None:
    """The account with this email, matched as people type it (case and outer spaces ignored)."""
    return User.objects.filter(email__iexact=(email or "").strip()).first()
