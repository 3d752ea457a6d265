from __future__ import annotations

from django.urls import path

from platform_api.endpoints import (
    actions,
    acts,
    events,
    funding,
    history,
    plans,
    portfolio,
    records,
    session,
    suggestions,
)

urlpatterns = [
    path(
        "auth/session/api-key",
        session.ApiKeySessionCheckApi.as_view(),
        name="api-session-api-key",
    ),
    path("platform/events", events.EventListApi.as_view(), name="api-events"),
    path("platform/plans", plans.PlanListApi.as_view(), name="api-plans"),
    path("platform/portfolio", portfolio.PortfolioApi.as_view(), name="api-portfolio"),
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
        actions.PlanActionsApi.as_view(),
        name="api-plan-actions",
    ),
    path(
        "platform/plans/<str:planNumber>/actions/<str:actionId>",
        actions.PlanActionApi.as_view(),
        name="api-plan-action",
    ),
    path(
        "platform/plans/<str:planNumber>/actions/<str:actionId>/complete",
        actions.PlanActionCompleteApi.as_view(),
        name="api-plan-action-complete",
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
        "platform/plans/<str:planNumber>/suggestions/<str:suggestionId>/apply",
        acts.SuggestionApplyApi.as_view(),
        name="api-suggestion-apply",
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
