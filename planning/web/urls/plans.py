"""The plans' pages under /plans/ (namespace "planning"): the plan list and imports, and every
page of one plan; its action-planning page is planning.web.urls.action_planning."""

from __future__ import annotations

from django.urls import include, path

from planning.web.views import (
    actions,
    attachments,
    exports,
    follow_up,
    funding,
    history,
    import_mapping,
    imports,
    members,
    nodes,
    plans,
    projects,
    reports,
    survey_entries,
    survey_mode,
    survey_reports,
    versions,
)

app_name = "planning"

urlpatterns = [
    path("", plans.plan_list, name="plan_list"),
    path("import/", imports.plan_import_upload, name="plan_import"),
    path("import/format/", imports.plan_import_format, name="plan_import_format"),
    path(
        "import/templates/sheet.xlsx",
        import_mapping.plan_import_sheet_template,
        name="plan_import_sheet_template",
    ),
    path(
        "import/templates/<str:filename>",
        imports.plan_import_template,
        name="plan_import_template",
    ),
    path("imports/<uuid:import_id>/", imports.plan_import_detail, name="plan_import_detail"),
    path(
        "imports/<uuid:import_id>/mapping/",
        import_mapping.plan_import_mapping,
        name="plan_import_mapping",
    ),
    path(
        "imports/<uuid:import_id>/progress/",
        imports.plan_import_progress,
        name="plan_import_progress",
    ),
    # Survey mode's service worker: under /plans/ so its scope covers every survey page.
    path("survey-worker.js", survey_mode.survey_worker, name="survey_worker"),
    path("<int:number>/", plans.plan_detail, name="plan_detail"),
    path("<int:number>/survey/", survey_mode.survey_buildings, name="survey_buildings"),
    path("<int:number>/survey/entries/", survey_entries.survey_entry_record, name="survey_entry"),
    path("<int:number>/survey/photos/", survey_entries.survey_photo_record, name="survey_photo"),
    path(
        "<int:number>/survey/<uuid:building_id>/",
        survey_mode.survey_building,
        name="survey_building",
    ),
    path(
        "<int:number>/survey/<uuid:building_id>/components/",
        survey_mode.survey_components,
        name="survey_components",
    ),
    path("<int:number>/settings/", plans.plan_settings, name="plan_settings"),
    path("<int:number>/settings/money/", plans.plan_money, name="plan_money"),
    path("<int:number>/delete/", plans.plan_delete, name="plan_delete"),
    path("<int:number>/nodes/add/", nodes.node_root_create, name="node_root_create"),
    path("<int:number>/nodes/lookup/", nodes.node_lookup, name="node_lookup"),
    path("<int:number>/nodes/<uuid:node_id>/children/", nodes.node_children, name="node_children"),
    path("<int:number>/nodes/<uuid:node_id>/", nodes.node_detail, name="node_detail"),
    path("<int:number>/nodes/<uuid:node_id>/rename/", nodes.node_rename, name="node_rename"),
    path("<int:number>/nodes/<uuid:node_id>/details/", nodes.node_details, name="node_details"),
    path("<int:number>/nodes/<uuid:node_id>/move/", nodes.node_move, name="node_move"),
    path("<int:number>/nodes/<uuid:node_id>/building/", nodes.node_building, name="node_building"),
    path(
        "<int:number>/nodes/<uuid:node_id>/condition/",
        nodes.node_condition,
        name="node_condition",
    ),
    path("<int:number>/nodes/<uuid:node_id>/survey/", nodes.node_survey, name="node_survey"),
    path(
        "<int:number>/nodes/<uuid:node_id>/survey-report.<str:fmt>",
        survey_reports.building_survey_report,
        name="building_survey_report",
    ),
    path(
        "<int:number>/nodes/<uuid:node_id>/files/",
        attachments.node_attachment_upload,
        name="node_attachment_upload",
    ),
    path(
        "<int:number>/actions/<uuid:action_id>/files/",
        attachments.action_attachment_upload,
        name="action_attachment_upload",
    ),
    path(
        "<int:number>/files/<uuid:attachment_id>/",
        attachments.attachment_download,
        name="attachment_download",
    ),
    path(
        "<int:number>/files/<uuid:attachment_id>/thumbnail/",
        attachments.attachment_thumbnail,
        name="attachment_thumbnail",
    ),
    path(
        "<int:number>/files/<uuid:attachment_id>/delete/",
        attachments.attachment_remove,
        name="attachment_delete",
    ),
    path(
        "<int:number>/nodes/<uuid:node_id>/children/add/",
        nodes.node_child_create,
        name="node_child_create",
    ),
    path("<int:number>/nodes/<uuid:node_id>/code/", nodes.node_code_assign, name="node_code"),
    path(
        "<int:number>/nodes/<uuid:node_id>/code/clear/",
        nodes.node_code_clear,
        name="node_code_clear",
    ),
    path("<int:number>/nodes/<uuid:node_id>/delete/", nodes.node_delete, name="node_delete"),
    path("<int:number>/actions/", actions.action_list, name="plan_actions"),
    path("<int:number>/actions/add/", actions.action_create, name="action_create"),
    path("<int:number>/actions/bulk/", actions.actions_bulk, name="actions_bulk"),
    path("<int:number>/actions/bulk/undo/", actions.actions_bulk_undo, name="actions_bulk_undo"),
    path("<int:number>/actions/<uuid:action_id>/edit/", actions.action_edit, name="action_edit"),
    path(
        "<int:number>/actions/<uuid:action_id>/cancel/", actions.action_cancel, name="action_cancel"
    ),
    path("<int:number>/actions/<uuid:action_id>/done/", actions.action_done, name="action_done"),
    path(
        "<int:number>/actions/<uuid:action_id>/done/undo/",
        actions.action_done_undo,
        name="action_done_undo",
    ),
    path(
        "<int:number>/actions/<uuid:action_id>/reopen/", actions.action_reopen, name="action_reopen"
    ),
    path("<int:number>/projects/", projects.project_list, name="project_list"),
    path(
        "<int:number>/projects/<uuid:project_id>/",
        projects.project_detail,
        name="project_detail",
    ),
    path(
        "<int:number>/projects/<uuid:project_id>/actions/add/",
        projects.project_actions_add,
        name="project_actions_add",
    ),
    path(
        "<int:number>/projects/<uuid:project_id>/actions/<uuid:action_id>/remove/",
        projects.project_action_remove,
        name="project_action_remove",
    ),
    path(
        "<int:number>/projects/<uuid:project_id>/delete/",
        projects.project_delete,
        name="project_delete",
    ),
    path("<int:number>/export/actions.<str:fmt>", exports.export_actions, name="export_actions"),
    path("<int:number>/export/budget.<str:fmt>", exports.export_budget, name="export_budget"),
    path("<int:number>/export/plan.json", exports.export_plan, name="export_plan"),
    path("<int:number>/export/plan.<str:fmt>", exports.export_plan, name="export_plan_as"),
    path(
        "<int:number>/export/plan-<str:table>.csv",
        exports.export_plan_table,
        name="export_plan_table",
    ),
    path("<int:number>/reports/", reports.plan_reports, name="plan_reports"),
    path("<int:number>/follow-up/", follow_up.follow_up, name="follow_up"),
    path("<int:number>/funding/", funding.funding, name="funding"),
    path("<int:number>/funding/fund/", funding.fund_save, name="fund_save"),
    path("<int:number>/funding/scenarios/", funding.scenario_create, name="scenario_create"),
    path(
        "<int:number>/funding/scenarios/<uuid:scenario_id>/",
        funding.scenario_edit,
        name="scenario_edit",
    ),
    path(
        "<int:number>/funding/scenarios/<uuid:scenario_id>/delete/",
        funding.scenario_delete,
        name="scenario_delete",
    ),
    path("<int:number>/funding/export.<str:fmt>", funding.funding_export, name="funding_export"),
    path("<int:number>/history/", history.plan_history_page, name="plan_history"),
    path("<int:number>/versions/", versions.plan_versions, name="plan_versions"),
    path("<int:number>/versions/<uuid:version_id>/", versions.plan_version, name="plan_version"),
    path(
        "<int:number>/versions/<uuid:version_id>/comparison.<str:fmt>",
        versions.plan_version_export,
        name="plan_version_export",
    ),
    path("<int:number>/history.csv", history.plan_history_csv, name="plan_history_csv"),
    path(
        "<int:number>/reports/<uuid:report_id>/progress/",
        reports.plan_report_progress,
        name="plan_report_progress",
    ),
    path(
        "<int:number>/reports/<uuid:report_id>/report.pdf",
        reports.plan_report_download,
        name="plan_report_download",
    ),
    path("<int:number>/members/", members.members, name="members"),
    path(
        "<int:number>/members/<int:membership_id>/role/",
        members.member_role_set,
        name="member_role_set",
    ),
    path(
        "<int:number>/members/<int:membership_id>/remove/",
        members.member_remove,
        name="member_remove",
    ),
    path("<int:number>/planning/", include("planning.web.urls.action_planning")),
]
