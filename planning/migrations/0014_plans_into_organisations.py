"""Every plan moves into the personal organisation of its first owner (docs/subsystems/organisations.md
"How plans moved into organisations"): each account gets its personal organisation (owner), the first owner's plan
grant is dropped (the organisation's owner role gives the same rights), and every other member
keeps their grant as a guest, owners included, so everyone reaches the same plans with the same
rights. A plan without any owner goes into one organisation without members, for staff to hand
over in the admin."""

from datetime import timedelta

from django.db import migrations
from django.utils.text import slugify

ORPHANS_NAME = "Plans without an owner"


def _slug(base, taken):
    base = slugify(base)[:50].strip("-") or "organisation"
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug)
    return slug


def forwards(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Organisation = apps.get_model("organisations", "Organisation")
    OrganisationMembership = apps.get_model("organisations", "OrganisationMembership")
    Plan = apps.get_model("planning", "Plan")
    PlanMembership = apps.get_model("planning", "PlanMembership")
    taken = set(Organisation.objects.values_list("slug", flat=True))
    personal = dict(
        Organisation.objects.filter(personal_for__isnull=False).values_list("personal_for", "pk")
    )
    for user in User.objects.order_by("date_joined", "pk").iterator():
        if user.pk not in personal:
            name = f"{user.name or user.email.split('@')[0]} (personal)"
            organisation = Organisation.objects.create(
                name=name, slug=_slug(name, taken), personal_for_id=user.pk
            )
            personal[user.pk] = organisation.pk
        OrganisationMembership.objects.get_or_create(
            organisation_id=personal[user.pk], user_id=user.pk, defaults={"role": "owner"}
        )
    orphans = None
    for plan_id in Plan.objects.filter(organisation__isnull=True).values_list("pk", flat=True):
        first = (
            PlanMembership.objects.filter(plan_id=plan_id, role="owner")
            .order_by("created_at", "pk")
            .first()
        )
        if first is not None:
            organisation_id = personal[first.user_id]
            first.delete()
        else:
            if orphans is None:
                orphans = Organisation.objects.create(
                    name=ORPHANS_NAME, slug=_slug(ORPHANS_NAME, taken)
                )
            organisation_id = orphans.pk
        Plan.objects.filter(pk=plan_id).update(organisation_id=organisation_id)


def backwards(apps, schema_editor):
    """The personal organisation's owner gets their owner grant back, as the plan's first
    grant again (dated before the others), so that forwards once more puts the plan into the
    same organisation."""
    Plan = apps.get_model("planning", "Plan")
    PlanMembership = apps.get_model("planning", "PlanMembership")
    for plan in Plan.objects.filter(organisation__personal_for__isnull=False).select_related(
        "organisation"
    ):
        grant, created = PlanMembership.objects.update_or_create(
            plan_id=plan.pk,
            user_id=plan.organisation.personal_for_id,
            defaults={"role": "owner"},
        )
        if created:
            others = PlanMembership.objects.filter(plan_id=plan.pk).exclude(pk=grant.pk)
            earliest = min([plan.created_at, *others.values_list("created_at", flat=True)])
            PlanMembership.objects.filter(pk=grant.pk).update(
                created_at=earliest - timedelta(microseconds=1)
            )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_security_log"),
        ("organisations", "0001_organisations"),
        ("planning", "0013_plan_organisation"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
