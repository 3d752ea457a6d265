from enum import StrEnum


class FundingGoalEnum(StrEnum):
    BASELINE = "baseline"
    FULL = "full"
    THRESHOLD_AMOUNT = "threshold_amount"
    THRESHOLD_PERCENT = "threshold_percent"

    def __str__(self) -> str:
        return str(self.value)
