"""The token alphabet below integrations and webhooks (core.tokens)."""

from __future__ import annotations

from apikeys.keys import RANDOM_LENGTH, key_generate
from core.tokens import BASE62, random_base62
from webhooks.events import event_id_generate
from webhooks.signing import SECRET_PREFIX, secret_generate


def test_the_alphabet_is_digits_then_upper_then_lower_case() -> None:
    # The order is part of the key format: the checksum is written in this base62.
    assert BASE62 == "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def test_random_base62_draws_that_many_characters_of_the_alphabet() -> None:
    tokens = {random_base62(32) for _ in range(200)}

    assert len(tokens) == 200
    assert all(len(token) == 32 and set(token) <= set(BASE62) for token in tokens)


def test_keys_secrets_and_event_ids_are_drawn_from_it() -> None:
    key, secret, event_id = key_generate(), secret_generate(), event_id_generate()

    assert set(key[len("mpk_") :][:RANDOM_LENGTH]) <= set(BASE62)
    assert set(secret.removeprefix(SECRET_PREFIX)) <= set(BASE62)
    assert set(event_id.removeprefix("evt_")) <= set(BASE62)
