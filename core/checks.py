"""System checks of the platform."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured

from core.mail import email_backend_writes_locally

# Backends whose data lives in one process: each app server would count its own requests.
_PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


@register(Tags.caches, deploy=True)
def shared_cache_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """With debug off, rate limits, lockouts and rendered lists must be in a shared cache:
    with a per-process one, two gunicorn workers let a key through twice its limit."""
    if settings.DEBUG or settings.CACHES["default"]["BACKEND"] not in _PER_PROCESS_CACHES:
        return []
    return [
        Warning(
            "The cache is per process: every app server and worker keeps its own rate-limit "
            "counters, so each limit is multiplied by the number of processes.",
            hint="Set REDIS_URL (redis://host:6379/0) so every process shares one cache.",
            id="maintplan.W001",
        )
    ]


@register(deploy=True)
def email_backend_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """A deployment must send its mail: the console and file backends write password reset
    links where anyone who reads the logs or the disk can use them (core.mail). With debug
    off the settings already refuse them; this also catches a settings module that swaps the
    backend in after config.settings, and says it before a deployment with debug on."""
    try:
        if not email_backend_writes_locally(settings.EMAIL_BACKEND):
            return []
        problem = (
            f"The email backend {settings.EMAIL_BACKEND!r} writes mail to the console or a "
            "file: password reset links would land in the logs instead of the mailbox."
        )
    except ImproperlyConfigured as error:
        problem = str(error)
    return [
        Error(
            problem,
            hint="Set DJANGO_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend and "
            "EMAIL_HOST, EMAIL_PORT (and EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS).",
            id="maintplan.E001",
        )
    ]
