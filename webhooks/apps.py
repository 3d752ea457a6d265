from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from jobs.registry import periodic_register, resumable_register
        from planning.core.writes import plan_changed
        from planning.records.adoption import version_adopted
        from webhooks.events import suggestion_changes_receive
        from webhooks.plan_events import plan_data_changes_receive, version_adopted_receive
        from webhooks.services import EVENTS_RETENTION_EVERY, events_retention
        from webhooks.tasks import webhook_deliveries_leased, webhook_delivery_resume

        # Planning sits below this app and tells it of changes by a signal, never by import.
        plan_changed.connect(suggestion_changes_receive, dispatch_uid="webhooks.outbox")
        plan_changed.connect(plan_data_changes_receive, dispatch_uid="webhooks.plan_data")
        version_adopted.connect(version_adopted_receive, dispatch_uid="webhooks.versions")

        resumable_register(
            label="webhook deliveries",
            rows=webhook_deliveries_leased,
            resume=webhook_delivery_resume,
        )
        periodic_register(
            name="webhooks.events_retention", every=EVENTS_RETENTION_EVERY, run=events_retention
        )
