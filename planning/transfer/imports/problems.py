"""What an import reports when it refuses a file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ImportProblem:
    """One thing wrong with an import file.

    `row` says where, counted from 1 as a person counts (``node 4`` for the fourth node of a
    JSON file, ``action 2``, ``actions.csv line 4``, a file name for a problem with the file
    as a whole, empty for the plan's own fields), `field` which column or key (empty when the
    whole row or file is at fault) and `ref` the node's ref when it has one:
    ``node 4 (ref "B2"): parent_ref: no node with ref "B9"``.
    """

    row: str
    field: str
    message: str
    ref: str = ""  # the row's own ref (nodes), so that a person finds it in the file

    def __str__(self) -> str:
        row = f'{self.row} (ref "{self.ref}")' if self.row and self.ref else self.row
        return ": ".join(part for part in (row, self.field, self.message) if part)


class ImportRejected(Exception):
    """The file was refused and nothing was written; `problems` lists every reason at once."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        summary = f"{count} problem{'s' if count != 1 else ''}; nothing was imported"
        super().__init__("\n".join([summary, *(str(problem) for problem in self.problems)]))
