from enum import StrEnum


class ListPlanActionsKind(StrEnum):
    INSPECTION = "inspection"
    REPAIR = "repair"
    REPLACEMENT = "replacement"

    def __str__(self) -> str:
        return str(self.value)
