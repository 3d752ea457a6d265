from __future__ import annotations

from django.urls import path

from integrations import (
    acts,
    api,
    events_api,
    history_api,
    plan_records_api,
    platform_api,
    suggestions_api,
)

urlpatterns = [
    path(
        "auth/session/api-key",
        api.ApiKeySessionCheckApi.as_view(),
        name="api-session-api-key",
    ),
    path("platform/events", events_api.EventListApi.as_view(), name="api-events"),
    path("platform/plans", platform_api.PlanListApi.as_view(), name="api-plans"),
    path(
        "platform/plans/<str:planNumber>",
        platform_api.PlanDetailApi.as_view(),
        name="api-plan",
    ),
    path(
        "platform/plans/<str:planNumber>/nodes",
        plan_records_api.PlanNodeListApi.as_view(),
        name="api-plan-nodes",
    ),
    path(
        "platform/plans/<str:planNumber>/actions",
        plan_records_api.PlanActionListApi.as_view(),
        name="api-plan-actions",
    ),
    path(
        "platform/plans/<str:planNumber>/projects",
        plan_records_api.PlanProjectListApi.as_view(),
        name="api-plan-projects",
    ),
    path(
        "platform/plans/<str:planNumber>/suggestions",
        suggestions_api.PlanSuggestionListApi.as_view(),
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
        "platform/plans/<str:planNumber>/history",
        history_api.PlanHistoryApi.as_view(),
        name="api-plan-history",
    ),
    path(
        "platform/plans/<str:planNumber>/versions",
        history_api.PlanVersionListApi.as_view(),
        name="api-plan-versions",
    ),
    path(
        "platform/plans/<str:planNumber>/versions/<str:versionId>/actions",
        history_api.PlanVersionActionsApi.as_view(),
        name="api-plan-version-actions",
    ),
]
