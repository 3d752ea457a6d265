"""The planning domain: plans, their structure tree, the code catalog, actions, projects and
suggestions. Invariants that a row can check on its own live in the database as constraints;
cross-row rules (a node's parent in the same plan, no cycles) are enforced by the services.

The field rules (lengths, year ranges, non-negative amounts, choices, no blank names) are written
once, here, as field options and validators: services run them with ``full_clean()``, the forms
are ModelForms, and the importer turns the same ValidationErrors into its problem list, so every
way in refuses a bad value with the same message.
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from jobs.models import Leased

MIN_YEAR = 1900
MAX_YEAR = 2200
# PostgreSQL `integer`: a plan number or URL value beyond this cannot name a plan.
MAX_PLAN_NUMBER = 2_147_483_647
# Money and quantities are kept to the cent (decimal_places=2).
CENT = Decimal("0.01")


def validate_not_blank(value: str) -> None:
    """A name made only of spaces is no name (an empty one is refused by the field itself)."""
    if not value.strip():
        raise ValidationError("This field cannot be blank.", code="blank")


NAME_VALIDATORS = [validate_not_blank]
_YEAR_MESSAGE = f"Enter a year between {MIN_YEAR} and {MAX_YEAR}."
YEAR_VALIDATORS = [
    MinValueValidator(MIN_YEAR, message=_YEAR_MESSAGE),
    MaxValueValidator(MAX_YEAR, message=_YEAR_MESSAGE),
]
NOT_NEGATIVE = [MinValueValidator(0, message="Cannot be negative.")]


def choice_messages(choices: type[models.TextChoices]) -> dict[str, str]:
    """The message of a value outside `choices`, naming the allowed ones; model fields and the
    ModelForms built on them (planning.forms.ModelRulesForm) both use it."""
    allowed = ", ".join(choices.values)
    return {"invalid_choice": f"“%(value)s” is not one of: {allowed}."}


class PlanNumberCounter(models.Model):
    """A single row holding the last plan number handed out.

    Incrementing it with an UPDATE inside the creating transaction serialises concurrent
    creations (the row lock) and, unlike MAX(number) + 1, never hands out a number again after
    its plan was deleted.
    """

    last_number = models.PositiveIntegerField(default=0)

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(pk=1), name="plan_number_counter_single_row"),
        ]

    def __str__(self) -> str:
        return f"last plan number {self.last_number}"


def plan_currency_default() -> str:
    return str(settings.PLAN_DEFAULT_CURRENCY)


CURRENCY_VALIDATORS = [
    RegexValidator(r"^[A-Z]{3}\Z", message="Enter a 3-letter currency code such as EUR or USD.")
]


class Plan(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    number = models.PositiveIntegerField(unique=True, editable=False)
    name = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    description = models.TextField(blank=True)
    # Every amount of the plan is in this currency (ISO 4217); shown beside each figure.
    currency = models.CharField(
        max_length=3,
        default=plan_currency_default,
        validators=CURRENCY_VALIDATORS,
        help_text="ISO 4217 code, e.g. EUR, USD, CHF.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    last_synced_at = models.DateTimeField(null=True, blank=True)
    # The version of everything the plan's pages and lists are derived from: raised in the
    # transaction of every change of the plan's data or suggestions (planning.writes) and by
    # every sync that takes in a change made elsewhere. ETags and cached figures are keyed on it.
    data_version = models.PositiveBigIntegerField(default=0, editable=False)
    # Digest of the suggestion rules and thresholds the last full sync used: when a deployment
    # changes them, the next sync re-derives the whole plan.
    suggestion_rules = models.CharField(max_length=64, blank=True, editable=False)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="PlanMembership", related_name="plans"
    )

    class Meta:
        ordering = ("number",)
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=MAX_PLAN_NUMBER),
                name="plan_number_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"


class PlanRole(models.TextChoices):
    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class PlanMembership(models.Model):
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_memberships"
    )
    role = models.CharField(
        max_length=10,
        choices=PlanRole.choices,
        default=PlanRole.VIEWER,
        error_messages=choice_messages(PlanRole),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["plan", "user"], name="plan_membership_unique"),
            models.CheckConstraint(
                condition=Q(role__in=PlanRole.values), name="plan_membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.plan}"

    @property
    def can_edit(self) -> bool:
        return self.role in (PlanRole.OWNER, PlanRole.EDITOR)


class Code(models.Model):
    """A classification code of the catalog shared by all plans."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    code = models.CharField(max_length=20, unique=True)
    name = models.CharField(max_length=200)
    unit = models.CharField(max_length=20, blank=True)
    unit_cost = models.DecimalField(
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=NOT_NEGATIVE,
        help_text="Reference cost per unit",
    )
    service_life_years = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)]
    )
    keywords = models.TextField(blank=True, help_text="Comma-separated words used for matching")
    is_default = models.BooleanField(
        default=False, help_text="Part of the starter catalog shipped with Maintplan"
    )

    class Meta:
        ordering = ("code",)
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(unit_cost__isnull=True) | Q(unit_cost__gte=0),
                name="code_unit_cost_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(service_life_years__isnull=True) | Q(service_life_years__gte=1),
                name="code_service_life_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class NodeKind(models.TextChoices):
    SITE = "site", "Site"
    BUILDING = "building", "Building"
    SYSTEM = "system", "System"
    COMPONENT = "component", "Component"


class StructureNode(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="nodes")
    # Deleting a node deletes its subtree and their actions: the UI asks for confirmation.
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    name = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    kind = models.CharField(
        max_length=10, choices=NodeKind.choices, error_messages=choice_messages(NodeKind)
    )
    # A catalog code in use cannot be deleted from under the plans that use it.
    code = models.ForeignKey(
        Code, null=True, blank=True, on_delete=models.PROTECT, related_name="nodes"
    )
    quantity = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True, validators=NOT_NEGATIVE
    )
    unit = models.CharField(max_length=20, blank=True)
    install_year = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=YEAR_VALIDATORS
    )
    # Stored facts of the tree, written only by planning.tree (docs/design.md "Structure tree"):
    # the ancestors' ids, root first ("<hex id>/" each; "" for a root), and the building the
    # node is in (itself if a building, else its nearest building ancestor, else none).
    path = models.TextField(default="", db_default="", blank=True, editable=False)
    building = models.ForeignKey(
        "self", null=True, blank=True, editable=False, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        ordering = ("name",)
        indexes: ClassVar = [
            models.Index(fields=["plan", "parent"]),
            # "Every node below X" is a prefix of the path: LIKE 'prefix%' on PostgreSQL needs
            # the pattern operator class (any collation); SQLite ignores it and reads a range.
            models.Index(
                fields=["path"], name="structure_node_path", opclasses=["text_pattern_ops"]
            ),
        ]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(kind__in=NodeKind.values), name="structure_node_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(quantity__isnull=True) | Q(quantity__gte=0),
                name="structure_node_quantity_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(install_year__isnull=True)
                | (Q(install_year__gte=MIN_YEAR) & Q(install_year__lte=MAX_YEAR)),
                name="structure_node_install_year_range",
            ),
            models.CheckConstraint(
                condition=~Q(parent=models.F("id")), name="structure_node_not_own_parent"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Project(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="projects")
    name = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    year = models.PositiveSmallIntegerField(validators=YEAR_VALIDATORS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("year", "name")
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(year__gte=MIN_YEAR) & Q(year__lte=MAX_YEAR), name="project_year_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.year})"


class ActionKind(models.TextChoices):
    INSPECTION = "inspection", "Inspection"
    REPAIR = "repair", "Repair"
    REPLACEMENT = "replacement", "Replacement"


class ActionStatus(models.TextChoices):
    PLANNED = "planned", "Planned"
    DONE = "done", "Done"
    CANCELLED = "cancelled", "Cancelled"


class Action(models.Model):
    """A planned maintenance measure on one structure node."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="actions")
    node = models.ForeignKey(StructureNode, on_delete=models.CASCADE, related_name="actions")
    title = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    kind = models.CharField(
        max_length=12, choices=ActionKind.choices, error_messages=choice_messages(ActionKind)
    )
    planned_year = models.PositiveSmallIntegerField(validators=YEAR_VALIDATORS)
    estimated_cost = models.DecimalField(
        max_digits=14, decimal_places=2, default=0, validators=NOT_NEGATIVE
    )
    status = models.CharField(
        max_length=10,
        choices=ActionStatus.choices,
        default=ActionStatus.PLANNED,
        error_messages=choice_messages(ActionStatus),
    )
    project = models.ForeignKey(
        Project, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("planned_year", "title")
        indexes: ClassVar = [models.Index(fields=["plan", "planned_year"])]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(kind__in=ActionKind.values), name="action_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=ActionStatus.values), name="action_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(planned_year__gte=MIN_YEAR) & Q(planned_year__lte=MAX_YEAR),
                name="action_planned_year_range",
            ),
            models.CheckConstraint(
                condition=Q(estimated_cost__gte=0), name="action_estimated_cost_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.title


class SuggestionType(models.TextChoices):
    MISSING_CODE = "missing_code", "Missing code"
    DEVIATION = "deviation", "Deviation"
    PROJECT_GROUPING = "project_grouping", "Project grouping"


class Severity(models.TextChoices):
    INFO = "info", "Info"
    WARNING = "warning", "Warning"
    CRITICAL = "critical", "Critical"


class SuggestionStatus(models.TextChoices):
    OPEN = "open", "Open"
    DISMISSED = "dismissed", "Dismissed"
    RESOLVED = "resolved", "Resolved"


class Resolution(models.TextChoices):
    APPLIED = "applied", "Applied"
    AUTO = "auto", "Resolved automatically"


class DismissReason(models.TextChoices):
    NOT_APPLICABLE = "not_applicable", "Not applicable"
    ACCEPTED = "accepted", "Accepted as is"
    PLANNED_ELSEWHERE = "planned_elsewhere", "Planned elsewhere"
    FALSE_POSITIVE = "false_positive", "False positive"


class Suggestion(models.Model):
    """A suggestion on a plan. `status`, `fingerprint` and the dismissal/resolution fields are
    internal: the API record carries none of them (spec 2.3)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(
        Plan, on_delete=models.CASCADE, related_name="suggestions", db_index=False
    )
    suggestion_type = models.CharField(max_length=20, choices=SuggestionType.choices)
    severity = models.CharField(max_length=10, choices=Severity.choices)
    title = models.CharField(max_length=300)
    body = models.TextField()
    structure_node = models.ForeignKey(
        StructureNode, on_delete=models.CASCADE, related_name="suggestions"
    )
    recommended_action_json = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(
        max_length=10, choices=SuggestionStatus.choices, default=SuggestionStatus.OPEN
    )
    fingerprint = models.CharField(max_length=200)
    updated_at = models.DateTimeField(default=timezone.now)
    dismissed_at = models.DateTimeField(null=True, blank=True)
    dismissed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="dismissed_suggestions",
    )
    dismiss_reason = models.CharField(max_length=20, choices=DismissReason.choices, blank=True)
    dismiss_comment = models.CharField(max_length=280, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=10, choices=Resolution.choices, blank=True)
    # The list order is severity (critical first), created_at, id; a stored rank lets one index
    # serve the order, the filters' counts and keyset pages.
    severity_rank = models.GeneratedField(
        expression=models.Case(
            models.When(severity=Severity.CRITICAL, then=0),
            models.When(severity=Severity.WARNING, then=1),
            default=2,
        ),
        output_field=models.PositiveSmallIntegerField(),
        db_persist=True,
    )

    class Meta:
        ordering = ("created_at", "id")
        # (plan, fingerprint) and the list order's index both lead with the plan, so the plan
        # column needs no index of its own: each index costs every sync's inserts.
        indexes: ClassVar = [
            models.Index(
                fields=["plan", "status", "severity_rank", "created_at", "id"],
                name="suggestion_list_order",
            ),
        ]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["plan", "fingerprint"], name="suggestion_plan_fingerprint_unique"
            ),
            models.CheckConstraint(
                condition=Q(suggestion_type__in=SuggestionType.values),
                name="suggestion_type_valid",
            ),
            models.CheckConstraint(
                condition=Q(severity__in=Severity.values), name="suggestion_severity_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=SuggestionStatus.values), name="suggestion_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.suggestion_type}: {self.title}"


class PlanChange(models.Model):
    """A change to a plan's nodes or actions, or to the code catalog, that the plan's next
    suggestion sync has not yet taken into account (docs/design.md "Sync" > "Incremental: the
    change log").

    Written only by the database triggers of migrations 0006 and 0010 and claimed by the sync
    (planning.suggestions.sync.changes). A node row carries the node's parent, kind, stored
    building and path before the change (`old_kind` null: the node is new); an action row its
    node and planned year, once as before and once as after the change. `plan_id` is no foreign
    key: a deleted plan's rows are written while its rows go, and `plan_delete` removes them
    (`changes_discard`).
    """

    id = models.BigAutoField(primary_key=True)
    plan_id = models.UUIDField(db_index=True)
    node_id = models.UUIDField(null=True)
    action_id = models.UUIDField(null=True)
    year = models.IntegerField(null=True)
    old_parent_id = models.UUIDField(null=True)
    old_kind = models.CharField(max_length=10, null=True)  # noqa: DJ001 - null means "new"
    old_building_id = models.UUIDField(null=True)
    old_path = models.TextField(null=True)  # noqa: DJ001 - null: a new node, or an action row
    catalog = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"change {self.pk} of plan {self.plan_id}"


class PlanImportStatus(models.TextChoices):
    QUEUED = "queued", "Waiting for a worker"
    CHECKING = "checking", "Checking rows"
    WRITING = "writing", "Writing the plan"
    SYNCING = "syncing", "Finding suggestions"
    DONE = "done", "Imported"
    REJECTED = "rejected", "Not imported: the file has problems"
    FAILED = "failed", "Not imported: an error on our side"


class PlanImportFormat(models.TextChoices):
    DOCUMENT = "document", "JSON plan file"
    CSV_PAIR = "csv_pair", "CSV pair"


class PlanImport(Leased):
    """An upload of the plan list, imported by a background job (planning.importers.jobs;
    docs/design.md "Imports").

    The uploaded bytes are kept here (the database is what every app server and worker share)
    until the job ends, then emptied. `idempotency_key` comes from the upload form: the same
    form sent twice is one import, and a job run again after a killed worker makes one plan,
    because the plan is written and linked here in one transaction. The running job holds the
    row's lease (jobs.leases); its progress lives in the cache; this row holds the outcome.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_imports"
    )
    idempotency_key = models.CharField(max_length=64)
    file_format = models.CharField(max_length=10, choices=PlanImportFormat.choices)
    filename = models.CharField(max_length=255)
    name = models.CharField(max_length=200, blank=True)
    content = models.BinaryField(default=b"")
    actions_content = models.BinaryField(default=b"")
    status = models.CharField(
        max_length=10, choices=PlanImportStatus.choices, default=PlanImportStatus.QUEUED
    )
    attempts = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list, blank=True)
    plan = models.ForeignKey(
        Plan, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)  # by the latest run of the job
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta(Leased.Meta):
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"], name="plan_import_once_per_key"
            )
        ]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in {
            PlanImportStatus.DONE,
            PlanImportStatus.REJECTED,
            PlanImportStatus.FAILED,
        }
