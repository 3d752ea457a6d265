from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from webhooks.models import WebhookEndpoint


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only view of endpoints for support: never the secret (not even encrypted)."""

    fields = (
        "url",
        "owner",
        "description",
        "all_plans",
        "secret_hint",
        "created_at",
        "disabled_at",
        "disabled_reason",
        "failing_since",
    )
    list_display = ("url", "owner", "all_plans", "created_at", "disabled_at", "disabled_reason")
    list_filter = ("disabled_reason",)
    list_select_related = ("owner",)
    search_fields = ("url", "owner__email", "description")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
