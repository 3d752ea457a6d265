"""An uploaded text file's text (a JSON document, a CSV file): refused as a whole, with one
problem naming the file, when it is over IMPORT_MAX_BYTES or not UTF-8. A byte-order mark is
dropped."""

from __future__ import annotations

from django.conf import settings

from planning.transfer.imports.problems import ImportProblem, ImportRejected


def file_text(content: bytes, filename: str) -> str:
    """The file's text, or ImportRejected when it is too large or not UTF-8."""
    limit = settings.IMPORT_MAX_BYTES
    if len(content) > limit:
        raise ImportRejected(
            [
                ImportProblem(
                    filename, "", f"file too large ({len(content)} bytes; the limit is {limit})"
                )
            ]
        )
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportRejected(
            [ImportProblem(filename, "", f"not UTF-8 text (byte {error.start} is invalid)")]
        ) from None
