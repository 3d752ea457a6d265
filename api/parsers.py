from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from api.errors import ApiError


class JsonObjectParser(JSONParser):
    """DRF's JSON parser, plus: JSON nested deeper than Python's recursion limit is malformed
    input (400), not a server error."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON nested too deeply") from None


def json_object_body(request: Any) -> dict[str, Any]:
    """The parsed JSON body of a DRF request, which must be an object. A missing body reads as
    `{}`; `null`, an array or a scalar is refused with `validation.body_not_object`."""
    body = request.data  # {} (or an empty QueryDict) when the request has no body at all
    if not isinstance(body, dict):
        raise ApiError("validation.body_not_object")
    return body
