from enum import StrEnum


class FciBandEnum(StrEnum):
    CRITICAL = "critical"
    FAIR = "fair"
    GOOD = "good"
    POOR = "poor"

    def __str__(self) -> str:
        return str(self.value)
