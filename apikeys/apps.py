from django.apps import AppConfig


class ApiKeysConfig(AppConfig):
    """API keys, service accounts, the Bearer authentication and the key pages.

    The app's label stays `integrations`, the name of the app it was split from (with
    platform_api): the label names its tables (integrations_apikey, ...), its migrations'
    history (the django_migrations rows), its content types and permissions and its admin URLs
    (/admin/integrations/), so keeping it leaves every existing database as it is, with no
    model or data migration. The templates (templates/integrations/) and the URL namespace
    (`integrations:`) keep the name too.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "apikeys"
    label = "integrations"
    verbose_name = "Integrations"

    def ready(self) -> None:
        from apikeys.tasks import API_KEY_NOTICES_EVERY, api_key_notices
        from jobs.registry import periodic_register

        periodic_register(
            name="integrations.api_key_notices", every=API_KEY_NOTICES_EVERY, run=api_key_notices
        )
