from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        # Planning sits below this app and tells it of changes by a signal, never by import.
        from planning.writes import plan_changed
        from webhooks.events import suggestion_changes_receive

        plan_changed.connect(suggestion_changes_receive, dispatch_uid="webhooks.outbox")
