"""Writes of a plan itself: its creation with the next plan number, its name, description and
currency, its money settings, its deletion. Each goes through `plan_write`
(planning.core.writes), except creation (a plan that does not exist yet cannot be locked) and
deletion (nothing of the plan is left to version, signal or sync)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F

from accounts.models import User
from organisations.models import Invitation, Organisation
from organisations.selectors import membership_of, personal_membership
from planning.core.actor import history_context, history_quiet
from planning.core.validation import validated
from planning.core.writes import plan_lock, plan_write
from planning.figures.prices import Markup, markups_columns
from planning.models import HistoryEntry, Plan, PlanNumberCounter
from planning.suggestions.sync.changes import changes_discard


@transaction.atomic
def plan_number_allocate() -> int:
    """The next plan number: sequential, never reused, safe under concurrent creation.

    The UPDATE takes the counter row's lock until the surrounding transaction ends, so a
    concurrent creator waits for it and then reads the next value; a rolled-back creation
    gives its number back (no gap), a deleted plan does not (no reuse).
    """
    counter = PlanNumberCounter.objects.filter(pk=1)
    if not counter.update(last_number=F("last_number") + 1):
        # The row comes from a migration; should it be gone (a flushed database), put it back
        # above every existing number. ON CONFLICT DO NOTHING lets concurrent creators race
        # here safely: one inserts, the others find its row, and the UPDATE orders them all.
        highest = Plan.objects.aggregate(highest=models.Max("number"))["highest"] or 0
        PlanNumberCounter.objects.bulk_create(
            [PlanNumberCounter(pk=1, last_number=highest)], ignore_conflicts=True
        )
        counter.update(last_number=F("last_number") + 1)
    return counter.values_list("last_number", flat=True).get()


NOT_A_PLANNER = "You cannot add plans to this organisation (planners, admins and owners can)."


@transaction.atomic
def plan_create(
    *,
    owner: User,
    name: str,
    description: str = "",
    organisation: Organisation | None = None,
    currency: str | None = None,
) -> Plan:
    """A new plan with the next number in `organisation` (by default the personal organisation
    of `owner`, who makes it and must be a member who may change its plans), in `currency`
    (by default PLAN_DEFAULT_CURRENCY)."""
    membership = (
        personal_membership(user=owner)
        if organisation is None
        else membership_of(user=owner, organisation_id=organisation.pk)
    )
    if membership is None or not membership.can_edit:
        raise ValidationError(NOT_A_PLANNER)
    organisation = membership.organisation
    plan = Plan(
        name=(name or "").strip(),
        description=(description or "").strip(),
        organisation=organisation,
    )
    if currency is not None:
        plan.currency = currency
    validated(plan, exclude=["number"])
    with transaction.atomic(savepoint=False), history_context():
        plan.number = plan_number_allocate()
        plan.save(force_insert=True)
    return plan


def plan_update(*, plan: Plan, name: str, description: str, currency: str) -> Plan:
    """Renames the plan, changes its description and the currency its amounts are shown in
    (a label: no amount is converted; the catalog's figures count only in their own currency,
    so a change re-derives the suggestions: docs/subsystems/code-catalog.md "Currency")."""
    plan.name = (name or "").strip()
    plan.description = (description or "").strip()
    plan.currency = (currency or "").strip().upper()
    validated(plan, exclude=["number"])
    with plan_write(plan_id=plan.pk, data_changed=True):
        plan.save(update_fields=["name", "description", "currency", "updated_at"])
    return plan


MONEY_FIELDS = (
    "price_base_year",
    "index_rate_percent",
    "markups",
    "overhead_percent",
    "vat_percent",
    "annual_budget",
)


def plan_money_update(
    *,
    plan: Plan,
    price_base_year: int,
    index_rate_percent: Decimal,
    annual_budget: Decimal | None,
    markups: Sequence[Markup] | None = None,
    overhead_percent: Decimal | None = None,
    vat_percent: Decimal | None = None,
) -> Plan:
    """The plan's price index, markups and annual budget (docs/subsystems/money.md): every
    nominal figure of the plan follows them; no estimated cost changes. `markups` are named
    percentages in the order they apply; `overhead_percent` and `vat_percent` instead (an older
    client's or file's two markups) leave the plan without a list, its markups being those two.
    With a list, the two columns hold its first and last markup (a single one is the overhead)
    for older clients."""
    plan.price_base_year = price_base_year
    plan.index_rate_percent = index_rate_percent
    if markups is not None:
        for field, value in markups_columns(markups).items():
            setattr(plan, field, value)
    else:
        plan.markups = None
        plan.overhead_percent = overhead_percent or Decimal(0)
        plan.vat_percent = vat_percent or Decimal(0)
    plan.annual_budget = annual_budget
    validated(plan, exclude=["number"])
    with plan_write(plan_id=plan.pk, data_changed=True):
        plan.save(update_fields=[*MONEY_FIELDS, "updated_at"])
    return plan


@transaction.atomic
def plan_delete(*, plan: Plan) -> None:
    """Deletes the plan with everything in it (structure, actions, projects, suggestions,
    memberships). Its number is never handed out again (PlanNumberCounter)."""
    plan_lock(plan_id=plan.pk)  # no version, signal or sync: nothing of the plan is left
    plan_id = plan.pk
    Invitation.objects.filter(plan_id=plan_id).delete()  # its guests' links die with it
    with history_quiet(), history_context():  # its history goes with it
        plan.delete()
    HistoryEntry.objects.filter(plan_id=plan_id).delete()
    changes_discard(plan_id=plan_id)  # written by the triggers while its rows went
