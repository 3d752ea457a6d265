"""Input parsing for the plan pages. The field rules live on the models (planning.models): the
forms that edit a model are ModelForms built by `model_rules_formfield`, so they refuse a bad
value with the model's own message, and show the services' other errors beside their fields."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from planning.models import (
    MAX_YEAR,
    MIN_YEAR,
    Action,
    ActionKind,
    Code,
    NodeKind,
    Plan,
    PlanMembership,
    Project,
    StructureNode,
)
from planning.selectors import TreeNode, plan_projects

T = TypeVar("T")


def model_rules_formfield(model_field: models.Field, **kwargs: Any) -> forms.Field | None:
    """The form field of a model field, with the model's rules where Django's default form
    field would state them otherwise: the model's value limits and their messages (a year below
    1900 gets the model's "Enter a year between ...", not the column type's "at least 0", and
    the input its min/max attributes), and for a choice field exactly the model's choices (no
    empty entry: every choice field here is required) and its message for a value outside them.
    """
    messages: dict[str, str] = {}
    minimums = [v for v in model_field.validators if isinstance(v, MinValueValidator)]
    if minimums:
        lowest = max(minimums, key=lambda validator: validator.limit_value)
        kwargs.setdefault("min_value", lowest.limit_value)
        messages["min_value"] = str(lowest.message)
    maximums = [v for v in model_field.validators if isinstance(v, MaxValueValidator)]
    if maximums:
        highest = min(maximums, key=lambda validator: validator.limit_value)
        kwargs.setdefault("max_value", highest.limit_value)
        messages["max_value"] = str(highest.message)
    if model_field.choices:
        kwargs.setdefault("choices", model_field.choices)
        messages["invalid_choice"] = str(model_field.error_messages["invalid_choice"])
    if messages:
        kwargs.setdefault("error_messages", messages)
    return model_field.formfield(**kwargs)


class ModelRulesForm(forms.ModelForm):
    """A ModelForm whose fields carry the model's rules (see model_rules_formfield). A subclass's
    Meta derives from this one: Django reads the callback from the form's own Meta."""

    class Meta:
        formfield_callback = model_rules_formfield


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


class TreeSelect(forms.Select):
    """A select of structure nodes rendered in Python: a plan can hold thousands of nodes, and
    Django's template-per-option rendering made a 2,000-node plan page take seconds."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        final_attrs = self.build_attrs(self.attrs, {**(attrs or {}), "name": name})
        selected = "" if value is None else str(value)
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (key, " selected" if str(key) == selected else "", label)
                for key, label in self.choices
            ),
        )
        return format_html("<select{}>{}</select>", flatatt(final_attrs), options)


def _choices_set(form: forms.BaseForm, name: str, choices: list[tuple[str, str]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


def _tree_choices(
    flat_tree: list[TreeNode], *, exclude: set[Any] | None = None
) -> list[tuple[str, str]]:
    excluded = exclude or set()
    return [
        (str(item.node.pk), "\u2003" * item.depth + f"{item.node.name} ({item.node.kind})")
        for item in flat_tree
        if item.node.pk not in excluded
    ]


class PlanCreateForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("name", "description")
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 2})}


class PlanImportForm(forms.Form):
    """A JSON plan file, or the CSV pair nodes.csv + actions.csv."""

    name = forms.CharField(
        max_length=Plan._meta.get_field("name").max_length,
        required=False,
        help_text="Optional; overrides the name in the file.",
    )
    plan_file = forms.FileField(required=False, label="Plan file (JSON)")
    nodes_csv = forms.FileField(required=False, label="or nodes.csv")
    actions_csv = forms.FileField(required=False, label="and actions.csv")
    # A new value each time the form is shown: the same form sent twice is one import.
    idempotency_key = forms.CharField(
        required=False, max_length=64, widget=forms.HiddenInput, initial=lambda: uuid.uuid4().hex
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        plan_file = cleaned.get("plan_file")
        nodes_csv, actions_csv = cleaned.get("nodes_csv"), cleaned.get("actions_csv")
        if plan_file and (nodes_csv or actions_csv):
            raise ValidationError("Upload either a JSON plan file or the CSV pair, not both.")
        if not plan_file and not (nodes_csv and actions_csv):
            if nodes_csv or actions_csv:
                raise ValidationError("A CSV import needs both nodes.csv and actions.csv.")
            raise ValidationError("Choose a JSON plan file, or both CSV files.")
        if (nodes_csv or actions_csv) and not cleaned.get("name"):
            self.add_error("name", "A CSV import needs a plan name.")
        limit = settings.IMPORT_MAX_BYTES
        for field_name in ("plan_file", "nodes_csv", "actions_csv"):
            upload = cleaned.get(field_name)
            if upload is not None and upload.size > limit:
                self.add_error(
                    field_name, f"The file is too large ({upload.size} bytes, at most {limit})."
                )
        return cleaned


class NodeCreateForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("name", "kind", "quantity", "unit", "install_year")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].initial = NodeKind.BUILDING


class NodeDetailsForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("kind", "quantity", "unit", "install_year")


class NodeRenameForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("name",)


class NodeMoveForm(forms.Form):
    parent = forms.ChoiceField(required=False, label="New parent", widget=TreeSelect)

    def __init__(self, *args: Any, flat_tree: list[TreeNode], node: StructureNode, **kwargs: Any):
        super().__init__(*args, **kwargs)
        descendants = _descendant_ids(flat_tree, node.pk)
        _choices_set(
            self,
            "parent",
            [("", "(top level: no parent)"), *_tree_choices(flat_tree, exclude=descendants)],
        )
        self.fields["parent"].initial = str(node.parent_id) if node.parent_id else ""


def _descendant_ids(flat_tree: list[TreeNode], node_id: Any) -> set[Any]:
    for item in flat_tree:
        if item.node.pk == node_id:
            found: set[Any] = set()
            stack = [item]
            while stack:
                current = stack.pop()
                found.add(current.node.pk)
                stack.extend(current.children)
            return found
    return {node_id}


class CodeSearchForm(forms.Form):
    q = forms.CharField(max_length=100, required=False, label="Search the catalog")


class CodeAssignForm(forms.Form):
    code = forms.CharField(
        max_length=Code._meta.get_field("code").max_length,
        label="Code",
        help_text="Type a catalog code (suggestions appear as you type) or search below.",
        widget=forms.TextInput(attrs={"list": "code-catalog", "autocomplete": "off"}),
    )


class ActionForm(ModelRulesForm):
    node = forms.ChoiceField(label="Structure node", widget=TreeSelect)
    project = forms.ChoiceField(required=False)

    class Meta(ModelRulesForm.Meta):
        model = Action
        fields = ("node", "title", "kind", "planned_year", "estimated_cost", "project")

    def __init__(self, *args: Any, plan: Plan, flat_tree: list[TreeNode], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].initial = ActionKind.REPAIR
        self.nodes = {str(item.node.pk): item.node for item in flat_tree}
        _choices_set(self, "node", [("", "Choose a node"), *_tree_choices(flat_tree)])
        self.projects = {str(p.pk): p for p in plan_projects(plan=plan)}
        _choices_set(
            self,
            "project",
            [("", "(no project)"), *((pk, str(p)) for pk, p in self.projects.items())],
        )
        if not self.projects:
            self.fields["project"].widget = forms.HiddenInput()

    def clean_node(self) -> StructureNode:
        return self.nodes[self.cleaned_data["node"]]

    def clean_project(self) -> Project | None:
        return self.projects.get(self.cleaned_data.get("project") or "")


class ActionFilterForm(forms.Form):
    """GET filters of the actions table; invalid values are reported and ignored."""

    node = forms.ChoiceField(required=False, label="Node (with its subtree)", widget=TreeSelect)
    year = forms.IntegerField(required=False, min_value=MIN_YEAR, max_value=MAX_YEAR)

    def __init__(self, *args: Any, flat_tree: list[TreeNode], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choices_set(self, "node", [("", "All nodes"), *_tree_choices(flat_tree)])

    def clean_node(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("node")
        return uuid.UUID(value) if value else None


class MemberAddForm(ModelRulesForm):
    email = forms.EmailField(max_length=254)

    class Meta(ModelRulesForm.Meta):
        model = PlanMembership
        fields = ("email", "role")


class MemberRoleForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = PlanMembership
        fields = ("role",)
