from enum import StrEnum


class ListEventsType(StrEnum):
    SUGGESTIONS_CHANGED = "suggestions.changed"

    def __str__(self) -> str:
        return str(self.value)
