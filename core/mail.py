"""Email in production: which backends would leak mail where log readers see it, and the one
way a link in an email is built (docs/subsystems/web-app.md "Email").

A password reset email holds a link that logs its reader into the account, so mail must never
land in the process's output (the console backend) or in a file beside it (the file backend, a
subclass of the console one). With debug off the settings refuse such a backend at start-up,
and ``manage.py check --deploy`` reports it (``maintplan.E001``, core/checks.py).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.mail.backends.console import EmailBackend as ConsoleEmailBackend
from django.utils.module_loading import import_string


def email_backend_writes_locally(backend: str) -> bool:
    """True when the dotted path names Django's console backend or one derived from it (the
    file backend is one): mail sent through it is written to stdout or to a file, not sent.

    Raises ``ImproperlyConfigured`` when the path cannot be imported, so a typo stops the
    process at start-up instead of at the first email.
    """
    try:
        backend_class = import_string(backend)
    except ImportError as error:
        raise ImproperlyConfigured(
            f"DJANGO_EMAIL_BACKEND {backend!r} cannot be imported: {error}"
        ) from None
    return isinstance(backend_class, type) and issubclass(backend_class, ConsoleEmailBackend)


def site_link(path: str) -> str:
    """The absolute address of a path of this site for an email: ``SITE_URL`` + the path,
    never the ``Host`` of a request (an attacker chooses that one among the allowed hosts)."""
    return f"{settings.SITE_URL}{path}"
