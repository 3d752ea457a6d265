"""The rendered suggestions array of a whole (unpaged) list, kept in the `suggestion_lists`
cache under the answer's ETag, which moves with every change, so an entry is never stale. Only
the array is kept; each answer's envelope is rendered around it (docs/subsystems/caching.md "The
list cache").
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
