from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db import transaction
from django.http import HttpRequest

from planning.core.actor import history_context
from planning.models import Action, Code, Plan, PlanMembership, Project, StructureNode, Suggestion
from planning.tree.paths import node_place, subtree_refresh


class HistoryAdmin(admin.ModelAdmin):
    """Changes made in the admin enter the plan's history with the staff member as the actor
    (planning.core.actor): each admin page that writes runs in a transaction that hands the actor
    to the history triggers."""

    def changeform_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        with transaction.atomic(), history_context():
            return super().changeform_view(request, *args, **kwargs)

    def delete_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        with transaction.atomic(), history_context():
            return super().delete_view(request, *args, **kwargs)

    def changelist_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        with transaction.atomic(), history_context():  # bulk delete, list_editable
            return super().changelist_view(request, *args, **kwargs)


@admin.register(Code)
class CodeAdmin(admin.ModelAdmin):
    list_display = ("code", "name", "unit", "unit_cost", "service_life_years", "is_default")
    list_filter = ("is_default",)
    search_fields = ("code", "name", "keywords")


class PlanMembershipInline(admin.TabularInline):
    model = PlanMembership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Plan)
class PlanAdmin(HistoryAdmin):
    list_display = ("number", "name", "created_at", "last_synced_at")
    search_fields = ("name", "=number")
    readonly_fields = ("number", "created_at", "updated_at", "last_synced_at")
    inlines = (PlanMembershipInline,)

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A plan gets its number from planning.plans.services.plans.plan_create; the admin cannot
        # allocate one.
        return False


@admin.register(StructureNode)
class StructureNodeAdmin(HistoryAdmin):
    list_display = ("name", "kind", "plan", "parent", "code", "install_year")
    list_filter = ("kind",)
    search_fields = ("name", "plan__name")
    list_select_related = ("plan", "parent", "code")
    raw_id_fields = ("plan", "parent")
    autocomplete_fields = ("code",)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Keeps the stored path and building (planning.tree) as the node services do."""
        with transaction.atomic():
            if not change:
                node_place(obj)
            super().save_model(request, obj, form, change)
            if change and {"parent", "kind"} & set(form.changed_data):
                subtree_refresh(node_id=obj.pk)


@admin.register(Project)
class ProjectAdmin(HistoryAdmin):
    list_display = ("name", "year", "plan")
    search_fields = ("name", "plan__name")
    raw_id_fields = ("plan",)


@admin.register(Action)
class ActionAdmin(HistoryAdmin):
    list_display = ("title", "plan", "node", "kind", "planned_year", "estimated_cost", "status")
    list_filter = ("kind", "status")
    search_fields = ("title", "plan__name")
    list_select_related = ("plan", "node")
    raw_id_fields = ("plan", "node", "project")


@admin.register(Suggestion)
class SuggestionAdmin(admin.ModelAdmin):
    """Suggestions are computed by the sync; the admin shows them and does not edit them."""

    list_display = ("title", "plan", "suggestion_type", "severity", "status", "created_at")
    list_filter = ("suggestion_type", "severity", "status")
    search_fields = ("title", "fingerprint", "plan__name")
    list_select_related = ("plan",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
