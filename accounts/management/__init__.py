"""What the operator commands of every app share: finding the account an email names, and
argument types."""

from __future__ import annotations

from argparse import ArgumentTypeError

from django.core.management.base import CommandError

from accounts.models import User
from accounts.selectors import user_get_by_email
from core.text import text_problem


def command_user(email: str) -> User:
    """The account with this email, or the CommandError (exit code 1) every command gives."""
    if (problem := text_problem(email)) is not None:
        raise CommandError(f"The email address {problem}.")
    user = user_get_by_email(email=email)
    if user is None:
        raise CommandError(f"No account has the email address {email!r}.")
    return user


def positive_int(value: str) -> int:
    """An argparse type: an integer >= 1."""
    number = int(value)
    if number < 1:
        raise ValueError(value)
    return number


def non_negative_int(value: str) -> int:
    """An argparse type: an integer >= 0."""
    number = int(value)
    if number < 0:
        raise ValueError(value)
    return number


def plain_text(value: str) -> str:
    """An argparse type: text a database can store (no NUL, no unpaired surrogate; an argument
    with bytes that are not UTF-8 arrives with surrogates in it)."""
    if (problem := text_problem(value)) is not None:
        raise ArgumentTypeError(problem)
    return value
