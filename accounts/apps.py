from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import signals  # noqa: F401  (connects the security-log receivers)
        from accounts.tasks import SECURITY_LOG_RETENTION_EVERY, security_log_retention
        from jobs.registry import periodic_register

        periodic_register(
            name="accounts.security_log_retention",
            every=SECURITY_LOG_RETENTION_EVERY,
            run=security_log_retention,
        )
