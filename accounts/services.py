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
