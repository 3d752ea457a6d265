"""The forms of the Structure tab and a node's page: adding, renaming and moving a node, its
details, building data and condition, and the code assigned to it. Each ModelForm takes the
node's field rules from the model (planning.web.forms.fields)."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from planning.models import Code, ConditionGrade, NodeKind, StructureNode
from planning.web.forms.fields import (
    ModelRulesForm,
    NodePicker,
    choices_set,
    node_picker_bind,
    plan_node_clean,
)


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


class NodeBuildingForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("address", "gross_floor_area_m2", "year_built", "replacement_value")
        labels: ClassVar = {"gross_floor_area_m2": "Gross floor area (m²)"}
        help_texts: ClassVar = {
            "replacement_value": "What building it again would cost today, in the plan's "
            "currency. Empty: its area times the organisation's value per m² (if set)."
        }


class NodeConditionForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("condition_grade", "condition_assessed_on")
        widgets: ClassVar = {"condition_assessed_on": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Not assessed is a choice too (the model's choices are the grades alone).
        grades = [(str(value), label) for value, label in ConditionGrade.choices]
        choices_set(self, "condition_grade", [("", "not assessed"), *grades])


class NodeRenameForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("name",)


class NodeMoveForm(forms.Form):
    parent = forms.UUIDField(
        required=False,
        label="New parent",
        widget=NodePicker(),
        help_text="Leave empty to make it a top-level node.",
    )

    def __init__(self, *args: Any, node: StructureNode, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.plan = node.plan
        node_picker_bind(self, "parent", node.plan)
        self.fields["parent"].initial = str(node.parent_id) if node.parent_id else ""

    def clean_parent(self) -> StructureNode | None:
        value = self.cleaned_data.get("parent")
        return plan_node_clean(self.plan, value) if value else None


class CodeAssignForm(forms.Form):
    code = forms.CharField(
        max_length=Code._meta.get_field("code").max_length,
        label="Code",
        help_text="Type a catalog code, or search the catalog below.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
