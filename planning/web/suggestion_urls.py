"""Included by planning/web/urls.py under /plans/<int:number>/planning/ (namespace "planning")."""

from __future__ import annotations

from django.urls import path

from planning.web.views import suggestions as views

urlpatterns = [
    path("", views.action_planning, name="action_planning"),
    path(
        "buildings/<uuid:node_id>/rows/",
        views.building_rows,
        name="planning_building_rows",
    ),
    path("dismissed/", views.dismissed_list, name="suggestions_dismissed"),
    path("key-figures/", views.key_figures_list, name="key_figures"),
    path("suggestions/dismiss/", views.suggestions_dismiss_view, name="suggestions_dismiss"),
    path(
        "suggestions/<uuid:suggestion_id>/apply/",
        views.suggestion_apply,
        name="suggestion_apply",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/apply/undo/",
        views.suggestion_fix_undo_view,
        name="suggestion_fix_undo",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/dismiss/",
        views.suggestion_dismiss_view,
        name="suggestion_dismiss",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/restore/",
        views.suggestion_restore_view,
        name="suggestion_restore",
    ),
]
