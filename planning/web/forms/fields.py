"""The form machinery of the plan pages: fields built from the models' rules, the submit helper
that turns a service's ValidationError into form errors, and the search-as-you-type node picker
(static/js/node-picker.js) with its binding to a plan."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.validators import BaseValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.forms.utils import flatatt
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from planning.models import MAX_YEAR, MIN_YEAR, NodeKind, Plan, StructureNode

T = TypeVar("T")


def model_rules_formfield(model_field: models.Field, **kwargs: Any) -> forms.Field | None:
    """The form field of a model field, with the model's rules where Django's default form
    field would state them otherwise: the model's value limits and their messages (a year below
    1900 gets the model's "Enter a year between ...", not the column type's "at least 0", and
    the input its min/max attributes), and for a choice field exactly the model's choices (no
    empty entry: every choice field here is required) and its message for a value outside them.

    A limit that moves with the clock (the planned years, today: planning.models.fields) is not
    fixed into a form field made once per process: the model checks it on every submit, with
    its message, and ModelRulesForm puts its value of the day on the input, as it does for a
    date's limits (a date form field has no min_value).
    """
    messages: dict[str, str] = {}
    if _is_number(model_field):
        for kind, limits, pick in (
            ("min_value", _limits(model_field, MinValueValidator), max),
            ("max_value", _limits(model_field, MaxValueValidator), min),
        ):
            if not limits:
                continue
            if any(callable(validator.limit_value) for validator in limits):
                kwargs.setdefault(kind, None)  # nor the column type's own "at least 0" first
                continue
            tightest = pick(limits, key=limit_of)
            kwargs.setdefault(kind, tightest.limit_value)
            messages[kind] = str(tightest.message)
    if model_field.choices:
        kwargs.setdefault("choices", model_field.choices)
        messages["invalid_choice"] = str(model_field.error_messages["invalid_choice"])
    if messages:
        kwargs.setdefault("error_messages", messages)
    return model_field.formfield(**kwargs)


def _is_number(model_field: models.Field) -> bool:
    return isinstance(model_field, models.IntegerField | models.DecimalField)


def _limits(model_field: models.Field, kind: type[BaseValidator]) -> list[BaseValidator]:
    return [validator for validator in model_field.validators if isinstance(validator, kind)]


def limit_of(validator: BaseValidator) -> Any:
    """A limit validator's value now (a callable limit is read from the clock)."""
    limit = validator.limit_value
    return limit() if callable(limit) else limit


class ModelRulesForm(forms.ModelForm):
    """A ModelForm whose fields carry the model's rules (see model_rules_formfield). A subclass's
    Meta derives from this one: Django reads the callback from the form's own Meta."""

    class Meta:
        formfield_callback = model_rules_formfield

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The inputs' min and max that model_rules_formfield left to the form: the limits of
        # the day, and those of dates.
        for name, field in self.fields.items():
            try:
                model_field = self._meta.model._meta.get_field(name)
            except FieldDoesNotExist:
                continue
            for attribute, kind in (("min", MinValueValidator), ("max", MaxValueValidator)):
                for validator in _limits(model_field, kind):
                    if callable(validator.limit_value) or not _is_number(model_field):
                        field.widget.attrs[attribute] = str(limit_of(validator))


def form_errors_apply(form: forms.BaseForm, error: ValidationError) -> None:
    """Puts a service's ValidationError on the form: field errors beside the field when the
    form has it, everything else at the top."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, messages in error.message_dict.items():
        form.add_error(name if name in form.fields else None, messages)


def form_submit(form: forms.BaseForm, write: Callable[[dict[str, Any]], T]) -> T | None:
    """`write(form.cleaned_data)` when the form is valid, and what it returns; None when the
    form is to be shown again with its errors, a ValidationError of the service's included."""
    if not form.is_valid():
        return None
    try:
        return write(form.cleaned_data)
    except ValidationError as error:
        form_errors_apply(form, error)
        return None


class NodePicker(forms.Widget):
    """A node chosen by typing part of its name or code (static/js/node-picker.js asks
    `search_url` for matches as the user types) instead of a select of every node: a plan can
    hold 20,000 of them. The form field holds the node's id; `kind` narrows the matches."""

    def __init__(self, *, kind: str = "", placeholder: str = "Type a name or code") -> None:
        super().__init__()
        self.kind = kind
        self.placeholder = placeholder
        self.search_url = ""
        self.plan: Plan | None = None

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_search" if id_ else id_

    def node_name(self, value: Any) -> str:
        """The name of the node whose id is `value`, empty for none of the plan's."""
        try:
            node_id = uuid.UUID(str(value))
        except ValueError:
            return ""
        if self.plan is None:
            return ""
        name = (
            StructureNode.objects.filter(plan=self.plan, pk=node_id)
            .values_list("name", flat=True)
            .first()
        )
        return name or ""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        attrs = {**self.attrs, **(attrs or {})}
        field_id = attrs.pop("id", f"id_{name}")
        described = attrs.pop("aria-describedby", None)
        value = "" if value in (None, "") else str(value)
        search_attrs = {
            "type": "search",
            "id": f"{field_id}_search",
            "class": "node-picker-input",
            "value": self.node_name(value) if value else "",
            "placeholder": self.placeholder,
            "autocomplete": "off",
            "role": "combobox",
            "aria-autocomplete": "list",
            "aria-expanded": "false",
            "aria-controls": f"{field_id}_list",
        }
        if described:
            search_attrs["aria-describedby"] = described
        return format_html(
            '<span class="node-picker" data-node-picker data-search-url="{}" data-kind="{}">'
            '<input type="hidden" name="{}" id="{}" value="{}">'
            "<input{}>"
            '<ul class="node-picker-list" id="{}_list" role="listbox" hidden></ul>'
            "</span>",
            self.search_url,
            self.kind,
            name,
            field_id,
            value,
            flatatt(search_attrs),
            field_id,
        )


def choices_set(form: forms.BaseForm, name: str, choices: list[tuple[str, str]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


def node_picker_bind(form: forms.BaseForm, name: str, plan: Plan) -> None:
    """Points the NodePicker of field `name` at `plan`'s node search."""
    widget = form.fields[name].widget
    assert isinstance(widget, NodePicker)
    widget.plan = plan
    widget.search_url = reverse("planning:node_lookup", args=[plan.number])


def plan_node_clean(plan: Plan, value: Any, *, kind: str = "") -> StructureNode:
    """The node of `plan` with id `value` (a UUID field's cleaned value)."""
    nodes = StructureNode.objects.filter(plan=plan, pk=value)
    if kind:
        nodes = nodes.filter(kind=kind)
    node = nodes.first()
    if node is None:
        what = "building" if kind == NodeKind.BUILDING else "node"
        raise ValidationError(f"No {what} of this plan has this id; pick one from the list.")
    return node


class YearRangeForm(forms.Form):
    """GET parameters `year_from` and `year_to` of a page that shows a range of years: a bad
    value is reported beside its field and a default used instead, so the page never fails on
    its query string. A subclass sets how long a range may be and how long the default is."""

    years_max = 30
    years_default = 10

    year_from = forms.IntegerField(
        required=False, min_value=MIN_YEAR, max_value=MAX_YEAR, label="From year"
    )
    year_to = forms.IntegerField(
        required=False, min_value=MIN_YEAR, max_value=MAX_YEAR, label="To year"
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, last = cleaned.get("year_from"), cleaned.get("year_to")
        if first is not None and last is not None:
            if last < first:
                self.add_error("year_to", "The last year comes before the first.")
            elif last - first + 1 > self.years_max:
                self.add_error("year_to", f"Show at most {self.years_max} years at a time.")
        return cleaned

    def valid(self, name: str) -> Any:
        """The cleaned value of one field, or None when it was not given or had an error."""
        if not self.is_bound:
            return None
        self.is_valid()
        return None if name in self.errors else self.cleaned_data.get(name)

    def year_range(self, *, default_first: int) -> tuple[int, int]:
        """The chosen range; one end alone is completed to `years_default` years; none, or a
        range the wrong way round or too long, gives `years_default` years from
        `default_first`."""
        first, last = self.valid("year_from"), self.valid("year_to")
        if "year_to" in self.errors:  # start afresh
            first = last = None
        span = self.years_default
        if first is None and last is None:
            return default_first, default_first + span - 1
        if first is None:
            first = max(MIN_YEAR, last - span + 1)
        if last is None:
            last = min(MAX_YEAR, first + span - 1)
        return first, last
