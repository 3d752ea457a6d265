"""The forms of the plan pages. The field rules live on the models (planning.models): the
forms that edit a model are ModelForms built by `model_rules_formfield`, so they refuse a bad
value with the model's own message, and show the services' other errors beside their fields."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError

from organisations.models import Organisation
from planning.catalog.imports import CATALOG_COLUMNS
from planning.figures.prices import Markup, markups_stored, plan_markups
from planning.models import (
    CONDITION_FILTERS,
    MAX_YEAR,
    MIN_YEAR,
    Action,
    ActionKind,
    ActionStatus,
    Code,
    CodeOverride,
    Completion,
    ConditionGrade,
    NodeKind,
    OrganisationCatalog,
    Plan,
    PlanMembership,
    PlanRole,
    Project,
    StructureNode,
)
from planning.models.plans import (
    MARKUP_NAME_MAX,
    MARKUP_RANGE,
    MARKUPS_MAX,
    markups_validate,
)
from planning.plans.action_filters import DEFAULT_SORT, NO_PROJECT, SORT_COLUMNS, ActionFilters
from planning.plans.selectors import plan_projects
from planning.transfer import xlsx
from planning.transfer.imports.plan_document import import_currency_default
from planning.web.forms.fields import (
    ModelRulesForm,
    NodePicker,
    choices_set,
    node_picker_bind,
    plan_node_clean,
)

# A project select lists at most this many; a chosen project beyond them is still accepted, and
# the project page adds actions to a project of any plan size.
PROJECT_CHOICES_MAX = 300


class PlanCreateForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("name", "description")
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 2})}


class PlanImportForm(forms.Form):
    """A plan file (JSON or an Excel workbook), or the CSV pair nodes.csv + actions.csv with
    an optional plan.csv; and the currency for a file that names none, the organisation's
    default at first (planning.transfer.imports.plan_document.import_currency_default)."""

    name = forms.CharField(
        max_length=Plan._meta.get_field("name").max_length,
        required=False,
        help_text="Optional: the name in the file, else the file's name, is used.",
    )
    # Empty (a client that sends none): the organisation's default, when the import runs.
    currency = forms.CharField(
        required=False,
        max_length=Plan._meta.get_field("currency").max_length,
        help_text="ISO 4217 code, e.g. EUR, SEK. Used when the file names no currency.",
        widget=forms.TextInput(attrs={"size": 4, "autocapitalize": "characters"}),
    )
    plan_file = forms.FileField(
        required=False,
        label="Plan file (JSON or Excel)",
        widget=forms.ClearableFileInput(
            attrs={"accept": ".json,.xlsx,application/json," + xlsx.CONTENT_TYPE}
        ),
    )
    nodes_csv = forms.FileField(
        required=False,
        label="or nodes.csv",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv"}),
    )
    actions_csv = forms.FileField(
        required=False,
        label="and actions.csv",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv"}),
    )
    plan_csv = forms.FileField(
        required=False,
        label="and optionally plan.csv",
        help_text="The plan's name, currency and prices, a field and its value per line.",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv"}),
    )
    # A new value each time the form is shown: the same form sent twice is one import.
    idempotency_key = forms.CharField(
        required=False, max_length=64, widget=forms.HiddenInput, initial=lambda: uuid.uuid4().hex
    )
    field_order = ("name", "plan_file", "nodes_csv", "actions_csv", "plan_csv", "currency")

    def __init__(self, *args: Any, organisation: Organisation | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["currency"].initial = import_currency_default(organisation=organisation)

    def clean_currency(self) -> str:
        """Checked as the Plan model checks a currency, with its message."""
        currency = str(self.cleaned_data.get("currency") or "").strip().upper()
        if currency:
            Plan._meta.get_field("currency").run_validators(currency)
        return currency

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        plan_file = cleaned.get("plan_file")
        nodes_csv, actions_csv = cleaned.get("nodes_csv"), cleaned.get("actions_csv")
        if plan_file and (nodes_csv or actions_csv or cleaned.get("plan_csv")):
            raise ValidationError("Upload either a plan file or the CSV pair, not both.")
        if not plan_file and not (nodes_csv and actions_csv):
            if nodes_csv or actions_csv or cleaned.get("plan_csv"):
                raise ValidationError("A CSV import needs both nodes.csv and actions.csv.")
            raise ValidationError("Choose a plan file (JSON or Excel), or both CSV files.")
        limit = settings.IMPORT_MAX_BYTES
        for field_name in ("plan_file", "nodes_csv", "actions_csv", "plan_csv"):
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


class NodeBuildingForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = StructureNode
        fields = ("address", "gross_floor_area_m2", "year_built")
        labels: ClassVar = {"gross_floor_area_m2": "Gross floor area (m²)"}


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


class CodeSearchForm(forms.Form):
    q = forms.CharField(max_length=100, required=False, label="Search the catalog")


class CodeAssignForm(forms.Form):
    code = forms.CharField(
        max_length=Code._meta.get_field("code").max_length,
        label="Code",
        help_text="Type a catalog code, or search the catalog below.",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class ActionForm(ModelRulesForm):
    node = forms.UUIDField(label="Structure node", widget=NodePicker())
    project = forms.ChoiceField(required=False)

    class Meta(ModelRulesForm.Meta):
        model = Action
        fields = (
            "node",
            "title",
            "kind",
            "planned_year",
            "interval_years",
            "estimated_cost",
            "project",
        )
        labels: ClassVar = {"interval_years": "Repeats every (years)"}

    def __init__(self, *args: Any, plan: Plan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan
        self.fields["kind"].initial = ActionKind.REPAIR
        node_picker_bind(self, "node", plan)
        self.projects = {str(p.pk): p for p in plan_projects(plan=plan)[:PROJECT_CHOICES_MAX]}
        project_id = self.data.get(self.add_prefix("project")) or self.initial.get("project")
        if project_id and project_id not in self.projects:
            # A plan with more projects than the select lists: the chosen one is still valid.
            chosen = plan_projects(plan=plan).filter(pk__in=_uuid_or_none(project_id)).first()
            if chosen is not None:
                self.projects[str(chosen.pk)] = chosen
        choices_set(
            self,
            "project",
            [("", "(no project)"), *((pk, str(p)) for pk, p in self.projects.items())],
        )
        if not self.projects:
            self.fields["project"].widget = forms.HiddenInput()

    def clean_node(self) -> StructureNode:
        return plan_node_clean(self.plan, self.cleaned_data["node"])

    def clean_project(self) -> Project | None:
        return self.projects.get(self.cleaned_data.get("project") or "")


def _uuid_or_none(value: Any) -> list[uuid.UUID]:
    try:
        return [uuid.UUID(str(value))]
    except ValueError:
        return []


class ActionDoneForm(ModelRulesForm):
    """Mark done: when the work was completed (blank: today) and what it cost (optional)."""

    class Meta(ModelRulesForm.Meta):
        model = Completion
        fields = ("completed_on", "actual_cost")
        labels: ClassVar = {"completed_on": "Completed on", "actual_cost": "Actual cost"}
        widgets: ClassVar = {"completed_on": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["completed_on"].required = False


# The condition filter of the Structure and Actions tabs: of the node, or the action's node.
CONDITION_CHOICES = [
    ("", "Any condition"),
    *((value, label) for value, (label, _grades) in CONDITION_FILTERS.items()),
]


class ActionFilterForm(forms.Form):
    """GET filters of the actions list (planning.plans.action_filters); a bad value is reported
    beside its field and left out, the other filters still apply."""

    q = forms.CharField(required=False, max_length=200, label="Search")
    kind = forms.ChoiceField(
        required=False, choices=[("", "Any kind"), *ActionKind.choices], label="Kind"
    )
    status = forms.ChoiceField(
        required=False, choices=[("", "Any status"), *ActionStatus.choices], label="Status"
    )
    year_from = forms.IntegerField(
        required=False, min_value=MIN_YEAR, max_value=MAX_YEAR, label="From year"
    )
    year_to = forms.IntegerField(
        required=False, min_value=MIN_YEAR, max_value=MAX_YEAR, label="To year"
    )
    building = forms.UUIDField(
        required=False, label="Building", widget=NodePicker(kind=NodeKind.BUILDING)
    )
    node = forms.UUIDField(required=False, label="Node (with its subtree)", widget=NodePicker())
    project = forms.ChoiceField(required=False, label="Project")
    condition = forms.ChoiceField(required=False, choices=CONDITION_CHOICES, label="Condition")
    sort = forms.ChoiceField(
        required=False,
        choices=[(f"{d}{c}", c) for c in SORT_COLUMNS for d in ("", "-")],
        widget=forms.HiddenInput(),
    )

    def __init__(self, *args: Any, plan: Plan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan
        node_picker_bind(self, "building", plan)
        node_picker_bind(self, "node", plan)
        projects = list(plan_projects(plan=plan)[:PROJECT_CHOICES_MAX])
        chosen = self.data.get("project") if self.data else None
        if chosen and chosen not in {str(p.pk) for p in projects}:
            projects += list(plan_projects(plan=plan).filter(pk__in=_uuid_or_none(chosen)))
        choices_set(
            self,
            "project",
            [
                ("", "Any project"),
                (NO_PROJECT, "No project"),
                *((str(p.pk), str(p)) for p in projects),
            ],
        )

    def clean_node(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("node")
        return plan_node_clean(self.plan, value).pk if value else None

    def clean_building(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("building")
        return plan_node_clean(self.plan, value, kind=NodeKind.BUILDING).pk if value else None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, last = cleaned.get("year_from"), cleaned.get("year_to")
        if first is not None and last is not None and last < first:
            self.add_error("year_to", "The last year comes before the first.")
        return cleaned

    def filters(self) -> ActionFilters:
        """The valid filters (all of them, when the form is valid)."""
        if not self.is_bound:
            return ActionFilters()
        self.is_valid()
        data = self.cleaned_data
        sort = data.get("sort") or DEFAULT_SORT
        return ActionFilters(
            q=data.get("q") or "",
            kind=data.get("kind") or "",
            status=data.get("status") or "",
            year_from=data.get("year_from"),
            year_to=data.get("year_to"),
            node_id=data.get("node"),
            building_id=data.get("building"),
            project=data.get("project") or "",
            condition=data.get("condition") or "",
            sort=sort.lstrip("-"),
            descending=sort.startswith("-"),
        )


class ProjectForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Project
        fields = ("name", "year")


class ProjectActionsAddForm(forms.Form):
    action = forms.TypedMultipleChoiceField(coerce=uuid.UUID, label="Actions to add")

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["action"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices


class PlanSettingsForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("name", "description", "currency")
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_currency(self) -> str:
        return str(self.cleaned_data.get("currency") or "").strip().upper()


class PlanMoneyForm(ModelRulesForm):
    """The plan's prices (docs/design.md "Money"): the base year and index rate are required;
    the markups are rows of a name and a percentage, in the order they apply (a row left blank
    is skipped); the budget is optional."""

    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("price_base_year", "index_rate_percent", "annual_budget")
        labels: ClassVar = {
            "price_base_year": "Price base year",
            "index_rate_percent": "Index rate (% a year)",
            "annual_budget": "Annual budget (today's prices)",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shown = plan_markups(self.instance) if self.instance.pk else ()
        for row in range(1, MARKUPS_MAX + 1):
            markup = shown[row - 1] if row <= len(shown) else None
            self.fields[f"markup_{row}_name"] = forms.CharField(
                label=f"Markup {row}: name",
                required=False,
                max_length=MARKUP_NAME_MAX,
                initial=markup.name if markup else "",
                widget=forms.TextInput(attrs={"aria-label": f"Markup {row}: name"}),
            )
            self.fields[f"markup_{row}_percent"] = forms.DecimalField(
                label=f"Markup {row}: percentage",
                required=False,
                min_value=MARKUP_RANGE[0],
                max_value=MARKUP_RANGE[1],
                max_digits=5,
                decimal_places=2,
                error_messages={
                    "min_value": "Enter a percentage between 0 and 100.",
                    "max_value": "Enter a percentage between 0 and 100.",
                },
                initial=markup.percent if markup else None,
                widget=forms.NumberInput(
                    attrs={"aria-label": f"Markup {row}: percentage", "step": "0.01"}
                ),
            )

    def price_fields(self) -> list[forms.BoundField]:
        """The fields above the markups' table."""
        return [self["price_base_year"], self["index_rate_percent"]]

    def markup_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The (name, percentage) fields of each row, for the template's table."""
        return [
            (self[f"markup_{row}_name"], self[f"markup_{row}_percent"])
            for row in range(1, MARKUPS_MAX + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        markups: list[Markup] = []
        for row in range(1, MARKUPS_MAX + 1):
            name = (data.pop(f"markup_{row}_name", "") or "").strip()
            percent = data.pop(f"markup_{row}_percent", None)
            if not name and percent is None:
                continue
            if not name:
                self.add_error(f"markup_{row}_name", "Give the markup a name, e.g. “Overhead”.")
            elif percent is None:
                self.add_error(f"markup_{row}_percent", "Give the markup's percentage.")
            else:
                markups.append(Markup(name=name, percent=percent))
        try:
            markups_validate(markups_stored(markups))
        except ValidationError as error:
            self.add_error(None, error)
        data["markups"] = markups
        return data


class PlanDeleteForm(forms.Form):
    confirm_name = forms.CharField(
        label="Type the plan's name to confirm", max_length=200, strip=False
    )

    def __init__(self, *args: Any, plan: Plan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan

    def clean_confirm_name(self) -> str:
        typed = self.cleaned_data["confirm_name"]
        if typed.strip() != self.plan.name:
            raise ValidationError("That is not the name of the plan; nothing was deleted.")
        return typed


GUEST_ROLE_CHOICES = [(PlanRole.EDITOR, "Editor"), (PlanRole.VIEWER, "Viewer")]


class MemberAddForm(forms.Form):
    """Invites a guest (someone outside the plan's organisation) to the plan."""

    email = forms.EmailField(max_length=254)
    role = forms.ChoiceField(choices=GUEST_ROLE_CHOICES, initial=PlanRole.VIEWER)


class MemberRoleForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = PlanMembership
        fields = ("role",)


# --- the organisation's catalog ---------------------------------------------------------------
class OwnCodeForm(ModelRulesForm):
    """A code of the organisation's own (planning.catalog.services)."""

    class Meta(ModelRulesForm.Meta):
        model = Code
        fields = CATALOG_COLUMNS  # the catalog CSV's columns, in its order
        widgets: ClassVar = {"keywords": forms.TextInput()}


class CodeOverrideForm(ModelRulesForm):
    """The organisation's figures for a starter code; an empty field keeps the starter's."""

    class Meta(ModelRulesForm.Meta):
        model = CodeOverride
        fields = ("unit_cost", "service_life_years", "interval_years")
        labels: ClassVar = {
            "unit_cost": "Your unit cost",
            "service_life_years": "Your service life (years)",
            "interval_years": "Your interval (years)",
        }


class CatalogCurrencyForm(ModelRulesForm):
    """The currency of the organisation's own figures (planning.catalog.services)."""

    class Meta(ModelRulesForm.Meta):
        model = OrganisationCatalog
        fields = ("currency",)
        labels: ClassVar = {"currency": "Currency of your figures"}

    def clean_currency(self) -> str:
        return str(self.cleaned_data.get("currency") or "").strip().upper()


class CatalogUploadForm(forms.Form):
    file = forms.FileField(
        label="Catalog CSV",
        help_text=(
            "Columns code (required), name, unit, unit_cost, service_life_years, "
            "interval_years, keywords; an empty cell changes nothing."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )
    currency = forms.CharField(
        max_length=3,
        required=False,
        label="Currency of the file's unit costs",
        help_text="Another than your catalog's becomes its currency; no figure is converted.",
    )
