"""The planning domain: plans, their structure tree, the code catalog, actions, projects and
suggestions. Invariants that a row can check on its own live in the database as constraints;
cross-row rules (a node's parent in the same plan, no cycles) are enforced by the services.

The field rules (lengths, year ranges, non-negative amounts, choices, no blank names) are
written once, in planning.models.fields, as field options and validators: services run them
with ``full_clean()``, the forms are ModelForms, and the importer turns the same
ValidationErrors into its problem list, so every way in refuses a bad value with the same
message. The models live in one module per part of the domain; import them from here.
"""

from planning.models.actions import (
    Action,
    ActionKind,
    ActionStatus,
    Completion,
    Project,
)
from planning.models.changes import PlanChange
from planning.models.fields import (
    CENT,
    EARLIEST_DATE,
    INTERVAL_RANGE,
    INTERVAL_VALIDATORS,
    MAX_PLAN_NUMBER,
    MAX_YEAR,
    MIN_YEAR,
    NAME_VALIDATORS,
    NOT_NEGATIVE,
    PAST_DATE_VALIDATORS,
    PLANNED_YEAR_VALIDATORS,
    YEAR_VALIDATORS,
    choice_messages,
    planned_year_first,
    planned_year_last,
    this_year,
    today,
    validate_not_blank,
)
from planning.models.history import (
    HistoryActorKind,
    HistoryContext,
    HistoryEntity,
    HistoryEntry,
    HistoryOperation,
)
from planning.models.imports import PlanImport, PlanImportFormat, PlanImportStatus
from planning.models.plans import (
    CURRENCY_VALIDATORS,
    INDEX_RATE_RANGE,
    MARKUP_NAME_MAX,
    MARKUP_RANGE,
    MARKUPS_MAX,
    Plan,
    PlanMembership,
    PlanNumberCounter,
    PlanRole,
    plan_currency_default,
)
from planning.models.receipts import SurveyPhotoReceipt
from planning.models.reports import PlanReport, PlanReportStatus
from planning.models.structure import (
    BUILDING_FIELDS,
    COMPONENT_FIELDS,
    CONDITION_FILTERS,
    CONSEQUENCE_MESSAGE,
    GRADE_MESSAGE,
    CatalogChange,
    Code,
    CodeOverride,
    ConditionConsequence,
    ConditionGrade,
    NodeKind,
    OrganisationCatalog,
    StructureNode,
    condition_q,
)
from planning.models.suggestions import (
    DismissReason,
    Resolution,
    Severity,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.models.surveys import (
    SURVEY_NOTE_MAX,
    Attachment,
    AttachmentKind,
    ConditionSurvey,
)
from planning.models.versions import PlanVersion, VersionAction, VersionNode, VersionProject

__all__ = [
    "BUILDING_FIELDS",
    "CENT",
    "COMPONENT_FIELDS",
    "CONDITION_FILTERS",
    "CONSEQUENCE_MESSAGE",
    "CURRENCY_VALIDATORS",
    "EARLIEST_DATE",
    "GRADE_MESSAGE",
    "INDEX_RATE_RANGE",
    "INTERVAL_RANGE",
    "INTERVAL_VALIDATORS",
    "MARKUPS_MAX",
    "MARKUP_NAME_MAX",
    "MARKUP_RANGE",
    "MAX_PLAN_NUMBER",
    "MAX_YEAR",
    "MIN_YEAR",
    "NAME_VALIDATORS",
    "NOT_NEGATIVE",
    "PAST_DATE_VALIDATORS",
    "PLANNED_YEAR_VALIDATORS",
    "SURVEY_NOTE_MAX",
    "YEAR_VALIDATORS",
    "Action",
    "ActionKind",
    "ActionStatus",
    "Attachment",
    "AttachmentKind",
    "CatalogChange",
    "Code",
    "CodeOverride",
    "Completion",
    "ConditionConsequence",
    "ConditionGrade",
    "ConditionSurvey",
    "DismissReason",
    "HistoryActorKind",
    "HistoryContext",
    "HistoryEntity",
    "HistoryEntry",
    "HistoryOperation",
    "NodeKind",
    "OrganisationCatalog",
    "Plan",
    "PlanChange",
    "PlanImport",
    "PlanImportFormat",
    "PlanImportStatus",
    "PlanMembership",
    "PlanNumberCounter",
    "PlanReport",
    "PlanReportStatus",
    "PlanRole",
    "PlanVersion",
    "Project",
    "Resolution",
    "Severity",
    "StructureNode",
    "Suggestion",
    "SuggestionStatus",
    "SuggestionType",
    "SurveyPhotoReceipt",
    "VersionAction",
    "VersionNode",
    "VersionProject",
    "choice_messages",
    "condition_q",
    "plan_currency_default",
    "planned_year_first",
    "planned_year_last",
    "this_year",
    "today",
    "validate_not_blank",
]
