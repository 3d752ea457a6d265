"""apikeys.lookup (hand-written SELECTs) reads what the ORM reads, for any world hypothesis
draws: people with any organisation role or none, plan grants of any role, service accounts,
keys limited to any plans (theirs or not), plans with changes pending:
- the key by its hash, with its owner or organisation, as `select_related` reads it;
- the plans `plans_for_key` selects (`plans_visible` for a person), with the same row,
  organisation and sync state, read alone (`plan_of_key`) or with the key (`key_and_plan`).
Runs on SQLite in `make test` and on PostgreSQL."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from apikeys.lookup import key_and_plan, key_by_hash, plan_of_key
from apikeys.models import ApiKey, ServiceAccount
from apikeys.selectors import plans_for_key
from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from planning.models import Plan, PlanChange, PlanMembership, PlanRole
from planning.suggestions.sync.due import with_sync_state
from tests.factories import OrganisationFactory, PlanFactory, UserFactory

pytestmark = pytest.mark.django_db

PEOPLE, ORGANISATIONS, PLANS = 3, 2, 4
organisation_role = st.none() | st.sampled_from(OrganisationRole.values)
plan_role = st.none() | st.sampled_from(PlanRole.values)
world = st.fixed_dictionaries(
    {
        # The organisation of each plan.
        "plan_organisations": st.lists(
            st.integers(0, ORGANISATIONS - 1), min_size=PLANS, max_size=PLANS
        ),
        # Each person's role in each organisation, and grant on each plan (None: none).
        "memberships": st.lists(
            st.lists(organisation_role, min_size=ORGANISATIONS, max_size=ORGANISATIONS),
            min_size=PEOPLE,
            max_size=PEOPLE,
        ),
        "grants": st.lists(
            st.lists(plan_role, min_size=PLANS, max_size=PLANS), min_size=PEOPLE, max_size=PEOPLE
        ),
        # One key per person and per organisation (a service account): None, every plan its
        # holder sees; else limited to these plans (any plans, seen by the holder or not).
        "key_plans": st.lists(
            st.none() | st.frozensets(st.integers(0, PLANS - 1)),
            min_size=PEOPLE + ORGANISATIONS,
            max_size=PEOPLE + ORGANISATIONS,
        ),
        # Plans with a change waiting for the sync.
        "pending": st.frozensets(st.integers(0, PLANS - 1)),
    }
)


def _key(*, owner: User | None, organisation: Organisation | None, plans: Any) -> ApiKey:
    api_key = ApiKey.objects.create(
        owner=owner,
        organisation=organisation,
        service_account=(
            ServiceAccount.objects.create(organisation=organisation, name="key")
            if organisation is not None
            else None
        ),
        name="key",
        key_hash=uuid.uuid4().hex * 2,
        hint="mp_test",
        limited_to_plans=plans is not None,
    )
    if plans:
        api_key.plans.set(plans)
    return api_key


def _fields(instance: Model) -> dict[str, Any]:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _assert_same_key(read: ApiKey | None, api_key: ApiKey) -> None:
    expected = ApiKey.objects.select_related("owner", "organisation").get(pk=api_key.pk)
    assert read is not None
    assert _fields(read) == _fields(expected)
    for relation in ("owner", "organisation"):
        related, expected_related = getattr(read, relation), getattr(expected, relation)
        if expected_related is None:
            assert related is None
        else:
            assert _fields(related) == _fields(expected_related)


def _assert_same_answers(api_key: ApiKey, numbers: list[int]) -> None:
    _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
    for number in numbers:
        expected = (
            with_sync_state(plans_for_key(api_key=api_key).filter(number=number))
            .select_related("organisation")
            .first()
        )
        for sync_state in (False, True):
            plan = plan_of_key(api_key=api_key, number=number, sync_state=sync_state)
            if expected is None:
                assert plan is None, (api_key, number)
                continue
            assert plan is not None, (api_key, number)
            assert _fields(plan) == _fields(expected)
            assert _fields(plan.organisation) == _fields(expected.organisation)
            if sync_state:
                assert plan.changes_pending is expected.changes_pending  # type: ignore[attr-defined]
            else:
                assert not hasattr(plan, "changes_pending")
        read_key, plan = key_and_plan(key_hash=api_key.key_hash, number=number)
        _assert_same_key(read_key, api_key)
        if expected is None:
            assert plan is None, (api_key, number)
        else:
            assert plan is not None, (api_key, number)
            assert _fields(plan) == _fields(expected)
            assert _fields(plan.organisation) == _fields(expected.organisation)
            assert plan.changes_pending is expected.changes_pending  # type: ignore[attr-defined]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(drawn=world)
def test_the_statements_read_what_the_orm_reads(drawn: dict[str, Any]) -> None:
    with transaction.atomic():
        organisations = [OrganisationFactory.create() for _ in range(ORGANISATIONS)]
        plans = [
            PlanFactory.create(organisation=organisations[o]) for o in drawn["plan_organisations"]
        ]
        people = [UserFactory.create() for _ in range(PEOPLE)]
        for person, roles, grants in zip(
            people, drawn["memberships"], drawn["grants"], strict=True
        ):
            for organisation, role in zip(organisations, roles, strict=True):
                if role is not None:
                    OrganisationMembership.objects.create(
                        organisation=organisation, user=person, role=role
                    )
            for plan, grant in zip(plans, grants, strict=True):
                if grant is not None:
                    PlanMembership.objects.create(plan=plan, user=person, role=grant)
        for index in drawn["pending"]:
            PlanChange.objects.create(plan_id=plans[index].pk)
        holders: list[dict[str, Any]] = [{"owner": p, "organisation": None} for p in people]
        holders += [{"owner": None, "organisation": o} for o in organisations]
        # Every plan's number and one that names no plan.
        numbers = [plan.number for plan in plans] + [max(p.number for p in plans) + 1]
        for holder, limit in zip(holders, drawn["key_plans"], strict=True):
            chosen = None if limit is None else [plans[i] for i in sorted(limit)]
            _assert_same_answers(_key(**holder, plans=chosen), numbers)
        transaction.set_rollback(True)


def test_a_plan_of_a_deleted_organisation_membership_is_gone_at_once(db: Any) -> None:
    """The statement reads memberships as they are now: a removed member's key loses the
    organisation's plans with the next request (no cached answer)."""
    organisation = OrganisationFactory.create()
    plan = PlanFactory.create(organisation=organisation)
    person = UserFactory.create()
    membership = OrganisationMembership.objects.create(
        organisation=organisation, user=person, role=OrganisationRole.VIEWER
    )
    api_key = _key(owner=person, organisation=None, plans=None)
    found = plan_of_key(api_key=api_key, number=plan.number, sync_state=False)
    assert found is not None and found.pk == plan.pk
    membership.delete()
    assert plan_of_key(api_key=api_key, number=plan.number, sync_state=False) is None
    assert not Plan.objects.filter(pk=plan.pk, organisation__memberships__user=person).exists()


def test_a_key_with_every_field_set_reads_as_the_orm_reads_it(db: Any) -> None:
    """Dates, the permission and the flags go through the fields' conversions both ways."""
    now = timezone.now()
    api_key = _key(owner=UserFactory.create(), organisation=None, plans=None)
    ApiKey.objects.filter(pk=api_key.pk).update(
        last_used_at=now,
        rolled_at=now,
        revoked_at=now + timedelta(seconds=1),
        expires_at=now + timedelta(days=1),
        permission=ApiKey.Permission.READ_WRITE,
    )
    _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
    service_key = _key(owner=None, organisation=OrganisationFactory.create(), plans=[])
    _assert_same_key(key_by_hash(key_hash=service_key.key_hash), service_key)


def test_no_key_has_an_unknown_hash(db: Any) -> None:
    plan = PlanFactory.create()
    assert key_by_hash(key_hash="0" * 64) is None
    assert key_and_plan(key_hash="0" * 64, number=plan.number) == (None, None)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_prepared_lookup_survives_a_migration_and_a_dropped_statement(
    requires_postgres: None,
) -> None:
    """PostgreSQL refuses a prepared statement once a migration changed the type of a column it
    reads, and a pooler or DISCARD may drop it: the request then reads unprepared, and the
    next one prepares again."""
    api_key = _key(owner=UserFactory.create(), organisation=None, plans=None)
    name_column = User._meta.get_field("name")
    original_type = name_column.db_type(connection)
    alter = 'ALTER TABLE "accounts_user" ALTER COLUMN "name" TYPE {}'

    def prepared() -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            statements = [row[0] for row in cursor.fetchall()]
        return [s for s in statements if "key_hash" in s and "planning_plan" not in s]

    _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
    assert len(prepared()) == 1
    try:
        with connection.cursor() as cursor:
            cursor.execute(alter.format("varchar(251)"))
        _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
        _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
        assert len(prepared()) == 2  # the stale one, and the one prepared again
    finally:
        with connection.cursor() as cursor:
            cursor.execute(alter.format(original_type))
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
    _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
    assert len(prepared()) == 1


@pytest.mark.postgres
def test_with_prepared_statements_off_the_lookup_runs_as_it_is(
    requires_postgres: None, settings: Any
) -> None:
    """`DB_PREPARED_STATEMENTS=false` (behind a pooler that shares server connections per
    transaction): the statement itself, nothing prepared or executed by name."""
    settings.DB_PREPARED_STATEMENTS = False
    api_key = _key(owner=UserFactory.create(), organisation=None, plans=None)
    with CaptureQueriesContext(connection) as queries:
        _assert_same_key(key_by_hash(key_hash=api_key.key_hash), api_key)
    assert queries.captured_queries[0]["sql"].startswith("SELECT ")
