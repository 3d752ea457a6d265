"""The organisation's catalog pages (planning.web.views.catalog), under its organisation
(namespace "catalog")."""

from __future__ import annotations

from django.urls import path

from planning.web.views import catalog

app_name = "catalog"

urlpatterns = [
    path("organisations/<slug:slug>/catalog/", catalog.catalog_page, name="catalog"),
    path("organisations/<slug:slug>/catalog/import/", catalog.catalog_upload, name="upload"),
    path(
        "organisations/<slug:slug>/catalog/currency/",
        catalog.catalog_currency_change,
        name="currency",
    ),
    path(
        "organisations/<slug:slug>/catalog/value-per-m2/",
        catalog.catalog_value_per_m2,
        name="value_per_m2",
    ),
    path("organisations/<slug:slug>/catalog/learned/", catalog.catalog_learned, name="learned"),
    path(
        "organisations/<slug:slug>/catalog/learned/<uuid:code_id>/use/",
        catalog.catalog_learned_use,
        name="learned_use",
    ),
    path("organisations/<slug:slug>/catalog/<uuid:code_id>/", catalog.catalog_code, name="code"),
    path(
        "organisations/<slug:slug>/catalog/<uuid:code_id>/reset/",
        catalog.catalog_code_reset,
        name="code_reset",
    ),
]
