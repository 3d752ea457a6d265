"""Input parsing for the plan pages. The rules themselves live in planning.services; a form
only turns request data into typed values and shows the services' errors beside its fields."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from planning.models import (
    MAX_YEAR,
    MIN_YEAR,
    ActionKind,
    NodeKind,
    Plan,
    PlanRole,
    Project,
    StructureNode,
)
from planning.selectors import TreeNode, plan_projects

COST_MAX_DIGITS = 14


def form_errors_apply(form: forms.Form, error: ValidationError) -> None:
    """Puts a service's ValidationError on the form: field errors beside the field when the
    form has it, everything else at the top."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, messages in error.message_dict.items():
        form.add_error(name if name in form.fields else None, messages)


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


def _choices_set(form: forms.Form, name: str, choices: list[tuple[str, str]]) -> None:
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


class PlanCreateForm(forms.Form):
    name = forms.CharField(max_length=200)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class PlanImportForm(forms.Form):
    """A JSON plan file, or the CSV pair nodes.csv + actions.csv."""

    name = forms.CharField(
        max_length=200, required=False, help_text="Optional; overrides the name in the file."
    )
    plan_file = forms.FileField(required=False, label="Plan file (JSON)")
    nodes_csv = forms.FileField(required=False, label="or nodes.csv")
    actions_csv = forms.FileField(required=False, label="and actions.csv")

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


class NodeCreateForm(forms.Form):
    name = forms.CharField(max_length=200)
    kind = forms.ChoiceField(choices=NodeKind.choices, initial=NodeKind.BUILDING)
    quantity = forms.DecimalField(required=False, min_value=0, max_digits=14, decimal_places=2)
    unit = forms.CharField(max_length=20, required=False)
    install_year = forms.IntegerField(required=False, min_value=MIN_YEAR, max_value=MAX_YEAR)


class NodeDetailsForm(forms.Form):
    kind = forms.ChoiceField(choices=NodeKind.choices)
    quantity = forms.DecimalField(required=False, min_value=0, max_digits=14, decimal_places=2)
    unit = forms.CharField(max_length=20, required=False)
    install_year = forms.IntegerField(required=False, min_value=MIN_YEAR, max_value=MAX_YEAR)


class NodeRenameForm(forms.Form):
    name = forms.CharField(max_length=200)


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
        max_length=20,
        label="Code",
        help_text="Type a catalog code (suggestions appear as you type) or search below.",
        widget=forms.TextInput(attrs={"list": "code-catalog", "autocomplete": "off"}),
    )


class ActionForm(forms.Form):
    node = forms.ChoiceField(label="Structure node", widget=TreeSelect)
    title = forms.CharField(max_length=200)
    kind = forms.ChoiceField(choices=ActionKind.choices, initial=ActionKind.REPAIR)
    planned_year = forms.IntegerField(min_value=MIN_YEAR, max_value=MAX_YEAR)
    estimated_cost = forms.DecimalField(
        min_value=0, max_digits=COST_MAX_DIGITS, decimal_places=2, initial=0
    )
    project = forms.ChoiceField(required=False)

    def __init__(self, *args: Any, plan: Plan, flat_tree: list[TreeNode], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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


class MemberAddForm(forms.Form):
    email = forms.EmailField(max_length=254)
    role = forms.ChoiceField(choices=PlanRole.choices, initial=PlanRole.VIEWER)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=PlanRole.choices)
