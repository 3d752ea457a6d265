from __future__ import annotations

from django.urls import include, path

from apikeys import organisation_urls, views

app_name = "integrations"

# Mounted at the site's root by config/urls.py: a person's pages under Profile, an
# organisation's under its own address.
urlpatterns = [
    path("profile/integrations/api-keys/", views.api_key_list_page, name="api_key_list"),
    path("profile/integrations/api-keys/new/", views.api_key_create_page, name="api_key_create"),
    path(
        "profile/integrations/api-keys/<uuid:api_key_id>/new/",
        views.api_key_created_page,
        name="api_key_created",
    ),
    path(
        "profile/integrations/api-keys/<uuid:api_key_id>/roll/",
        views.api_key_roll_page,
        name="api_key_roll",
    ),
    path(
        "profile/integrations/api-keys/<uuid:api_key_id>/revoke/",
        views.api_key_revoke_page,
        name="api_key_revoke",
    ),
    path("profile/integrations/guide/", views.integrator_guide, name="integrator_guide"),
    path("organisations/<slug:slug>/integrations/", include(organisation_urls)),
]
