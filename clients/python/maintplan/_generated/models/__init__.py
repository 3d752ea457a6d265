"""Contains all the data models used in inputs/outputs"""

from .action import Action
from .action_body import ActionBody
from .action_complete_envelope import ActionCompleteEnvelope
from .action_delete_envelope import ActionDeleteEnvelope
from .action_envelope import ActionEnvelope
from .action_page import ActionPage
from .action_update_envelope import ActionUpdateEnvelope
from .actor import Actor
from .api_key_identity import ApiKeyIdentity
from .api_key_identity_organisation_type_0 import ApiKeyIdentityOrganisationType0
from .api_key_principal import ApiKeyPrincipal
from .api_key_session_envelope import ApiKeySessionEnvelope
from .api_key_session_key import ApiKeySessionKey
from .api_key_session_user import ApiKeySessionUser
from .apply_body import ApplyBody
from .assign_code_action import AssignCodeAction
from .assign_code_action_action_enum import AssignCodeActionActionEnum
from .check_api_key_session_body import CheckApiKeySessionBody
from .complete_body import CompleteBody
from .create_project_action import CreateProjectAction
from .create_project_action_action_enum import CreateProjectActionActionEnum
from .deleted import Deleted
from .delivery import Delivery
from .delivery_page import DeliveryPage
from .dismiss_body import DismissBody
from .error_envelope import ErrorEnvelope
from .error_envelope_data_type_0 import ErrorEnvelopeDataType0
from .error_envelope_data_type_0_errors import ErrorEnvelopeDataType0Errors
from .event import Event
from .event_actor import EventActor
from .event_change import EventChange
from .event_data_type_1 import EventDataType1
from .event_list_envelope import EventListEnvelope
from .event_page import EventPage
from .event_type_enum import EventTypeEnum
from .fci_band_enum import FciBandEnum
from .field_change import FieldChange
from .fix_enum import FixEnum
from .fund_settings import FundSettings
from .funding_flow import FundingFlow
from .funding_goal_enum import FundingGoalEnum
from .funding_goal_solution import FundingGoalSolution
from .funding_percent_at import FundingPercentAt
from .funding_scenario_settings import FundingScenarioSettings
from .funding_year import FundingYear
from .history_actor import HistoryActor
from .history_entry import HistoryEntry
from .history_entry_changes import HistoryEntryChanges
from .history_page import HistoryPage
from .key_figures import KeyFigures
from .kind_enum import KindEnum
from .list_events_type import ListEventsType
from .list_plan_actions_kind import ListPlanActionsKind
from .list_plan_actions_status import ListPlanActionsStatus
from .list_plan_history_entity import ListPlanHistoryEntity
from .list_plan_nodes_kind import ListPlanNodesKind
from .list_plan_suggestions_severity_item import ListPlanSuggestionsSeverityItem
from .list_plan_suggestions_suggestion_type_item import (
    ListPlanSuggestionsSuggestionTypeItem,
)
from .markup import Markup
from .money_settings import MoneySettings
from .move_actions import MoveActions
from .move_actions_action_enum import MoveActionsActionEnum
from .node import Node
from .node_page import NodePage
from .organisation import Organisation
from .other_recommended_action import OtherRecommendedAction
from .patched_action_body import PatchedActionBody
from .patched_webhook_update import PatchedWebhookUpdate
from .plan_action import PlanAction
from .plan_action_action_enum import PlanActionActionEnum
from .plan_actions_envelope import PlanActionsEnvelope
from .plan_data_change import PlanDataChange
from .plan_data_change_fields import PlanDataChangeFields
from .plan_data_changed_data import PlanDataChangedData
from .plan_detail import PlanDetail
from .plan_envelope import PlanEnvelope
from .plan_fund import PlanFund
from .plan_funding import PlanFunding
from .plan_funding_envelope import PlanFundingEnvelope
from .plan_funding_scenario import PlanFundingScenario
from .plan_history_envelope import PlanHistoryEnvelope
from .plan_item import PlanItem
from .plan_list_envelope import PlanListEnvelope
from .plan_nodes_envelope import PlanNodesEnvelope
from .plan_page import PlanPage
from .plan_projects_envelope import PlanProjectsEnvelope
from .plan_version_actions_envelope import PlanVersionActionsEnvelope
from .plan_version_list_envelope import PlanVersionListEnvelope
from .portfolio_envelope import PortfolioEnvelope
from .portfolio_page import PortfolioPage
from .portfolio_plan import PortfolioPlan
from .portfolio_total import PortfolioTotal
from .project import Project
from .project_page import ProjectPage
from .reason_enum import ReasonEnum
from .redeliver_webhook_delivery_body import RedeliverWebhookDeliveryBody
from .restore_suggestion_body import RestoreSuggestionBody
from .review_action import ReviewAction
from .review_action_action_enum import ReviewActionActionEnum
from .review_action_cost_reference import ReviewActionCostReference
from .review_action_timing_reference import ReviewActionTimingReference
from .review_filter import ReviewFilter
from .rotate_webhook_secret_body import RotateWebhookSecretBody
from .send_webhook_test_body import SendWebhookTestBody
from .severity_enum import SeverityEnum
from .status_enum import StatusEnum
from .suggestion import Suggestion
from .suggestion_act_envelope import SuggestionActEnvelope
from .suggestion_apply_envelope import SuggestionApplyEnvelope
from .suggestion_change_enum import SuggestionChangeEnum
from .suggestion_list import SuggestionList
from .suggestion_list_envelope import SuggestionListEnvelope
from .suggestion_restore_envelope import SuggestionRestoreEnvelope
from .suggestion_type_enum import SuggestionTypeEnum
from .suggestion_with_status import SuggestionWithStatus
from .suggestions_bulk_changed_data import SuggestionsBulkChangedData
from .suggestions_bulk_changed_data_counts import SuggestionsBulkChangedDataCounts
from .suggestions_bulk_changed_data_open_by_severity import (
    SuggestionsBulkChangedDataOpenBySeverity,
)
from .suggestions_bulk_changed_data_open_by_type import (
    SuggestionsBulkChangedDataOpenByType,
)
from .suggestions_changed_data import SuggestionsChangedData
from .version import Version
from .version_action import VersionAction
from .version_action_page import VersionActionPage
from .version_list import VersionList
from .webhook_create import WebhookCreate
from .webhook_created_envelope import WebhookCreatedEnvelope
from .webhook_deleted import WebhookDeleted
from .webhook_deleted_envelope import WebhookDeletedEnvelope
from .webhook_deliveries_envelope import WebhookDeliveriesEnvelope
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_with_secret import WebhookEndpointWithSecret
from .webhook_envelope import WebhookEnvelope
from .webhook_page import WebhookPage
from .webhook_redeliver_envelope import WebhookRedeliverEnvelope
from .webhook_rotated_envelope import WebhookRotatedEnvelope
from .webhook_test import WebhookTest
from .webhook_test_envelope import WebhookTestEnvelope
from .webhook_updated_envelope import WebhookUpdatedEnvelope
from .webhooks_envelope import WebhooksEnvelope

__all__ = (
    "Action",
    "ActionBody",
    "ActionCompleteEnvelope",
    "ActionDeleteEnvelope",
    "ActionEnvelope",
    "ActionPage",
    "ActionUpdateEnvelope",
    "Actor",
    "ApiKeyIdentity",
    "ApiKeyIdentityOrganisationType0",
    "ApiKeyPrincipal",
    "ApiKeySessionEnvelope",
    "ApiKeySessionKey",
    "ApiKeySessionUser",
    "ApplyBody",
    "AssignCodeAction",
    "AssignCodeActionActionEnum",
    "CheckApiKeySessionBody",
    "CompleteBody",
    "CreateProjectAction",
    "CreateProjectActionActionEnum",
    "Deleted",
    "Delivery",
    "DeliveryPage",
    "DismissBody",
    "ErrorEnvelope",
    "ErrorEnvelopeDataType0",
    "ErrorEnvelopeDataType0Errors",
    "Event",
    "EventActor",
    "EventChange",
    "EventDataType1",
    "EventListEnvelope",
    "EventPage",
    "EventTypeEnum",
    "FciBandEnum",
    "FieldChange",
    "FixEnum",
    "FundSettings",
    "FundingFlow",
    "FundingGoalEnum",
    "FundingGoalSolution",
    "FundingPercentAt",
    "FundingScenarioSettings",
    "FundingYear",
    "HistoryActor",
    "HistoryEntry",
    "HistoryEntryChanges",
    "HistoryPage",
    "KeyFigures",
    "KindEnum",
    "ListEventsType",
    "ListPlanActionsKind",
    "ListPlanActionsStatus",
    "ListPlanHistoryEntity",
    "ListPlanNodesKind",
    "ListPlanSuggestionsSeverityItem",
    "ListPlanSuggestionsSuggestionTypeItem",
    "Markup",
    "MoneySettings",
    "MoveActions",
    "MoveActionsActionEnum",
    "Node",
    "NodePage",
    "Organisation",
    "OtherRecommendedAction",
    "PatchedActionBody",
    "PatchedWebhookUpdate",
    "PlanAction",
    "PlanActionActionEnum",
    "PlanActionsEnvelope",
    "PlanDataChange",
    "PlanDataChangeFields",
    "PlanDataChangedData",
    "PlanDetail",
    "PlanEnvelope",
    "PlanFund",
    "PlanFunding",
    "PlanFundingEnvelope",
    "PlanFundingScenario",
    "PlanHistoryEnvelope",
    "PlanItem",
    "PlanListEnvelope",
    "PlanNodesEnvelope",
    "PlanPage",
    "PlanProjectsEnvelope",
    "PlanVersionActionsEnvelope",
    "PlanVersionListEnvelope",
    "PortfolioEnvelope",
    "PortfolioPage",
    "PortfolioPlan",
    "PortfolioTotal",
    "Project",
    "ProjectPage",
    "ReasonEnum",
    "RedeliverWebhookDeliveryBody",
    "RestoreSuggestionBody",
    "ReviewAction",
    "ReviewActionActionEnum",
    "ReviewActionCostReference",
    "ReviewActionTimingReference",
    "ReviewFilter",
    "RotateWebhookSecretBody",
    "SendWebhookTestBody",
    "SeverityEnum",
    "StatusEnum",
    "Suggestion",
    "SuggestionActEnvelope",
    "SuggestionApplyEnvelope",
    "SuggestionChangeEnum",
    "SuggestionList",
    "SuggestionListEnvelope",
    "SuggestionRestoreEnvelope",
    "SuggestionTypeEnum",
    "SuggestionWithStatus",
    "SuggestionsBulkChangedData",
    "SuggestionsBulkChangedDataCounts",
    "SuggestionsBulkChangedDataOpenBySeverity",
    "SuggestionsBulkChangedDataOpenByType",
    "SuggestionsChangedData",
    "Version",
    "VersionAction",
    "VersionActionPage",
    "VersionList",
    "WebhookCreate",
    "WebhookCreatedEnvelope",
    "WebhookDeleted",
    "WebhookDeletedEnvelope",
    "WebhookDeliveriesEnvelope",
    "WebhookEndpoint",
    "WebhookEndpointWithSecret",
    "WebhookEnvelope",
    "WebhookPage",
    "WebhookRedeliverEnvelope",
    "WebhookRotatedEnvelope",
    "WebhookTest",
    "WebhookTestEnvelope",
    "WebhookUpdatedEnvelope",
    "WebhooksEnvelope",
)
