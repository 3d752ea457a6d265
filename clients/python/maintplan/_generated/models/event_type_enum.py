from enum import StrEnum


class EventTypeEnum(StrEnum):
    SUGGESTIONS_CHANGED = "suggestions.changed"

    def __str__(self) -> str:
        return str(self.value)
