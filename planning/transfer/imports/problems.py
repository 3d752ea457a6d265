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


# Problems kept of a refused file, in the file's order; the rest are counted. A list longer than
# this helps nobody, and one per cell of a hostile file was a 66 MB page (docs/subsystems/
# import-bounds.md).
PROBLEMS_KEPT = 200


class ImportRejected(Exception):
    """The file was refused and nothing was written; `problems` lists the reasons (the first
    PROBLEMS_KEPT of them) and `more` counts those left out."""

    def __init__(self, problems: list[ImportProblem], *, more: int = 0) -> None:
        self.problems = list(problems[:PROBLEMS_KEPT])
        self.more = more + len(problems) - len(self.problems)
        count = len(self.problems) + self.more
        summary = f"{count} problem{'s' if count != 1 else ''}; nothing was imported"
        super().__init__("\n".join([summary, *self.listed()]))

    def listed(self) -> list[str]:
        """The problems as a person reads them, and how many more there are."""
        lines = [str(problem) for problem in self.problems]
        if self.more:
            lines.append(f"and {self.more} more problem{'s' if self.more != 1 else ''}")
        return lines
