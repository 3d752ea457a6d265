from django.apps import AppConfig


class PlatformApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "platform_api"
    verbose_name = "Platform API"

    def ready(self) -> None:
        # Registers the ApiKeyAuth security scheme with drf-spectacular.
        from platform_api import openapi  # noqa: F401
