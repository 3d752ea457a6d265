from django.apps import AppConfig


class OrganisationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "organisations"
    verbose_name = "Organisations"

    def ready(self) -> None:
        from organisations import signals  # noqa: F401  (every new account gets its organisation)
