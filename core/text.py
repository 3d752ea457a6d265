"""Text that no database column can keep: NUL characters (PostgreSQL refuses them, SQLite
keeps them silently) and unpaired surrogates (``"\\ud800"`` in JSON, an undecodable byte of a
command-line argument). Every way text comes in checks it with ``text_problem`` and answers
with a field error or a listed import problem, never a 500 (docs/subsystems/errors.md "Choices worth
knowing"):

- HTML forms: Django's ``forms.CharField`` already refuses NUL, and form bodies are decoded
  with replacement characters, so no surrogate reaches a form;
- JSON bodies under /api/v1: ``api.parsers.JsonObjectParser``;
- imports: ``planning.transfer.imports.records.RecordReader.text``;
- commands: the argparse type ``accounts.management.plain_text`` and
  ``accounts.management.command_user``.
"""

from __future__ import annotations

import re

# A Python string holds a valid surrogate pair as one code point, so every code point in
# U+D800..U+DFFF left in a string is an unpaired surrogate.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")

NUL_MESSAGE = "must not contain NUL characters (\\x00)"
SURROGATE_MESSAGE = (
    "must not contain unpaired surrogates (\\ud800-\\udfff), which are not Unicode text"
)


def text_problem(value: str) -> str | None:
    """What is wrong with ``value`` as stored text, or None when nothing is."""
    found = _UNSTORABLE.search(value)
    if found is None:
        return None
    return NUL_MESSAGE if found.group() == "\x00" else SURROGATE_MESSAGE


def printable(value: str) -> str:
    """``value`` with NUL characters and unpaired surrogates written as escapes, so a message
    that quotes bad input can itself be printed, logged and stored."""
    if _UNSTORABLE.search(value) is None:
        return value
    escaped = value.encode("utf-8", "backslashreplace").decode("utf-8")
    return escaped.replace("\x00", "\\x00")
