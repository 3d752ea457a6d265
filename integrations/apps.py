from django.apps import AppConfig


class IntegrationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "integrations"
    verbose_name = "Integrations"

    def ready(self) -> None:
        # Registers the ApiKeyAuth security scheme with drf-spectacular.
        from integrations import openapi  # noqa: F401
