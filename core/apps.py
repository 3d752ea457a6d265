from typing import Any

from django.apps import AppConfig


class CoreConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "core"
    verbose_name = "Core"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from core import checks  # noqa: F401  (registers the system checks)

        connection_created.connect(_natural_collation_register)


def _natural_collation_register(sender: Any, connection: Any, **kwargs: Any) -> None:
    """SQLite learns the natural order of names on each new connection (core.text_order)."""
    if connection.vendor == "sqlite":
        from core.text_order import NATURAL_COLLATION, natural_compare

        connection.connection.create_collation(NATURAL_COLLATION, natural_compare)
