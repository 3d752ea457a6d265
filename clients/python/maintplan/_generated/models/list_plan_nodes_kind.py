from enum import StrEnum


class ListPlanNodesKind(StrEnum):
    BUILDING = "building"
    COMPONENT = "component"
    SITE = "site"
    SYSTEM = "system"

    def __str__(self) -> str:
        return str(self.value)
