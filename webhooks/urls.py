from __future__ import annotations

from django.urls import include, path

from webhooks import views

app_name = "webhooks"

# Mounted at the site's root by config/urls.py. An endpoint's own pages live under Profile
# whichever its holder (webhooks.selectors.endpoint_get lets an organisation's owners and
# admins in); an organisation's list and its Add form live under the organisation.
_endpoint_pages = [
    path("new/", views.endpoint_create_page, name="endpoint_create"),
    path("<uuid:endpoint_id>/", views.endpoint_detail_page, name="endpoint_detail"),
    path("<uuid:endpoint_id>/secret/", views.endpoint_secret_page, name="endpoint_secret"),
    path("<uuid:endpoint_id>/roll-secret/", views.endpoint_roll_page, name="endpoint_roll"),
    path("<uuid:endpoint_id>/disable/", views.endpoint_disable_view, name="endpoint_disable"),
    path("<uuid:endpoint_id>/enable/", views.endpoint_enable_view, name="endpoint_enable"),
    path("<uuid:endpoint_id>/delete/", views.endpoint_delete_page, name="endpoint_delete"),
    path("<uuid:endpoint_id>/test/", views.endpoint_test_view, name="endpoint_test"),
    path(
        "<uuid:endpoint_id>/deliveries/<int:delivery_id>/redeliver/",
        views.delivery_redeliver_view,
        name="delivery_redeliver",
    ),
]

urlpatterns = [
    path("profile/integrations/webhooks/", views.endpoint_list_page, name="endpoint_list"),
    path("profile/integrations/webhooks/", include(_endpoint_pages)),
    path(
        "organisations/<slug:slug>/integrations/webhooks/",
        views.organisation_endpoint_list_page,
        name="organisation_endpoints",
    ),
    path(
        "organisations/<slug:slug>/integrations/webhooks/new/",
        views.organisation_endpoint_create_page,
        name="organisation_endpoint_create",
    ),
]
