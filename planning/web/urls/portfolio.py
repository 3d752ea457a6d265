"""The organisation's portfolio (planning.web.views.portfolio), under its organisation
(namespace "portfolio")."""

from __future__ import annotations

from django.urls import path

from planning.web.views import portfolio

app_name = "portfolio"

urlpatterns = [
    path("organisations/<slug:slug>/portfolio/", portfolio.portfolio_page, name="portfolio"),
    path(
        "organisations/<slug:slug>/portfolio.<str:fmt>",
        portfolio.portfolio_download,
        name="download",
    ),
]
