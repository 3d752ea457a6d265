"""Who an API key belongs to: a person (their own keys) or an organisation (its service
accounts). One set of key services serves both through this (docs/subsystems/api-keys.md
"Holders")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts.models import SecurityEvent, User
from accounts.services import account_lock, security_event_record
from apikeys.models import ApiKey, ApiKeyQuerySet
from organisations.models import Organisation
from organisations.selectors import organisation_managers
from planning.models import Plan
from planning.plans.selectors import plans_visible


@dataclass(frozen=True)
class KeyHolder:
    user: User | None = None
    organisation: Organisation | None = None

    def __post_init__(self) -> None:
        assert (self.user is None) != (self.organisation is None), "exactly one holder"

    @classmethod
    def of(cls, api_key: ApiKey) -> KeyHolder:
        return cls(user=api_key.owner, organisation=api_key.organisation)

    @property
    def words(self) -> str:
        return "organisation" if self.organisation is not None else "account"

    def lock(self) -> None:
        """The holder's row lock: its key creations and rolls are serialised by it (the
        limit counts under it). Always taken before any key row."""
        if self.organisation is not None:
            Organisation.objects.select_for_update().filter(pk=self.organisation.pk).first()
        else:
            assert self.user is not None
            account_lock(user=self.user)

    def keys(self) -> ApiKeyQuerySet:
        if self.organisation is not None:
            return ApiKey.objects.of_organisation(self.organisation)
        return ApiKey.objects.owned_by(self.user)  # type: ignore[arg-type]

    def plans(self) -> QuerySet[Plan]:
        """The plans a key of this holder may be limited to."""
        if self.organisation is not None:
            return Plan.objects.filter(organisation=self.organisation)
        return plans_visible(user=self.user)

    def key_fields(self) -> dict[str, Any]:
        return {"owner": self.user, "organisation": self.organisation}

    def log(self, *, kind: SecurityEvent.Kind, **fields: Any) -> None:
        """A line in the person's security log, or in the organisation's."""
        security_event_record(
            user=self.user,
            organisation_id=self.organisation.pk if self.organisation is not None else None,
            kind=kind,
            **fields,
        )

    def notice_recipients(self) -> list[str]:
        """Who is emailed about the holder's keys: the person, or the organisation's owners and
        admins."""
        if self.organisation is not None:
            return [m.user.email for m in organisation_managers(organisation=self.organisation)]
        assert self.user is not None
        return [self.user.email]
