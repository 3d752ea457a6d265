from typing import Any

from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
    verbose_name = "API platform"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from api import checks  # noqa: F401  (registers the system checks)

        connection_created.connect(_natural_collation_register)


def _natural_collation_register(sender: Any, connection: Any, **kwargs: Any) -> None:
    """SQLite learns the natural order of names on each new connection (api.text_order)."""
    if connection.vendor == "sqlite":
        from api.text_order import NATURAL_COLLATION, natural_compare

        connection.connection.create_collation(NATURAL_COLLATION, natural_compare)
