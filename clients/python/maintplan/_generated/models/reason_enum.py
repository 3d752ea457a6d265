from enum import StrEnum


class ReasonEnum(StrEnum):
    ACCEPTED = "accepted"
    FALSE_POSITIVE = "false_positive"
    NOT_APPLICABLE = "not_applicable"
    PLANNED_ELSEWHERE = "planned_elsewhere"

    def __str__(self) -> str:
        return str(self.value)
