"""The action-planning page and its suggestions' actions, included by planning.web.urls.plans under
/plans/<int:number>/planning/ (namespace "planning")."""

from __future__ import annotations

from django.urls import path

from planning.web.views import action_planning, suggestions

urlpatterns = [
    path("", action_planning.action_planning, name="action_planning"),
    path(
        "buildings/<uuid:node_id>/rows/",
        action_planning.building_rows,
        name="planning_building_rows",
    ),
    path("dismissed/", suggestions.dismissed_list, name="suggestions_dismissed"),
    path("key-figures/", action_planning.key_figures_list, name="key_figures"),
    path("suggestions/dismiss/", suggestions.suggestions_dismiss_view, name="suggestions_dismiss"),
    path(
        "suggestions/dismiss/undo/",
        suggestions.suggestions_dismiss_undo_view,
        name="suggestions_dismiss_undo",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/apply/",
        suggestions.suggestion_apply,
        name="suggestion_apply",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/apply/undo/",
        suggestions.suggestion_fix_undo_view,
        name="suggestion_fix_undo",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/dismiss/",
        suggestions.suggestion_dismiss_view,
        name="suggestion_dismiss",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/restore/",
        suggestions.suggestion_restore_view,
        name="suggestion_restore",
    ),
]
