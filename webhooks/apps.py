from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from jobs.registry import resumable_register
        from webhooks.tasks import webhook_deliveries_leased, webhook_delivery_resume

        resumable_register(
            label="webhook deliveries",
            rows=webhook_deliveries_leased,
            resume=webhook_delivery_resume,
        )
