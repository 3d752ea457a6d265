"""Verifying a webhook delivery: the Standard Webhooks headers (`webhook-id`,
`webhook-timestamp`, `webhook-signature`) when present, else `Maintplan-Signature`; both refuse
a timestamp more than `tolerance` seconds away from this machine's clock."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping

from maintplan._generated.models.event import Event

SECRET_PREFIX = "whsec_"  # noqa: S105 (a prefix, not a secret)
DEFAULT_TOLERANCE = 300


class WebhookVerificationError(Exception):
    """The delivery is not signed with this secret, or its timestamp is out of tolerance."""


def verify(
    secret: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> Event:
    """The event (the generated `Event` model; `.to_dict()` gives the JSON) if `headers` sign
    `body` (the raw bytes, exactly as received) with `secret` (`whsec_...`, as shown when the
    endpoint was made); raises WebhookVerificationError otherwise. Header names are matched
    case-insensitively."""
    lowered = {name.lower(): value for name, value in headers.items()}
    current = time.time() if now is None else now
    if "webhook-signature" in lowered:
        _verify_standard(secret, body, lowered, tolerance, current)
    elif "maintplan-signature" in lowered:
        _verify_maintplan(secret, body, lowered["maintplan-signature"], tolerance, current)
    else:
        raise WebhookVerificationError("no signature header")
    try:
        parsed = json.loads(body)
        return Event.from_dict(parsed)
    except (ValueError, KeyError, TypeError) as error:
        raise WebhookVerificationError("the body is not an event") from error


def _timestamp(value: str, tolerance: int, now: float) -> int:
    try:
        timestamp = int(value)
    except ValueError:
        raise WebhookVerificationError("the timestamp is not a number") from None
    if abs(now - timestamp) > tolerance:
        raise WebhookVerificationError("the timestamp is too far from now")
    return timestamp


def _verify_standard(
    secret: str, body: bytes, headers: Mapping[str, str], tolerance: int, now: float
) -> None:
    try:
        event_id = headers["webhook-id"]
        timestamp = _timestamp(headers["webhook-timestamp"], tolerance, now)
        key = base64.b64decode(secret.removeprefix(SECRET_PREFIX), validate=True)
    except KeyError as missing:
        raise WebhookVerificationError(f"no {missing.args[0]} header") from None
    except binascii.Error:
        raise WebhookVerificationError("the secret is not a webhook secret") from None
    signed = f"{event_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # The header may list several signatures ("v1,<a> v1,<b>"), e.g. while a secret rolls.
    for candidate in headers["webhook-signature"].split():
        version, _, signature = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(expected, signature):
            return
    raise WebhookVerificationError("no matching signature")


def _verify_maintplan(secret: str, body: bytes, header: str, tolerance: int, now: float) -> None:
    fields = [part.split("=", 1) for part in header.split(",") if "=" in part]
    timestamps = [value for name, value in fields if name == "t"]
    if not timestamps:
        raise WebhookVerificationError("no timestamp in Maintplan-Signature")
    timestamp = _timestamp(timestamps[0], tolerance, now)
    signed = str(timestamp).encode() + b"." + body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    # One `v1=` per secret while a rolled secret still signs (24 hours): any one may match.
    if not any(hmac.compare_digest(expected, value) for name, value in fields if name == "v1"):
        raise WebhookVerificationError("no matching signature")
