from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "integrations"
    verbose_name = "Integrations"

    def ready(self) -> None:
        # Registers the ApiKeyAuth security scheme with drf-spectacular.
        from integrations import openapi  # noqa: F401
        from integrations.tasks import API_KEY_NOTICES_EVERY, api_key_notices
        from jobs.registry import periodic_register

        periodic_register(
            name="integrations.api_key_notices", every=API_KEY_NOTICES_EVERY, run=api_key_notices
        )
