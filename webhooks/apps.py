from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from jobs.registry import periodic_register, resumable_register
        from planning.core.writes import plan_changed
        from webhooks.events import suggestion_changes_receive
        from webhooks.services import EVENTS_RETENTION_EVERY, events_retention
        from webhooks.tasks import webhook_deliveries_leased, webhook_delivery_resume

        # Planning sits below this app and tells it of changes by a signal, never by import.
        plan_changed.connect(suggestion_changes_receive, dispatch_uid="webhooks.outbox")

        resumable_register(
            label="webhook deliveries",
            rows=webhook_deliveries_leased,
            resume=webhook_delivery_resume,
        )
        periodic_register(
            name="webhooks.events_retention", every=EVENTS_RETENTION_EVERY, run=events_retention
        )
