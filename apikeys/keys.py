"""The API key format: generation, offline validation, hashing.

A key is ``<API_KEY_PREFIX><random><checksum>``:

- ``<random>``: 32 base62 characters (``0-9A-Za-z``) drawn with ``secrets``, about 190 bits;
- ``<checksum>``: the CRC32 of everything before it (prefix + random part, ASCII), written in
  base62 with the same alphabet, left-padded with ``0`` to 6 characters.

Only the SHA-256 hex digest of the whole key is stored; the raw key exists only in the answer
to its creation. Why a checksum: docs/subsystems/api-keys.md "The key".
"""

from __future__ import annotations

import hashlib
import secrets
import zlib

from django.conf import settings

from core.tokens import BASE62, random_base62

_BASE62_SET = frozenset(BASE62)
RANDOM_LENGTH = 32
CHECKSUM_LENGTH = 6
HINT_RANDOM_CHARS = 4
# The format says "32 or more"; keys this service issues have 32, longer ones are accepted up to
# a bound so that a key's length stays that of a credential, not of a document.
MAX_RANDOM_LENGTH = 128


def _base62(number: int, width: int) -> str:
    digits = []
    while number:
        number, remainder = divmod(number, 62)
        digits.append(BASE62[remainder])
    return "".join(reversed(digits)).rjust(width, BASE62[0])


def key_checksum(body: str) -> str:
    """The 6-character base62 CRC32 of ``body`` (the prefix and the random part)."""
    return _base62(zlib.crc32(body.encode("utf-8", "surrogatepass")), CHECKSUM_LENGTH)


def key_generate() -> str:
    """A fresh raw key. Never store or log it; store ``key_hash(raw)`` instead."""
    body = settings.API_KEY_PREFIX + random_base62(RANDOM_LENGTH)
    return body + key_checksum(body)


def key_is_well_formed(raw: str) -> bool:
    """Prefix, base62 random part of an accepted length, and a matching checksum.

    Every check runs whatever the input (no early return), so the time taken does not tell
    which part of a guessed key was wrong.
    """
    prefix = settings.API_KEY_PREFIX
    body, checksum = raw[:-CHECKSUM_LENGTH], raw[-CHECKSUM_LENGTH:]
    random_part = body[len(prefix) :]
    checksum_matches = secrets.compare_digest(
        key_checksum(body).encode(), checksum.encode("utf-8", "surrogatepass")
    )
    return (
        raw.startswith(prefix)
        & (RANDOM_LENGTH <= len(random_part) <= MAX_RANDOM_LENGTH)
        & _BASE62_SET.issuperset(random_part + checksum)
        & checksum_matches
    )


def key_hash(raw: str) -> str:
    """SHA-256 hex of the whole key: the only form in which a key is stored or looked up."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def key_hint(raw: str) -> str:
    """What the screens show to tell keys apart: the prefix and the first 4 random characters."""
    return raw[: len(settings.API_KEY_PREFIX) + HINT_RANDOM_CHARS]
