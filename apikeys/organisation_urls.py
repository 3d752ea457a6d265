"""An organisation's integration pages, under /organisations/<slug>/integrations/."""

from __future__ import annotations

from django.urls import path

from apikeys import service_account_views, views

urlpatterns = [
    path("api-keys/", views.organisation_api_key_list_page, name="organisation_api_keys"),
    path(
        "api-keys/new/",
        views.organisation_api_key_create_page,
        name="organisation_api_key_create",
    ),
    path(
        "api-keys/<uuid:api_key_id>/new/",
        views.organisation_api_key_created_page,
        name="organisation_api_key_created",
    ),
    path(
        "api-keys/<uuid:api_key_id>/roll/",
        views.organisation_api_key_roll_page,
        name="organisation_api_key_roll",
    ),
    path(
        "api-keys/<uuid:api_key_id>/revoke/",
        views.organisation_api_key_revoke_page,
        name="organisation_api_key_revoke",
    ),
    path(
        "service-accounts/<uuid:service_account_id>/keys/new/",
        service_account_views.organisation_service_account_key_create_page,
        name="organisation_service_account_key_create",
    ),
    path(
        "service-accounts/<uuid:service_account_id>/rename/",
        service_account_views.organisation_service_account_rename_page,
        name="organisation_service_account_rename",
    ),
    path("api-access/", views.organisation_api_access_page, name="organisation_api_access"),
    path(
        "api-access/switch/",
        views.organisation_api_access_switch,
        name="organisation_api_access_switch",
    ),
    path(
        "api-access/request/",
        views.organisation_api_access_ask,
        name="organisation_api_access_request",
    ),
    path(
        "api-access/requests/<int:request_id>/",
        views.organisation_api_access_decide,
        name="organisation_api_access_decide",
    ),
]
