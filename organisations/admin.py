from django.contrib import admin

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
