from enum import StrEnum


class CreateProjectActionActionEnum(StrEnum):
    CREATE_PROJECT = "create_project"

    def __str__(self) -> str:
        return str(self.value)
