from __future__ import annotations

from django.urls import path

from integrations import views

app_name = "integrations"

urlpatterns = [
    path("api-keys/", views.api_key_list_page, name="api_key_list"),
    path("api-keys/new/", views.api_key_create_page, name="api_key_create"),
    path("api-keys/<uuid:api_key_id>/new/", views.api_key_created_page, name="api_key_created"),
    path("api-keys/<uuid:api_key_id>/roll/", views.api_key_roll_page, name="api_key_roll"),
    path("api-keys/<uuid:api_key_id>/revoke/", views.api_key_revoke_page, name="api_key_revoke"),
    path("guide/", views.integrator_guide, name="integrator_guide"),
]
