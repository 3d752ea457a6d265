from enum import StrEnum


class FixEnum(StrEnum):
    COST = "cost"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
