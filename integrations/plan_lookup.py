"""The plan a key names, read in one hand-written SELECT (docs/design.md "Integrator API" >
"The plan of a request").

Every integrator route that names a plan reads it here: the plan row, its organisation, and with
`sync_state` whether a change waits for the sync, where the key's principal may see it. The ORM
queryset that says the same (`plans_for_key`, i.e. `planning.selectors.plans_visible` for a
person) cost about 1 ms of query compilation per request, as much as everything else a 304 of
the suggestion list does (benchmarks/bench_poll.py: 266 304s a second against 518 session
checks). Here the statement is written once per shape and only its parameters change.

The rules are those of `plans_for_key`, written in SQL:
- a person's key: a plan of an organisation the person is a member of (any role), or one
  granted to the person (a PlanMembership, any role);
- a service account's key: a plan of its organisation;
- a key limited to plans: only those of its list.
tests/integrations/test_plan_lookup.py checks on a matrix of principals, plans and keys that
this and `plans_for_key` select the same plans, so the two cannot drift apart unnoticed.

Plain SQL both SQLite and PostgreSQL run; names come from the models' metadata and values go
through the fields' own conversions both ways, as the ORM's would.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, ManyToManyField, Model

from integrations.models import ApiKey
from organisations.models import Organisation, OrganisationMembership
from planning.models import Plan, PlanChange, PlanMembership

_PLAN_FIELDS: tuple[Field[Any, Any], ...] = tuple(Plan._meta.concrete_fields)
_ORGANISATION_FIELDS: tuple[Field[Any, Any], ...] = tuple(Organisation._meta.concrete_fields)
_PLAN_ATTNAMES = [f.attname for f in _PLAN_FIELDS]
_ORGANISATION_ATTNAMES = [f.attname for f in _ORGANISATION_FIELDS]
_Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]


# The statement of each shape, with the models' table and column names in the braces; every
# value is a parameter (%s), in order: the plan number, the person (twice) or the organisation,
# and for a key limited to plans the key.
_SELECT = (
    "SELECT {plan_columns}, {organisation_columns}{pending} "
    "FROM {plan} p INNER JOIN {organisation} o ON o.{organisation_id} = p.{plan_organisation} "
    "WHERE p.{plan_number} = %s AND {access}{limit}"
)
_PENDING = ", EXISTS (SELECT 1 FROM {change} c WHERE c.{change_plan} = p.{plan_id})"
_PERSON_SEES = (
    "(EXISTS (SELECT 1 FROM {membership} m "
    "WHERE m.{membership_organisation} = p.{plan_organisation} AND m.{membership_user} = %s) "
    "OR EXISTS (SELECT 1 FROM {grant} g WHERE g.{grant_plan} = p.{plan_id} "
    "AND g.{grant_user} = %s))"
)
_SERVICE_ACCOUNT_SEES = "p.{plan_organisation} = %s"
_KEY_LIMIT = (
    " AND EXISTS (SELECT 1 FROM {key_plans} k WHERE k.{key_plans_key} = %s "
    "AND k.{key_plans_plan} = p.{plan_id})"
)


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column
    return connection.ops.quote_name(field.column)


def _names() -> dict[str, str]:
    """The quoted names the statements use, from the models' metadata."""
    quote = connection.ops.quote_name
    key_plans = ApiKey._meta.get_field("plans")
    assert isinstance(key_plans, ManyToManyField)
    return {
        "plan_columns": ", ".join(f"p.{_column(Plan, f.name)}" for f in _PLAN_FIELDS),
        "organisation_columns": ", ".join(
            f"o.{_column(Organisation, f.name)}" for f in _ORGANISATION_FIELDS
        ),
        "plan": quote(Plan._meta.db_table),
        "plan_id": _column(Plan, "id"),
        "plan_number": _column(Plan, "number"),
        "plan_organisation": _column(Plan, "organisation"),
        "organisation": quote(Organisation._meta.db_table),
        "organisation_id": _column(Organisation, "id"),
        "change": quote(PlanChange._meta.db_table),
        "change_plan": _column(PlanChange, "plan_id"),
        "membership": quote(OrganisationMembership._meta.db_table),
        "membership_organisation": _column(OrganisationMembership, "organisation"),
        "membership_user": _column(OrganisationMembership, "user"),
        "grant": quote(PlanMembership._meta.db_table),
        "grant_plan": _column(PlanMembership, "plan"),
        "grant_user": _column(PlanMembership, "user"),
        "key_plans": quote(str(key_plans.m2m_db_table())),
        "key_plans_key": quote(key_plans.m2m_column_name()),
        "key_plans_plan": quote(key_plans.m2m_reverse_name()),
    }


@functools.cache
def _statement(*, vendor: str, service_account: bool, limited: bool, sync_state: bool) -> str:
    """The SELECT of one shape (`vendor` is part of the cache key: the backend quotes)."""
    del vendor
    names = _names()
    return _SELECT.format(
        **names,
        pending=_PENDING.format(**names) if sync_state else "",
        access=(_SERVICE_ACCOUNT_SEES if service_account else _PERSON_SEES).format(**names),
        limit=_KEY_LIMIT.format(**names) if limited else "",
    )


# Per connection (one per thread): the backend's and the fields' converters of each column, as
# the ORM's compiler applies them (SQLite returns UUIDs, decimals and datetimes as text).
_CONVERTERS: weakref.WeakKeyDictionary[
    BaseDatabaseWrapper, tuple[tuple[Any, list[_Converter]], ...]
] = weakref.WeakKeyDictionary()


def _converters(db: BaseDatabaseWrapper) -> tuple[tuple[Any, list[_Converter]], ...]:
    known = _CONVERTERS.get(db)
    if known is None:
        columns = []
        for field in (*_PLAN_FIELDS, *_ORGANISATION_FIELDS):
            column = field.get_col(field.model._meta.db_table)
            converters = db.ops.get_db_converters(column) + column.get_db_converters(db)
            columns.append((column, converters))
        known = _CONVERTERS[db] = tuple(columns)
    return known


def _instances(db: BaseDatabaseWrapper, row: Sequence[Any]) -> Plan:
    values = []
    for value, (column, converters) in zip(row, _converters(db), strict=False):
        for convert in converters:
            value = convert(value, column, db)
        values.append(value)
    count = len(_PLAN_FIELDS)
    plan = Plan.from_db(db.alias, _PLAN_ATTNAMES, values[:count])
    plan.organisation = Organisation.from_db(db.alias, _ORGANISATION_ATTNAMES, values[count:])
    return plan


def _fetch_one(db: BaseDatabaseWrapper, sql: str, params: list[Any]) -> Sequence[Any] | None:
    """The statement's one row. On PostgreSQL as a prepared statement of the connection (a
    persistent one keeps it): planning a five-table statement was most of what a 304 costs
    beyond the session check. Django's own cursors bind on the client and prepare nothing;
    this one cursor binds on the server, with the connection's adapters and loaders."""
    db.ensure_connection()
    if db.vendor == "postgresql":
        import psycopg

        with db.wrap_database_errors, psycopg.Cursor(db.connection) as cursor:
            cursor.execute(sql.encode(), params, prepare=True)
            return cursor.fetchone()
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def plan_of_key(*, api_key: ApiKey, number: int, sync_state: bool) -> Plan | None:
    """Plan `number` with its organisation if the key's principal may see it (and the key is
    not limited to other plans), else None. `sync_state`: with `changes_pending` read in the
    same statement (planning.suggestions.sync.with_sync_state)."""
    db = connections[DEFAULT_DB_ALIAS]
    service_account = api_key.organisation_id is not None
    sql = _statement(
        vendor=db.vendor,
        service_account=service_account,
        limited=api_key.limited_to_plans,
        sync_state=sync_state,
    )
    params: list[Any] = [number]
    if service_account:
        params.append(
            Plan._meta.get_field("organisation").get_db_prep_value(api_key.organisation_id, db)
        )
    else:
        user = OrganisationMembership._meta.get_field("user").get_db_prep_value(
            api_key.owner_id, db
        )
        params += [user, user]
    if api_key.limited_to_plans:
        params.append(ApiKey._meta.get_field("id").get_db_prep_value(api_key.pk, db))
    row = _fetch_one(db, sql, params)
    if row is None:
        return None
    plan = _instances(db, row)
    if sync_state:
        plan.changes_pending = bool(row[-1])  # type: ignore[attr-defined]
    return plan
