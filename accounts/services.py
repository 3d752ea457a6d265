from __future__ import annotations

from django.db import transaction

from accounts.models import User


@transaction.atomic
def user_register(*, email: str, password: str, name: str = "") -> User:
    """Creates an account. Callers validate first (accounts.forms.RegistrationForm)."""
    return User.objects.create_user(email=email, password=password, name=name)
