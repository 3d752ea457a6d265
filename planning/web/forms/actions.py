"""The forms of the Actions tab: adding or editing an action (its node picked from the plan,
its project from the plan's), marking it done, the list's filters (GET parameters read once
here, for the tab, its export and a change of every match alike), and changing several. The
field rules are the models' (planning.web.forms.fields)."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import ValidationError

from planning.models import (
    CONDITION_FILTERS,
    MAX_YEAR,
    MIN_YEAR,
    Action,
    ActionKind,
    ActionStatus,
    Completion,
    NodeKind,
    Plan,
    Project,
    StructureNode,
)
from planning.plans.action_filters import DEFAULT_SORT, NO_PROJECT, SORT_COLUMNS, ActionFilters
from planning.plans.selectors import plan_projects
from planning.web.bulk import BulkForm
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
        project_id = self.data.get(self.add_prefix("project")) or self.initial.get("project")
        self.projects = {str(p.pk): p for p in _projects_offered(plan, chosen=project_id)}
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


def _projects_offered(plan: Plan, *, chosen: Any = None) -> list[Project]:
    """The projects a project select lists: the plan's first PROJECT_CHOICES_MAX, and `chosen`
    (a project id) beyond them, still valid in a plan with more projects than the select lists."""
    projects = list(plan_projects(plan=plan)[:PROJECT_CHOICES_MAX])
    if chosen and chosen not in {str(p.pk) for p in projects}:
        projects += list(plan_projects(plan=plan).filter(pk__in=_uuid_or_none(chosen)))
    return projects


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
        chosen = self.data.get("project") if self.data else None
        choices_set(
            self,
            "project",
            [
                ("", "Any project"),
                (NO_PROJECT, "No project"),
                *((str(p.pk), str(p)) for p in _projects_offered(plan, chosen=chosen)),
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

    def described(self) -> str:
        """The valid filters in words, as a forwarded export states them ("Kind: Repair; From
        year: 2027; Building: Hall A"); empty without any."""
        if not self.is_bound:
            return ""
        self.is_valid()  # the valid fields are cleaned whatever the others hold
        parts = []
        for name, field in self.fields.items():
            value = self.cleaned_data.get(name)
            if name == "sort" or name in self.errors or value in (None, ""):
                continue
            if isinstance(field.widget, NodePicker):
                shown = field.widget.node_name(value)
            elif isinstance(field, forms.ChoiceField):
                labels: dict[Any, Any] = dict(field.choices)  # type: ignore[arg-type]
                shown = str(labels.get(value, value))
            else:
                shown = str(value)
            parts.append(f"{field.label}: {shown}")
        return "; ".join(parts)


YEAR, PROJECT = "year", "project"


class ActionBulkForm(BulkForm):
    """Change several actions (the Actions tab's "Change several actions"): the rows ticked
    (their checkboxes name the form, `form="bulk-actions"`) or every action matching the list's
    filters (planning.web.bulk). `change` YEAR moves the planned ones to `to_year`; PROJECT
    puts them in the project `to_project`, or NO_PROJECT takes them out of theirs."""

    ticked_name = "action"
    nothing_ticked = "Tick the actions to change, or choose every match."

    change = forms.ChoiceField(
        choices=[(YEAR, "Move the planned ones to a year"), (PROJECT, "Put them in a project")]
    )
    to_year = forms.IntegerField(required=False, min_value=MIN_YEAR, max_value=MAX_YEAR)
    to_project = forms.ChoiceField(required=False)

    def __init__(self, *args: Any, plan: Plan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan
        choices_set(
            self, "to_project", bulk_project_choices(plan, chosen=self.data.get("to_project"))
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("change") == YEAR and cleaned.get("to_year") is None:
            self.add_error("to_year", "Give the year to move them to.")
        if cleaned.get("change") == PROJECT and not cleaned.get("to_project"):
            self.add_error("to_project", "Choose a project, or no project to take them out.")
        return cleaned

    def project(self) -> Project | None:
        """The project chosen (None: no project); ValidationError when it was deleted since."""
        chosen = self.cleaned_data["to_project"]
        if chosen == NO_PROJECT:
            return None
        project = Project.objects.filter(plan=self.plan, pk=chosen).first()
        if project is None:
            raise ValidationError("That project no longer exists.")
        return project


def bulk_project_choices(plan: Plan, *, chosen: Any = None) -> list[tuple[str, str]]:
    """The projects a change of several actions offers: "no project", then the plan's (at most
    PROJECT_CHOICES_MAX, and the chosen one beyond them: `_projects_offered`)."""
    return [
        ("", "Choose a project"),
        (NO_PROJECT, "No project: take them out of theirs"),
        *((str(p.pk), str(p)) for p in _projects_offered(plan, chosen=chosen)),
    ]
