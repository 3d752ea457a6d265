"""Security-log lines for what happens to an account outside any one view: logins and failed
logins (whichever entry point: web, JSON or admin) and password changes (whichever screen)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest

from accounts.models import SecurityEvent, User
from accounts.selectors import user_get_by_email
from accounts.services import security_event_record
from api.throttling import client_address
from core.text import text_problem


def _address(request: HttpRequest | None) -> str | None:
    return client_address(request) if request is not None else None


@receiver(user_logged_in)
def _login_logged(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    security_event_record(user=user, kind=SecurityEvent.Kind.LOGIN, ip_address=_address(request))


@receiver(user_login_failed)
def _failed_login_logged(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    email = credentials.get("username") or credentials.get("email")
    if not isinstance(email, str) or text_problem(email) is not None:
        return
    user = user_get_by_email(email=email)
    if user is not None:  # a guess at an email nobody has is nobody's event
        security_event_record(
            user=user, kind=SecurityEvent.Kind.LOGIN_FAILED, ip_address=_address(request)
        )


@receiver(post_save, sender=User)
def _password_change_logged(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if getattr(instance, "_password_changed", False) and not created:
        instance._password_changed = False
        security_event_record(user=instance, kind=SecurityEvent.Kind.PASSWORD_CHANGED)
