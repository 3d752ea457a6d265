from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import SecurityEvent, User
from accounts.services import security_event_record
from api.throttling import client_address


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    ordering = ("email",)
    list_display = ("email", "name", "api_access_enabled", "is_active", "is_staff", "date_joined")
    list_filter = ("api_access_enabled", "is_active", "is_staff")
    list_editable = ("api_access_enabled",)
    search_fields = ("email", "name")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        (_("Profile"), {"fields": ("name",)}),
        (_("API"), {"fields": ("api_access_enabled",)}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (None, {"classes": ("wide",), "fields": ("email", "name", "password1", "password2")}),
    )

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "api_access_enabled" in form.changed_data:
            security_event_record(
                user=obj,
                kind=SecurityEvent.Kind.API_ACCESS_CHANGED,
                ip_address=client_address(request),
                detail=(
                    "API access enabled by an administrator"
                    if obj.api_access_enabled
                    else "API access withdrawn by an administrator"
                ),
            )
