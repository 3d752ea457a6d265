from django.apps import AppConfig


class JobsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "jobs"
    verbose_name = "Background jobs"

    def ready(self) -> None:
        from jobs.registry import periodic_register
        from jobs.tasks import TASK_RESULTS_PRUNE_EVERY, task_results_prune

        periodic_register(
            name="jobs.task_results_prune", every=TASK_RESULTS_PRUNE_EVERY, run=task_results_prune
        )
