"""The alphabet and random part of the tokens the service hands out: API keys
(apikeys.keys), webhook signing secrets (webhooks.signing) and event ids
(webhooks.events). Below both apps, so neither borrows it from the other."""

from __future__ import annotations

import secrets
import string

BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase


def random_base62(length: int) -> str:
    """`length` characters of BASE62 drawn with `secrets` (5.95 bits each: 32 make 190 bits)."""
    return "".join(secrets.choice(BASE62) for _ in range(length))
