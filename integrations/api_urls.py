from __future__ import annotations

from django.urls import path

from integrations import api, suggestions_api

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
]
