from enum import StrEnum


class SuggestionChangeEnum(StrEnum):
    DISMISSED = "dismissed"
    OPENED = "opened"
    REOPENED = "reopened"
    RESOLVED = "resolved"
    UPDATED = "updated"

    def __str__(self) -> str:
        return str(self.value)
