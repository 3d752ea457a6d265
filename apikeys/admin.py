from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from apikeys.models import ApiKey
from apikeys.services import api_key_revoke


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only view of keys: the hash is not shown and no raw key exists to show.

    Keys are created by their owners (or `manage.py issue_api_key`), never here, so the admin
    can neither add a key nor edit one; it can revoke.
    """

    fields = (
        "name",
        "owner",
        "service_account",
        "hint",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
        "rolled_at",
        "limited_to_plans",
    )
    list_display = fields
    list_filter = ("revoked_at", "expires_at")
    list_select_related = ("owner", "service_account")
    search_fields = ("name", "owner__email", "hint")
    readonly_fields = fields
    actions = ("revoke_selected",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.action(description="Revoke the selected API keys", permissions=["delete"])
    def revoke_selected(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        revoked = 0
        for api_key in queryset.filter(revoked_at__isnull=True):
            api_key_revoke(api_key=api_key)
            revoked += 1
        self.message_user(request, f"{revoked} key(s) revoked.", messages.SUCCESS)
