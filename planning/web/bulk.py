"""Acting on several rows of a list at once (docs/subsystems/web-app.md "Several at once"): the
suggestions of the planning page (dismiss) and the Actions tab (move to a year, put in a
project or take out). A bulk form acts either on the rows ticked on the page (checkboxes that
name the form with their `form` attribute, so they sit in the list's rows) or on every row that
matches the list's filters, sent along as hidden fields and read by the list's own filter form:
the page and the change read the same filters the same way. One change is one transaction with
one Undo. Not a view module: views import it.

Every match is bounded: at most BULK_MAX rows (an Undo keeps their ids in the session); above
that the change is refused with a message, and nothing changes. The count the page showed goes
along too: when the matches changed since (someone else's edit, a sync), nothing changes and the
message says so, so "all 120" never quietly acts on 125.
"""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import QueryDict

BULK_MAX = 5000
SELECTED, MATCHING = "selected", "matching"


class BulkForm(forms.Form):
    """Which rows a bulk change acts on: `scope` SELECTED (the ids ticked, sent under the
    checkboxes' name `ticked_name`) or MATCHING (every match of the filters, which were
    `match_count` when the page was shown). The ticked ids render no control of their own: an
    empty required list box in the form would stop every browser from sending it."""

    ticked_name: ClassVar[str]
    nothing_ticked: ClassVar[str]

    scope = forms.ChoiceField(
        choices=[(SELECTED, "The ones ticked"), (MATCHING, "Every match")],
        required=False,  # the ticked ones, unless every match is chosen
        widget=forms.RadioSelect,
    )
    match_count = forms.IntegerField(required=False, min_value=0, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = self.data.getlist(self.ticked_name) if isinstance(self.data, QueryDict) else []
        self.fields[self.ticked_name] = forms.TypedMultipleChoiceField(
            coerce=uuid.UUID,
            choices=[(value, value) for value in chosen],
            required=False,
            widget=forms.MultipleHiddenInput,
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for message in self.errors.pop(self.ticked_name, []):
            self.add_error(None, message)  # a hidden field's error shows with the form's own
        if not self.every_match and not cleaned.get(self.ticked_name):
            self.add_error(None, self.nothing_ticked)
        return cleaned

    @property
    def every_match(self) -> bool:
        return self.cleaned_data.get("scope") == MATCHING

    def ticked(self) -> list[uuid.UUID]:
        return list(self.cleaned_data.get(self.ticked_name) or [])


def matching_ids(matches: QuerySet[Any], *, shown: int | None, noun: str) -> list[Any]:
    """The ids of `matches` (every row the filters match), or ValidationError with the message
    to show when there are more than BULK_MAX, or not the `shown` many the page said."""
    ids = list(matches.order_by().values_list("pk", flat=True)[: BULK_MAX + 1])
    if len(ids) > BULK_MAX:
        count = matches.order_by().count()
        raise ValidationError(
            f"{count:,} {noun} match these filters, and one change acts on at most "
            f"{BULK_MAX:,}: narrow the filters and change them in parts."
        )
    if shown is not None and len(ids) != shown:
        raise ValidationError(
            f"The list changed since the page was shown: {len(ids):,} {noun} match now, "
            f"{shown:,} then. Nothing was changed; look at the list again."
        )
    return ids


def form_problems(form: forms.BaseForm) -> str:
    """A form's errors in one line, for a confirmation message ("reason: Choose a reason.")."""
    return "; ".join(
        " ".join(map(str, e)) if name == "__all__" else f"{name}: {' '.join(map(str, e))}"
        for name, e in form.errors.items()
    )
