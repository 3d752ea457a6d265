from enum import StrEnum


class ListPlanActionsStatus(StrEnum):
    CANCELLED = "cancelled"
    DONE = "done"
    PLANNED = "planned"

    def __str__(self) -> str:
        return str(self.value)
