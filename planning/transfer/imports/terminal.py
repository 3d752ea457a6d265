"""A progress bar for the import commands (`import_plan`, `generate_plan`): drawn on a
terminal, silent in a pipe or a log (tqdm draws nothing when the stream is not a TTY)."""

from __future__ import annotations

from typing import IO, Any, cast

from tqdm import tqdm

from planning.transfer.imports.progress import ImportObserver


class TerminalProgress(ImportObserver):
    """Two bars, one after the other: rows checked, then rows written."""

    def __init__(self, stream: object) -> None:
        """`stream`: a text stream, such as a management command's `self.stderr._out`."""
        self.stream = cast(IO[str], stream)
        self.enabled = self.stream.isatty()
        self.bars: dict[str, Any] = {}

    def _bar(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        bar = self.bars.get(label)
        if bar is None:
            bar = self.bars[label] = tqdm(
                total=total, desc=label, unit=" rows", file=self.stream, leave=True
            )
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def checked(self, done: int, total: int) -> None:
        self._bar("Checking", done, total)

    def written(self, done: int, total: int) -> None:
        self._bar("Writing", done, total)
