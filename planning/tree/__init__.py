"""The structure tree: its stored paths and buildings (`paths`) and its reads (`selectors`)."""
