from __future__ import annotations

from django.urls import path

from planning.suggestions.api import PlanSuggestionListApi

urlpatterns = [
    path(
        "platform/plans/<str:planNumber>/suggestions",
        PlanSuggestionListApi.as_view(),
        name="api-plan-suggestions",
    ),
]
