from __future__ import annotations

from django.urls import path

from organisations import views

app_name = "organisations"

urlpatterns = [
    path("", views.organisation_list, name="list"),
    path("<slug:slug>/", views.organisation_members_page, name="members"),
    path("<slug:slug>/rename/", views.organisation_rename, name="rename"),
    path(
        "<slug:slug>/members/<int:membership_id>/role/",
        views.member_role_set,
        name="member_role_set",
    ),
    path(
        "<slug:slug>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("<slug:slug>/invitations/", views.invitations_page, name="invitations"),
    path(
        "<slug:slug>/invitations/<uuid:invitation_id>/resend/",
        views.invitation_resend_view,
        name="invitation_resend",
    ),
    path(
        "<slug:slug>/invitations/<uuid:invitation_id>/revoke/",
        views.invitation_revoke_view,
        name="invitation_revoke",
    ),
]
