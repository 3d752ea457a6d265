from django.urls import include, path

from planning import views

app_name = "planning"

urlpatterns = [
    path("", views.plan_list, name="plan_list"),
    path("import/", views.plan_import_upload, name="plan_import"),
    path("<int:number>/", views.plan_detail, name="plan_detail"),
    path("<int:number>/nodes/add/", views.node_root_create, name="node_root_create"),
    path("<int:number>/nodes/<uuid:node_id>/", views.node_detail, name="node_detail"),
    path("<int:number>/nodes/<uuid:node_id>/rename/", views.node_rename, name="node_rename"),
    path("<int:number>/nodes/<uuid:node_id>/details/", views.node_details, name="node_details"),
    path("<int:number>/nodes/<uuid:node_id>/move/", views.node_move, name="node_move"),
    path(
        "<int:number>/nodes/<uuid:node_id>/children/add/",
        views.node_child_create,
        name="node_child_create",
    ),
    path("<int:number>/nodes/<uuid:node_id>/code/", views.node_code_assign, name="node_code"),
    path(
        "<int:number>/nodes/<uuid:node_id>/code/clear/",
        views.node_code_clear,
        name="node_code_clear",
    ),
    path("<int:number>/nodes/<uuid:node_id>/delete/", views.node_delete, name="node_delete"),
    path("<int:number>/actions/add/", views.action_create, name="action_create"),
    path("<int:number>/actions/<uuid:action_id>/edit/", views.action_edit, name="action_edit"),
    path(
        "<int:number>/actions/<uuid:action_id>/cancel/", views.action_cancel, name="action_cancel"
    ),
    path("<int:number>/actions/<uuid:action_id>/done/", views.action_done, name="action_done"),
    path("<int:number>/members/", views.members, name="members"),
    path(
        "<int:number>/members/<int:membership_id>/role/",
        views.member_role_set,
        name="member_role_set",
    ),
    path(
        "<int:number>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("<int:number>/planning/", include("planning.suggestions.urls")),
]
