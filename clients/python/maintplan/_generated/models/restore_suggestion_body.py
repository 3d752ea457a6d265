from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="RestoreSuggestionBody")


@_attrs_define
class RestoreSuggestionBody:
    """An empty object; a missing body counts as {}.

    Example:
        {}

    """

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        restore_suggestion_body = cls()

        return restore_suggestion_body
