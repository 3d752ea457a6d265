from django.apps import AppConfig


class PlanningConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "planning"
    verbose_name = "Planning"

    def ready(self) -> None:
        from jobs.registry import resumable_register
        from planning.tasks import plan_import_resume, plan_imports_leased

        resumable_register(
            label="plan imports", rows=plan_imports_leased, resume=plan_import_resume
        )
