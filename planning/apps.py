from django.apps import AppConfig


class PlanningConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "planning"
    verbose_name = "Planning"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from jobs.registry import resumable_register
        from organisations.invitations import invitation_accepted
        from organisations.models import Organisation
        from planning.catalog.services import organisation_catalog_create
        from planning.core.writes import plan_changed
        from planning.models import Attachment
        from planning.plans.services.attachments import attachment_files_forget
        from planning.plans.services.grants import grant_from_invitation
        from planning.reports.jobs import plan_reports_leased
        from planning.tasks import (
            plan_import_resume,
            plan_imports_leased,
            plan_report_resume,
            plan_sync_on_data_change,
        )

        invitation_accepted.connect(
            grant_from_invitation, dispatch_uid="planning.grant_from_invitation"
        )
        plan_changed.connect(plan_sync_on_data_change, dispatch_uid="planning.sync_on_data_change")
        post_save.connect(
            organisation_catalog_create,
            sender=Organisation,
            dispatch_uid="planning.organisation_catalog_create",
        )
        # Every path that deletes a file's row (a node's or plan's deletion cascades) frees it.
        post_delete.connect(
            attachment_files_forget,
            sender=Attachment,
            dispatch_uid="planning.attachment_files_forget",
        )

        resumable_register(
            label="plan imports", rows=plan_imports_leased, resume=plan_import_resume
        )
        resumable_register(
            label="plan reports", rows=plan_reports_leased, resume=plan_report_resume
        )
