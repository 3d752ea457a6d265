"""The lease column every claimed row carries, and the schedule of the periodic jobs."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q


class Leased(models.Model):
    """A row that a worker claims while it works on it (jobs.leases, docs/subsystems/jobs.md
    "Leases, claims and the tick").

    `lease_expires_at` is NULL while nobody holds the row; otherwise the holder is trusted
    until then, and a row whose lease has passed is work whose worker died. A model that
    declares its own Meta extends this one (`class Meta(Leased.Meta)`) to keep the index.
    """

    lease_expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        # Only the few held rows are indexed: finding expired leases stays cheap on a
        # table of millions of finished rows.
        indexes: ClassVar = [
            models.Index(
                fields=["lease_expires_at"],
                condition=Q(lease_expires_at__isnull=False),
                name="%(app_label)s_%(class)s_lease",
            )
        ]


class JobSchedule(Leased):
    """When a periodic job (jobs.registry) runs next; also the worker's tick chain itself.

    A periodic job's lease is held by the tick that runs it; the tick chain's lease by the
    queued next tick (jobs.tasks)."""

    name = models.CharField(primary_key=True, max_length=100)
    due_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} (due {self.due_at:%Y-%m-%d %H:%M})"
