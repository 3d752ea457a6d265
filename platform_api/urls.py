from __future__ import annotations

from django.urls import path

from platform_api.endpoints import (
    acts,
    events,
    funding,
    history,
    plans,
    records,
    session,
    suggestions,
    webhook_deliveries,
    webhooks,
)

urlpatterns = [
    path(
        "auth/session/api-key",
        session.ApiKeySessionCheckApi.as_view(),
        name="api-session-api-key",
    ),
    path("platform/events", events.EventListApi.as_view(), name="api-events"),
    path("platform/plans", plans.PlanListApi.as_view(), name="api-plans"),
    path("platform/webhooks", webhooks.WebhookListApi.as_view(), name="api-webhooks"),
    path(
        "platform/webhooks/<str:webhookId>",
        webhooks.WebhookDetailApi.as_view(),
        name="api-webhook",
    ),
    path(
        "platform/webhooks/<str:webhookId>/rotate-secret",
        webhooks.WebhookRotateSecretApi.as_view(),
        name="api-webhook-rotate-secret",
    ),
    path(
        "platform/webhooks/<str:webhookId>/test",
        webhooks.WebhookTestApi.as_view(),
        name="api-webhook-test",
    ),
    path(
        "platform/webhooks/<str:webhookId>/deliveries",
        webhook_deliveries.WebhookDeliveryListApi.as_view(),
        name="api-webhook-deliveries",
    ),
    path(
        "platform/webhooks/<str:webhookId>/deliveries/<str:deliveryId>/redeliver",
        webhook_deliveries.WebhookRedeliverApi.as_view(),
        name="api-webhook-redeliver",
    ),
    path(
        "platform/plans/<str:planNumber>",
        plans.PlanDetailApi.as_view(),
        name="api-plan",
    ),
    path(
        "platform/plans/<str:planNumber>/nodes",
        records.PlanNodeListApi.as_view(),
        name="api-plan-nodes",
    ),
    path(
        "platform/plans/<str:planNumber>/actions",
        records.PlanActionListApi.as_view(),
        name="api-plan-actions",
    ),
    path(
        "platform/plans/<str:planNumber>/projects",
        records.PlanProjectListApi.as_view(),
        name="api-plan-projects",
    ),
    path(
        "platform/plans/<str:planNumber>/suggestions",
        suggestions.PlanSuggestionListApi.as_view(),
        name="api-plan-suggestions",
    ),
    path(
        "platform/plans/<str:planNumber>/suggestions/<str:suggestionId>/dismiss",
        acts.SuggestionDismissApi.as_view(),
        name="api-suggestion-dismiss",
    ),
    path(
        "platform/plans/<str:planNumber>/suggestions/<str:suggestionId>/restore",
        acts.SuggestionRestoreApi.as_view(),
        name="api-suggestion-restore",
    ),
    path(
        "platform/plans/<str:planNumber>/funding",
        funding.PlanFundingApi.as_view(),
        name="api-plan-funding",
    ),
    path(
        "platform/plans/<str:planNumber>/history",
        history.PlanHistoryApi.as_view(),
        name="api-plan-history",
    ),
    path(
        "platform/plans/<str:planNumber>/versions",
        history.PlanVersionListApi.as_view(),
        name="api-plan-versions",
    ),
    path(
        "platform/plans/<str:planNumber>/versions/<str:versionId>/actions",
        history.PlanVersionActionsApi.as_view(),
        name="api-plan-version-actions",
    ),
]
