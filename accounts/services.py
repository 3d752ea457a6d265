from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import DUPLICATE_EMAIL, User


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
