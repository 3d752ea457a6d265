"""Typed access to the environment for settings.

Every helper raises ``ImproperlyConfigured`` on a value it cannot parse, so a typo in a
deployment stops the process at start-up instead of silently falling back to a default.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_ports(name: str, default: list[int]) -> frozenset[int]:
    """A comma-separated list of TCP ports (1-65535), e.g. ``443,8443``; unset or empty gives
    ``default``. Anything else (a word, an empty item, a port out of range) is refused."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return frozenset(default)
    ports: set[int] = set()
    for item in raw.split(","):
        text = item.strip()
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 65535):
            raise ImproperlyConfigured(
                f"{name} must be comma-separated port numbers (1-65535), got {raw!r}"
            )
        ports.add(int(text))
    return frozenset(ports)


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = os.environ.get(name, default).strip().upper()
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value
