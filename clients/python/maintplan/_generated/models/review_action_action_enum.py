from enum import StrEnum


class ReviewActionActionEnum(StrEnum):
    REVIEW_ACTION = "review_action"

    def __str__(self) -> str:
        return str(self.value)
