from enum import StrEnum


class PlanActionActionEnum(StrEnum):
    PLAN_ACTION = "plan_action"

    def __str__(self) -> str:
        return str(self.value)
