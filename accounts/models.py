from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.base_user import AbstractBaseUser, BaseUserManager
from django.contrib.auth.models import PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone

DUPLICATE_EMAIL = "An account with this email already exists. Log in instead."


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def get_by_natural_key(self, username: str | None) -> User:
        # Emails are matched case-insensitively, as people type them.
        return self.get(email__iexact=username)

    def create_user(self, email: str, password: str | None = None, **extra_fields: Any) -> User:
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra_fields)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    """A person: email is the login, `name` is what the app shows."""

    email = models.EmailField("email address", max_length=254, unique=True)
    name = models.CharField(max_length=150, blank=True)
    api_access_enabled = models.BooleanField(
        "API access enabled",
        default=False,
        help_text="When the API access policy is on, this account's API keys work only while set.",
    )
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)

    objects: ClassVar[UserManager] = UserManager()  # type: ignore[assignment]

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = ["name"]

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.email

    def get_full_name(self) -> str:
        return self.name or self.email

    def get_short_name(self) -> str:
        return self.name or self.email

    def set_password(self, raw_password: str | None) -> None:
        # Read by accounts.signals after the save: a change of an existing account's password
        # (one it had, not its first) goes into its security log, whichever screen made it.
        self._password_changed = self.pk is not None and bool(self.password)
        super().set_password(raw_password)


class SecurityEvent(models.Model):
    """One line of a user's security log (Profile > Security log), kept SECURITY_LOG_DAYS."""

    class Kind(models.TextChoices):
        LOGIN = "login", "Logged in"
        LOGIN_FAILED = "login_failed", "Failed login"
        PASSWORD_CHANGED = "password_changed", "Password changed"
        API_ACCESS_CHANGED = "api_access_changed", "API access changed"
        API_KEY_CREATED = "api_key_created", "API key created"
        API_KEY_ROLLED = "api_key_rolled", "API key rolled"
        API_KEY_REVOKED = "api_key_revoked", "API key revoked"
        API_KEY_EXPIRED = "api_key_expired", "API key expired"
        API_KEY_NEW_ADDRESS = "api_key_new_address", "API key used from a new address"

    # The person whose log it is; null for a line of an organisation's log (a service account's
    # key), which names the organisation instead (no foreign key: organisations are a layer up).
    user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.CASCADE, related_name="security_events"
    )
    organisation_id = models.UUIDField(null=True, blank=True, db_index=True)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    # What the event was about, in words (a key's name and hint, never a secret).
    detail = models.CharField(max_length=300, blank=True)
    # The key an API-key event is about (no foreign key: keys live in an app above this one).
    api_key_id = models.UUIDField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-id")
        indexes: ClassVar = [
            models.Index(fields=["user", "-created_at"]),
            models.Index(fields=["api_key_id", "ip_address"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.user_id}, {self.created_at:%Y-%m-%d %H:%M})"
