from enum import StrEnum


class ListPlanHistoryEntity(StrEnum):
    ACTION = "action"
    ATTACHMENT = "attachment"
    COMPLETION = "completion"
    GRANT = "grant"
    NODE = "node"
    PLAN = "plan"
    PROJECT = "project"
    SUGGESTION = "suggestion"

    def __str__(self) -> str:
        return str(self.value)
