"""System checks of the platform."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

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
