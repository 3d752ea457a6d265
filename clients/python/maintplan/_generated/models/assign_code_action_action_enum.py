from enum import StrEnum


class AssignCodeActionActionEnum(StrEnum):
    ASSIGN_CODE = "assign_code"

    def __str__(self) -> str:
        return str(self.value)
