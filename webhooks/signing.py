"""Signing secrets and signatures of webhook deliveries.

A secret is `whsec_` + 32 base62 characters from `secrets` (about 190 bits). It is stored
encrypted with Fernet under a key derived from SECRET_KEY (or one of SECRET_KEY_FALLBACKS), since
it must be read back to sign (docs/subsystems/webhooks.md "Two signatures, two keys"). Each delivery
carries two signatures:

- `Maintplan-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
  whole secret as UTF-8 text, prefix included (the first scheme; receivers written for it keep
  verifying);
- the Standard Webhooks `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<t>.<body>">`, keyed
  as the Standard Webhooks libraries key it: the base64 decoding of what follows `whsec_`. The 32
  base62 characters are valid base64 (62 of its 64 letters, a multiple of 4 long, no padding),
  so every secret ever issued decodes, to 24 bytes, and verifies with
  `standardwebhooks.Webhook(secret)` as shown to its owner.

For 24 hours after a roll (SECRET_OVERLAP) a delivery is signed with the old and the new secret:
`Maintplan-Signature: t=<t>,v1=<old>,v1=<new>` and `webhook-signature: v1,<old> v1,<new>`
(space-separated, as the Standard Webhooks specification allows); a receiver accepts the
delivery when any one signature matches its secret. The current secret's comes last.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from datetime import timedelta

from cryptography.fernet import Fernet, MultiFernet
from django.conf import settings

from core.tokens import random_base62

SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, not a secret)
SECRET_RANDOM_LENGTH = 32
HINT_RANDOM_CHARS = 4
_KEY_PURPOSE = b"maintplan.webhooks.signing-secret:"
# How long the secret before a roll keeps signing beside the new one.
SECRET_OVERLAP = timedelta(hours=24)


def secret_generate() -> str:
    """A fresh signing secret. Shown once to its owner; stored only through `secret_encrypt`."""
    return SECRET_PREFIX + random_base62(SECRET_RANDOM_LENGTH)


def secret_hint(secret: str) -> str:
    return secret[: len(SECRET_PREFIX) + HINT_RANDOM_CHARS]


def _fernet() -> MultiFernet:
    """Encrypts with SECRET_KEY, decrypts with it or any of SECRET_KEY_FALLBACKS."""
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    return MultiFernet(
        [
            Fernet(base64.urlsafe_b64encode(hashlib.sha256(_KEY_PURPOSE + k.encode()).digest()))
            for k in keys
        ]
    )


def secret_encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def secret_decrypt(token: str) -> str:
    return _fernet().decrypt(token.encode()).decode()


def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The hex HMAC-SHA256 of `"<timestamp>.<body>"` keyed with the secret."""
    signed = str(timestamp).encode() + b"." + body
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def standard_key(secret: str) -> bytes:
    """The Standard Webhooks HMAC key of `secret`: the base64 decoding of its part after
    `whsec_` (as `standardwebhooks.Webhook` derives it)."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)


def standard_signature(*, secret: str, event_id: str, timestamp: int, body: bytes) -> str:
    """`v1,<base64 HMAC-SHA256 of "<event_id>.<timestamp>.<body>">`: the webhook-signature
    header of the Standard Webhooks specification."""
    signed = f"{event_id}.{timestamp}.".encode() + body
    digest = hmac.new(standard_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def delivery_headers(
    *, secrets: Sequence[str], event_id: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """The identifying and signature headers of one delivery attempt: Maintplan's own and the
    Standard Webhooks ones, over the same timestamp, one signature per secret in the order
    given."""
    return {
        "Maintplan-Event-Id": event_id,
        "Maintplan-Signature": f"t={timestamp},"
        + ",".join(
            f"v1={signature(secret=secret, timestamp=timestamp, body=body)}" for secret in secrets
        ),
        "webhook-id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(
            standard_signature(secret=secret, event_id=event_id, timestamp=timestamp, body=body)
            for secret in secrets
        ),
    }


def signature_header(*, secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={signature(secret=secret, timestamp=timestamp, body=body)}"
