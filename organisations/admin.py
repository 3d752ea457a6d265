from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import SecurityEvent
from accounts.services import security_event_record
from organisations.models import Organisation, OrganisationMembership


class OrganisationMembershipInline(admin.TabularInline):
    model = OrganisationMembership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "api_access_enabled", "created_at")
    list_filter = ("api_access_enabled",)
    search_fields = ("name", "slug")
    readonly_fields = ("personal_for",)
    inlines = (OrganisationMembershipInline,)

    def save_model(self, request: HttpRequest, obj: Organisation, form: Any, change: bool) -> None:
        """Staff switching API access (their override) leaves a line in the organisation's
        security log, as the organisation's own page does."""
        super().save_model(request, obj, form, change)
        if change and "api_access_enabled" in form.changed_data:
            state = "enabled" if obj.api_access_enabled else "withdrawn"
            security_event_record(
                user=None,
                organisation_id=obj.pk,
                kind=SecurityEvent.Kind.API_ACCESS_CHANGED,
                detail=f"API access {state} by staff ({getattr(request.user, 'email', '')})",
            )
