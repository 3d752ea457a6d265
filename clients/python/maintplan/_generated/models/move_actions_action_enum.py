from enum import StrEnum


class MoveActionsActionEnum(StrEnum):
    MOVE_ACTIONS = "move_actions"

    def __str__(self) -> str:
        return str(self.value)
