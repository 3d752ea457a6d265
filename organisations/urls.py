from __future__ import annotations

from django.urls import path

from organisations import views

app_name = "organisations"

urlpatterns = [
    path("<slug:slug>/", views.organisation_members_page, name="members"),
]
