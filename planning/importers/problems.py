"""What an import reports when it refuses a file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ImportProblem:
    """One thing wrong with an import file.

    `row` says where (``nodes[3]`` for the fourth node of a JSON file, ``actions.csv line 4``,
    a file name for a problem with the file as a whole, empty for the plan's own fields) and
    `field` which column or key (empty when the whole row or file is at fault).
    """

    row: str
    field: str
    message: str

    def __str__(self) -> str:
        if self.row and self.field:
            separator = "." if self.row.endswith("]") else ", "
            where = f"{self.row}{separator}{self.field}"
        else:
            where = self.row or self.field
        return f"{where}: {self.message}" if where else self.message


class ImportRejected(Exception):
    """The file was refused and nothing was written; `problems` lists every reason at once."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        summary = f"{count} problem{'s' if count != 1 else ''}; nothing was imported"
        super().__init__("\n".join([summary, *(str(problem) for problem in self.problems)]))
