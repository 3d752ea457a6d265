from enum import StrEnum


class KindEnum(StrEnum):
    INSPECTION = "inspection"
    REPAIR = "repair"
    REPLACEMENT = "replacement"

    def __str__(self) -> str:
        return str(self.value)
