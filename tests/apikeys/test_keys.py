from __future__ import annotations

import hashlib
import re
import zlib

from apikeys.keys import (
    BASE62,
    key_checksum,
    key_generate,
    key_hash,
    key_hint,
    key_is_well_formed,
)


def test_generated_key_has_prefix_32_random_base62_characters_and_checksum() -> None:
    raw = key_generate()
    assert re.fullmatch(r"mpk_[0-9A-Za-z]{32}[0-9A-Za-z]{6}", raw)
    assert raw[-6:] == key_checksum(raw[:-6])


def test_checksum_is_base62_crc32_of_the_prefix_and_random_part() -> None:
    body = "mpk_" + "a" * 32
    number = 0
    for char in key_checksum(body):
        number = number * 62 + BASE62.index(char)
    assert number == zlib.crc32(body.encode())


def test_generated_keys_differ() -> None:
    assert len({key_generate() for _ in range(50)}) == 50


def test_generated_key_is_well_formed() -> None:
    assert key_is_well_formed(key_generate())


def test_one_mistyped_character_breaks_the_checksum() -> None:
    raw = key_generate()
    position = 10
    replacement = "b" if raw[position] != "b" else "c"
    mistyped = raw[:position] + replacement + raw[position + 1 :]
    assert not key_is_well_formed(mistyped)


def test_truncated_key_is_not_well_formed() -> None:
    raw = key_generate()
    assert not key_is_well_formed(raw[:-1])
    body = raw[:20]
    assert not key_is_well_formed(body + key_checksum(body))


def test_longer_random_part_with_valid_checksum_is_well_formed() -> None:
    body = "mpk_" + "Z" * 40
    assert key_is_well_formed(body + key_checksum(body))


def test_key_with_another_prefix_is_not_well_formed() -> None:
    body = "abc_" + "Z" * 32
    assert not key_is_well_formed(body + key_checksum(body))


def test_non_ascii_key_is_not_well_formed() -> None:
    body = "mpk_" + "é" * 32  # with a matching checksum: only the alphabet check refuses it
    assert not key_is_well_formed(body + key_checksum(body))


def test_hash_is_sha256_hex_of_the_whole_key() -> None:
    raw = key_generate()
    assert key_hash(raw) == hashlib.sha256(raw.encode()).hexdigest()


def test_hint_is_prefix_and_first_four_random_characters() -> None:
    raw = key_generate()
    assert key_hint(raw) == raw[:8]
    assert key_hint(raw).startswith("mpk_")
