from enum import StrEnum


class StatusEnum(StrEnum):
    CANCELLED = "cancelled"
    PLANNED = "planned"

    def __str__(self) -> str:
        return str(self.value)
