"""The invitation links of the emails (no namespace: /invitations/...)."""

from __future__ import annotations

from django.urls import path

from organisations import views

urlpatterns = [
    path("accept/", views.invitation_accept_view, name="invitation_accept"),
    path("accept/register/", views.invitation_register, name="invitation_register"),
    path("<str:token>/", views.invitation_open, name="invitation_open"),
]
