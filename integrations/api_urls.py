from __future__ import annotations

from django.urls import path

from integrations import api, history_api, suggestions_api

urlpatterns = [
    path(
        "auth/session/api-key",
        api.ApiKeySessionCheckApi.as_view(),
        name="api-session-api-key",
    ),
    path(
        "platform/plans/<str:planNumber>/suggestions",
        suggestions_api.PlanSuggestionListApi.as_view(),
        name="api-plan-suggestions",
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
