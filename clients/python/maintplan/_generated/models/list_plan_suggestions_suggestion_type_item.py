from enum import StrEnum


class ListPlanSuggestionsSuggestionTypeItem(StrEnum):
    BUDGET_PEAK = "budget_peak"
    CONDITION = "condition"
    DEVIATION = "deviation"
    MISSING_CODE = "missing_code"
    OVERDUE = "overdue"
    PROJECT_GROUPING = "project_grouping"

    def __str__(self) -> str:
        return str(self.value)
