"""Writes of a plan's projects: creation, edits, deletion (its actions stay, without a
project), and which actions they hold. Each is one `plan_write` (planning.core.writes)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from planning.core.validation import validated
from planning.core.writes import plan_write
from planning.models import Action, Plan, Project


def project_create(*, plan: Plan, name: str, year: int) -> Project:
    """A new, empty project of the plan (actions are added from its page)."""
    project = Project(plan=plan, name=(name or "").strip(), year=year)
    validated(project)
    with plan_write(plan_id=plan.pk, data_changed=True):
        project.save(force_insert=True)
    return project


def project_update(*, project: Project, name: str, year: int) -> Project:
    project.name = (name or "").strip()
    project.year = year
    validated(project)
    with plan_write(plan_id=project.plan_id, data_changed=True):
        project.save(update_fields=["name", "year", "updated_at"])
    return project


def project_delete(*, project: Project) -> int:
    """Deletes the project; its actions stay, without a project. Returns how many it had."""
    with plan_write(plan_id=project.plan_id, data_changed=True):
        # `update` sets no auto_now: the actions list's `updated_since` reads `updated_at`.
        kept = Action.objects.filter(project=project).update(
            project=None, updated_at=timezone.now()
        )
        project.delete()
    return kept


def project_actions_add(*, project: Project, action_ids: list[Any]) -> int:
    """Puts these actions of the project's plan into the project; returns how many moved."""
    with plan_write(plan_id=project.plan_id, data_changed=True) as write:
        moved = Action.objects.filter(plan_id=project.plan_id, pk__in=action_ids).update(
            project=project, updated_at=timezone.now()
        )
        write.data_changed = moved > 0
    return moved


def project_action_remove(*, project: Project, action: Action) -> None:
    if action.project_id != project.pk:
        raise ValidationError("This action is not in the project.")
    with plan_write(plan_id=project.plan_id, data_changed=True):
        action.project = None
        action.save(update_fields=["project", "updated_at"])
