"""The code catalog and a plan's structure tree
(docs/subsystems/structure-tree.md "Structure tree")."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from planning.models.fields import (
    INTERVAL_RANGE,
    INTERVAL_VALIDATORS,
    MAX_YEAR,
    MIN_YEAR,
    NAME_VALIDATORS,
    NOT_NEGATIVE,
    YEAR_VALIDATORS,
    choice_messages,
)
from planning.models.plans import CURRENCY_VALIDATORS, Plan


def _interval_in_range(prefix: str = "") -> Q:
    low, high = INTERVAL_RANGE
    return Q(**{f"{prefix}interval_years__isnull": True}) | Q(
        **{f"{prefix}interval_years__gte": low, f"{prefix}interval_years__lte": high}
    )


class Code(models.Model):
    """A classification code of the catalog (docs/subsystems/code-catalog.md "Code catalog"): a
    starter code (`organisation` null) is shared by every plan; an organisation's own code is
    seen by its plans only. What the rules read of a code is its organisation's effective catalog
    (planning.plans.selectors.catalog_codes): an organisation's CodeOverride replaces a starter
    code's figures for its plans."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organisation = models.ForeignKey(
        "organisations.Organisation",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="codes",
        help_text="Empty: a starter code, shared by every plan.",
    )
    code = models.CharField(max_length=20, validators=NAME_VALIDATORS)
    name = models.CharField(max_length=200, validators=NAME_VALIDATORS)
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
    interval_years = models.PositiveSmallIntegerField(
        "interval (years)",
        null=True,
        blank=True,
        validators=INTERVAL_VALIDATORS,
        help_text="How often the component needs its recurring maintenance.",
    )
    keywords = models.TextField(blank=True, help_text="Comma-separated words used for matching")
    is_default = models.BooleanField(
        default=False, help_text="Part of the starter catalog shipped with Maintplan"
    )

    class Meta:
        ordering = ("code",)
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["code"],
                condition=Q(organisation__isnull=True),
                name="code_starter_code_unique",
            ),
            models.UniqueConstraint(
                fields=["organisation", "code"],
                condition=Q(organisation__isnull=False),
                name="code_own_code_unique",
            ),
            models.CheckConstraint(
                condition=Q(unit_cost__isnull=True) | Q(unit_cost__gte=0),
                name="code_unit_cost_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(service_life_years__isnull=True) | Q(service_life_years__gte=1),
                name="code_service_life_positive",
            ),
            models.CheckConstraint(condition=_interval_in_range(), name="code_interval_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class CodeOverride(models.Model):
    """An organisation's own figures for a starter code, for its plans; an empty figure keeps
    the starter's."""

    id = models.BigAutoField(primary_key=True)
    organisation = models.ForeignKey(
        "organisations.Organisation", on_delete=models.CASCADE, related_name="code_overrides"
    )
    code = models.ForeignKey(Code, on_delete=models.CASCADE, related_name="overrides")
    unit_cost = models.DecimalField(
        max_digits=12, decimal_places=2, null=True, blank=True, validators=NOT_NEGATIVE
    )
    service_life_years = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)]
    )
    interval_years = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=INTERVAL_VALIDATORS
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["organisation", "code"], name="code_override_one_per_organisation"
            ),
            models.CheckConstraint(
                condition=Q(unit_cost__isnull=True) | Q(unit_cost__gte=0),
                name="code_override_unit_cost_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(service_life_years__isnull=True) | Q(service_life_years__gte=1),
                name="code_override_service_life_positive",
            ),
            models.CheckConstraint(
                condition=_interval_in_range(), name="code_override_interval_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"override of {self.code_id} for {self.organisation_id}"


class OrganisationCatalog(models.Model):
    """What an organisation's catalog holds as a whole: the currency of its own figures (its
    overrides and its own codes); a starter code's own figures are always in STARTER_CURRENCY
    (docs/subsystems/code-catalog.md "Currency"). Made with the organisation
    (planning.catalog.services.organisation_catalog_create); one without a row (made around
    the ORM) reads `catalog_currency_default()`."""

    organisation = models.OneToOneField(
        "organisations.Organisation",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="catalog",
    )
    currency = models.CharField(
        max_length=3,
        validators=CURRENCY_VALIDATORS,
        help_text="ISO 4217 code of the organisation's own figures, e.g. EUR, SEK.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"catalog of {self.organisation_id} in {self.currency}"


class CatalogChange(models.Model):
    """One change of an organisation's catalog (an own code added, changed or deleted, an
    override set or removed, an import, a learned reference used): its history, shown on the
    catalog page. `changes` maps each field to [before, after]."""

    id = models.BigAutoField(primary_key=True)
    organisation = models.ForeignKey(
        "organisations.Organisation", on_delete=models.CASCADE, related_name="catalog_changes"
    )
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    code = models.CharField(max_length=20)
    summary = models.CharField(max_length=300)
    changes = models.JSONField(default=dict)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["organisation", "-id"], name="catalog_change_newest")
        ]

    def __str__(self) -> str:
        return self.summary


class NodeKind(models.TextChoices):
    SITE = "site", "Site"
    BUILDING = "building", "Building"
    SYSTEM = "system", "System"
    COMPONENT = "component", "Component"


class ConditionGrade(models.IntegerChoices):
    """A component's condition (docs/subsystems/domain.md "The tables")."""

    NO_SYMPTOMS = 0, "0: no symptoms"
    MINOR = 1, "1: minor symptoms"
    MODERATE = 2, "2: moderate symptoms"
    SEVERE = 3, "3: severe symptoms"


class ConditionConsequence(models.IntegerChoices):
    """What a component's failure would cost (NS 3424's consequence grade), beside its condition
    (docs/subsystems/surveys-and-files.md "Condition surveys")."""

    NONE = 0, "0: none"
    SMALL = 1, "1: small"
    MEDIUM = 2, "2: medium"
    LARGE = 3, "3: large"


CONSEQUENCE_MESSAGE = "Enter a consequence grade from 0 to 3."
GRADE_MESSAGE = "Enter a condition grade from 0 to 3."


# The condition filters of the Structure and Actions tabs (value: label, the grades it keeps;
# None keeps the components not assessed).
CONDITION_FILTERS: dict[str, tuple[str, tuple[int, ...] | None]] = {
    "3": ("Severe (3)", (3,)),
    "2+": ("Moderate or worse (2-3)", (2, 3)),
    "1+": ("Minor or worse (1-3)", (1, 2, 3)),
    "0": ("No symptoms (0)", (0,)),
    "none": ("Not assessed", None),
}


def condition_q(value: str, *, node: str = "") -> models.Q:
    """The nodes (or, with `node` = "node__", the actions on nodes) a condition filter keeps;
    every node for an unknown value."""
    if value not in CONDITION_FILTERS:
        return models.Q()
    grades = CONDITION_FILTERS[value][1]
    if grades is None:
        return models.Q(
            **{f"{node}kind": NodeKind.COMPONENT, f"{node}condition_grade__isnull": True}
        )
    return models.Q(**{f"{node}condition_grade__in": grades})


_AREA_MESSAGE = "Enter a floor area above 0 m²."
_REPLACEMENT_VALUE_MESSAGE = "Enter a replacement value above 0."
# Which kind of node may carry which of the building and component fields.
BUILDING_FIELDS = ("address", "gross_floor_area_m2", "year_built", "replacement_value")
COMPONENT_FIELDS = ("condition_grade", "condition_assessed_on", "condition_consequence")


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
    # The node's `ref` in the plan file it was imported from (docs/subsystems/imports.md "Refs are
    # kept"): a plan's export names each node by it, so an export re-imports to the same file. Empty
    # for a node made on the pages (the export then names it by its id).
    ref = models.CharField(max_length=200, blank=True, default="", db_default="", editable=False)
    # A building's data (the key figures divide by its area: docs/subsystems/figures.md "Key
    # figures").
    address = models.CharField(max_length=300, blank=True, default="", db_default="")
    gross_floor_area_m2 = models.DecimalField(
        "gross floor area (m²)",
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"), message=_AREA_MESSAGE)],
    )
    year_built = models.PositiveSmallIntegerField(null=True, blank=True, validators=YEAR_VALIDATORS)
    # What building it again would cost today, in the plan's currency: the facility condition
    # index divides by it (docs/subsystems/portfolio.md "Facility condition index"); empty, the
    # area times the organisation's value per m2 stands in.
    replacement_value = models.DecimalField(
        "replacement value",
        max_digits=14,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"), message=_REPLACEMENT_VALUE_MESSAGE)],
    )
    # A component's current condition: the latest of its surveys (planning.models.surveys),
    # kept here by planning.plans.services.surveys so the rules, imports, exports and the API
    # read one row (docs/subsystems/surveys-and-files.md "Condition surveys").
    condition_grade = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        choices=ConditionGrade.choices,
        validators=[MaxValueValidator(3, message=GRADE_MESSAGE)],
        error_messages={"invalid_choice": GRADE_MESSAGE},
    )
    condition_assessed_on = models.DateField("condition assessed on", null=True, blank=True)
    condition_consequence = models.PositiveSmallIntegerField(
        "consequence grade",
        null=True,
        blank=True,
        choices=ConditionConsequence.choices,
        validators=[MaxValueValidator(3, message=CONSEQUENCE_MESSAGE)],
        error_messages={"invalid_choice": CONSEQUENCE_MESSAGE},
    )
    # Stored facts of the tree, written only by planning.tree (docs/subsystems/structure-tree.md
    # "Structure tree"): the ancestors' ids, root first ("<hex id>/" each; "" for a root), and the
    # building the node is in (itself if a building, else its nearest building ancestor, else none).
    path = models.TextField(default="", db_default="", blank=True, editable=False)
    building = models.ForeignKey(
        "self", null=True, blank=True, editable=False, on_delete=models.CASCADE, related_name="+"
    )
    # When the node as the API shows it last changed (its own fields, or its path and building
    # when an ancestor moved): the nodes list's `updated_since` (platform_api.endpoints.records).
    # `save(update_fields=...)` and `QuerySet.update()` set it only when named, so every write
    # of the app names it (docs/subsystems/integrator-api.md "Incremental reads").
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        indexes: ClassVar = [
            models.Index(fields=["plan", "parent"]),
            models.Index(fields=["plan", "updated_at"], name="structure_node_plan_updated"),
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
            models.UniqueConstraint(
                fields=["plan", "ref"], condition=~Q(ref=""), name="structure_node_ref_unique"
            ),
            models.CheckConstraint(
                condition=Q(gross_floor_area_m2__isnull=True) | Q(gross_floor_area_m2__gt=0),
                name="structure_node_floor_area_positive",
            ),
            models.CheckConstraint(
                condition=Q(replacement_value__isnull=True) | Q(replacement_value__gt=0),
                name="structure_node_replacement_value_positive",
            ),
            models.CheckConstraint(
                condition=Q(year_built__isnull=True)
                | (Q(year_built__gte=MIN_YEAR) & Q(year_built__lte=MAX_YEAR)),
                name="structure_node_year_built_range",
            ),
            models.CheckConstraint(
                condition=Q(condition_grade__isnull=True) | Q(condition_grade__lte=3),
                name="structure_node_condition_grade_range",
            ),
            models.CheckConstraint(
                condition=Q(condition_consequence__isnull=True) | Q(condition_consequence__lte=3),
                name="structure_node_condition_consequence_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def condition_risk(self) -> int | None:
        """Grade x consequence (0-9), when both are known."""
        if self.condition_grade is None or self.condition_consequence is None:
            return None
        return self.condition_grade * self.condition_consequence

    def clean(self) -> None:
        """Building data only on a building, a condition only on a component."""
        errors: dict[str, str] = {}
        if self.kind not in NodeKind.values:  # the kind's own message says what is wrong
            return
        for fields, kind, what in (
            (BUILDING_FIELDS, NodeKind.BUILDING, "a building"),
            (COMPONENT_FIELDS, NodeKind.COMPONENT, "a component"),
        ):
            if self.kind == kind:
                continue
            for name in fields:
                if getattr(self, name) not in (None, ""):
                    label = str(getattr(StructureNode._meta.get_field(name), "verbose_name", name))
                    article = "an" if label[0] in "aeiou" else "a"
                    errors[name] = (
                        f"Only {what} has {article} {label}; clear it for a {self.kind} node."
                    )
        if errors:
            raise ValidationError(errors)
