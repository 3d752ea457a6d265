"""Included by planning/urls.py under /plans/<int:number>/planning/ (namespace "planning")."""

from __future__ import annotations

from django.urls import path

from planning.suggestions import views

urlpatterns = [
    path("", views.action_planning, name="action_planning"),
    path(
        "suggestions/<uuid:suggestion_id>/apply/",
        views.suggestion_apply,
        name="suggestion_apply",
    ),
    path(
        "suggestions/<uuid:suggestion_id>/dismiss/",
        views.suggestion_dismiss_view,
        name="suggestion_dismiss",
    ),
]
