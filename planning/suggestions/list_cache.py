"""The rendered suggestions array of a whole (unpaged) list, kept in a cache under the answer's
ETag.

Why: reading and rendering every open suggestion of a 20,000-node plan (37,000 of them, 30 MB of
JSON) costs over a second, and an integrator that lists the whole plan every few minutes asks
for the same bytes again and again. The ETag already names exactly this content (the plan, its
`data_version`, the filters), so the bytes are kept under it and can never be stale: any
change raises the version, and with it the key. Only the array is kept: the envelope around it
carries each request's traceId, and is rendered per request around the cached array
(`orjson.Fragment`), byte for byte what rendering the whole answer would give.

The cache is the `suggestion_lists` alias: Redis when `REDIS_URL` is set (shared by every app
server), else a small per-process memory cache (a few entries: each can be tens of MB).
"""

from __future__ import annotations

from collections.abc import Callable

import orjson
from django.core.cache import caches

from api.renderers import FastJSONRenderer
from planning.suggestions.selectors import SuggestionPayload

CACHE_ALIAS = "suggestion_lists"
# Long enough to serve a polling integrator, short enough not to hold memory for a plan nobody
# asks about any more.
CACHE_SECONDS = 15 * 60


def suggestions_array(
    *, etag: str, build: Callable[[], list[SuggestionPayload]]
) -> tuple[int, orjson.Fragment]:
    """(how many suggestions, their rendered JSON array) for the list named by `etag`."""
    cache = caches[CACHE_ALIAS]
    key = f"suggestion-list:{etag}"
    cached: tuple[int, bytes] | None = cache.get(key)
    if cached is None:
        suggestions = build()
        cached = (len(suggestions), FastJSONRenderer().render(suggestions))
        cache.set(key, cached, CACHE_SECONDS)
    count, rendered = cached
    return count, orjson.Fragment(rendered)
