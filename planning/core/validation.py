"""Checks every write makes before it saves: a model's own field rules (`validated`) and the
plan limits (`plan_size_check`, docs/subsystems/limits.md). Each raises Django's ValidationError;
neither writes anything."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


def validated(instance: models.Model, *, exclude: list[str] | None = None) -> models.Model:
    """Runs the model's field rules and `clean()` (planning.models is their one source) and
    returns the instance, or raises their ValidationError ({field: [messages]}).

    Relations are left out: the services check them under the plan lock (same plan, still
    there), which a validator cannot. Uniqueness and constraints are the database's job.
    """
    relations = [field.name for field in instance._meta.concrete_fields if field.is_relation]
    instance.full_clean(
        exclude=[*relations, *(exclude or [])], validate_unique=False, validate_constraints=False
    )
    return instance


def plan_size_message(*, field: str, limit: int, count: int | None = None) -> str:
    """What the plan limits say (`count` None: a file whose rows were not all counted)."""
    has = f"would have {count:,}" if count is not None else "has more"
    return f"A plan can hold at most {limit:,} {field}; this one {has}."


def plan_size_check(*, nodes: int = 0, actions: int = 0) -> None:
    """Raises ValidationError (``{"nodes"|"actions": [message]}``) when a plan of this many
    nodes and actions would be over ``PLAN_MAX_NODES`` or ``PLAN_MAX_ACTIONS``
    (docs/subsystems/limits.md). The one place those limits are compared: additions, imports and
    generate_plan all ask here."""
    errors: dict[str, list[str]] = {}
    for field, count, limit in (
        ("nodes", nodes, settings.PLAN_MAX_NODES),
        ("actions", actions, settings.PLAN_MAX_ACTIONS),
    ):
        if count > limit:
            errors[field] = [plan_size_message(field=field, limit=limit, count=count)]
    if errors:
        raise ValidationError(errors)
