from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from api.errors import ApiError
from core.text import printable, text_problem


class IgnoredJsonParser(JSONParser):
    """DRF's JSON parser, where JSON nested deeper than Python's recursion limit is malformed
    input (400), not a server error. For a body that is read for its shape alone and never
    kept (the session check, which takes no fields): its text is not looked at."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON nested too deeply") from None


class JsonObjectParser(IgnoredJsonParser):
    """The parser of every body under /api/v1 (IgnoredJsonParser), plus: a string anywhere in
    the body (a key or a value, at any depth) with a NUL character or an unpaired surrogate
    (``"\\ud800"``) is a 400 ``validation.failed`` naming the top-level field it sits in: no
    database can store such text, and no view should have to check for it.
    """

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = super().parse(stream, media_type, parser_context)
        errors = _text_errors(body)
        if errors:
            raise ApiError("validation.failed", errors=errors)
        return body


def _text_errors(body: Any) -> dict[str, list[str]]:
    if isinstance(body, dict):
        fields = body.items()
    elif isinstance(body, list):
        fields = (("non_field_errors", item) for item in body)  # type: ignore[assignment]
    else:
        fields = (("non_field_errors", body),)  # type: ignore[assignment]
    errors: dict[str, list[str]] = {}
    for field, value in fields:
        problem = text_problem(field) or _first_problem(value)
        if problem is not None:
            errors.setdefault(printable(field), []).append(f"This field {problem}.")
    return errors


def _first_problem(value: Any) -> str | None:
    # Iterative, so a deep body costs no recursion (the parser has already bounded its depth).
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if (problem := text_problem(item)) is not None:
                return problem
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return None


def json_object_body(request: Any) -> dict[str, Any]:
    """The parsed JSON body of a DRF request, which must be an object. A missing body reads as
    `{}`; `null`, an array or a scalar is refused with `validation.body_not_object`."""
    body = request.data  # {} (or an empty QueryDict) when the request has no body at all
    if not isinstance(body, dict):
        raise ApiError("validation.body_not_object")
    return body
