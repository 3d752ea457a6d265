"""The rendered suggestions array of a whole (unpaged) list, kept in the `suggestion_lists`
cache under the answer's ETag, which moves with every change, so an entry is never stale: as
JSON for a client that takes it plain, and for one that accepts gzip as the answer's compressed
start (everything before the trace id), to which each answer adds its own end
(docs/subsystems/caching.md "The list cache").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import orjson
from django.core.cache import caches

from api.compression import GZIP_MIN_BYTES, GzipStart, gzip_finish, gzip_start
from api.renderers import FastJSONRenderer
from planning.suggestions.selectors import SuggestionPayload

CACHE_ALIAS = "suggestion_lists"
# Long enough to serve a polling integrator, short enough not to hold memory for a plan nobody
# asks about any more.
CACHE_SECONDS = 15 * 60
# Where the array goes in an envelope rendered without it: orjson writes a NUL inside a string
# as \u0000, so a bare NUL in the rendered envelope is this and nothing else.
_HOLE = b"\x00"

Build = Callable[[], list[SuggestionPayload]]
# Renders the answer's envelope around (how many suggestions, their rendered array).
Envelope = Callable[[int, orjson.Fragment], bytes]


@dataclass(frozen=True)
class _Compressed:
    count: int
    head: bytes  # the envelope before the array, as rendered when this was kept
    start: GzipStart  # the head and the array, compressed


def suggestions_array(*, etag: str, build: Build) -> tuple[int, orjson.Fragment]:
    """(how many suggestions, their rendered JSON array) for the list named by `etag`."""
    count, rendered = _rendered(etag=etag, build=build, keep=True)
    return count, orjson.Fragment(rendered)


def suggestions_gzip(*, etag: str, build: Build, envelope: Envelope) -> bytes | None:
    """The gzip body of the answer `envelope` renders around the list named by `etag`, or None
    when that body is too small to compress (api.compression): the caller answers as usual.

    The compressed head and array are kept; each answer compresses only its envelope's end
    (the trace id). Kept only for a client that accepts gzip, so such a client's answer keeps
    the compressed list (a fifth of the JSON's size) and not the JSON too."""
    cache = caches[CACHE_ALIAS]
    key = f"suggestion-list-gzip:{etag}"
    kept: _Compressed | None = cache.get(key)
    if kept is not None:
        head, end = _split(envelope(kept.count, orjson.Fragment(_HOLE)))
        if head == kept.head:
            return gzip_finish(kept.start, end)
    count, array = _rendered(etag=etag, build=build, keep=False)
    head, end = _split(envelope(count, orjson.Fragment(_HOLE)))
    if len(head) + len(array) + len(end) <= GZIP_MIN_BYTES:
        _keep(f"suggestion-list:{etag}", (count, array))  # small: the usual answer reads it
        return None
    kept = _Compressed(count=count, head=head, start=gzip_start(head + array))
    _keep(key, kept)
    return gzip_finish(kept.start, end)


def _rendered(*, etag: str, build: Build, keep: bool) -> tuple[int, bytes]:
    """The kept (count, array) of the list, or a fresh one (kept if `keep`)."""
    key = f"suggestion-list:{etag}"
    cached: tuple[int, bytes] | None = caches[CACHE_ALIAS].get(key)
    if cached is None:
        suggestions = build()
        cached = (len(suggestions), FastJSONRenderer().render(suggestions))
        if keep:
            _keep(key, cached)
    return cached


def _keep(key: str, value: object) -> None:
    caches[CACHE_ALIAS].set(key, value, CACHE_SECONDS)


def _split(rendered: bytes) -> tuple[bytes, bytes]:
    head, end = rendered.split(_HOLE)  # exactly one hole
    return head, end
