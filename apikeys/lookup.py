"""The key of a request, and the plan it names, in hand-written SELECTs
(docs/subsystems/api-lookup.md "The key and the plan of a request").

Every integrator request reads its key here (`key_by_hash`: the key with its holder, the
person or the service account's organisation), and every route that names a plan reads the plan
here with its organisation and whether a change waits for the sync, where the key's principal may
see it. A GET that names a plan reads both in one statement (`key_and_plan`): then a 304 of the
suggestion list costs one round trip to the database, as the session check does. Otherwise the
plan is read alone (`plan_of_key`). The ORM querysets that say the same (the key with
`select_related`, `plans_for_key`) cost about 1 ms of query compilation each per request, as
much as everything else a 304 does (benchmarks/bench_poll.py); here each statement is written
once and only its parameters change. On PostgreSQL each connection prepares them once.

Who sees which plan is written once, in `_SEES`, in terms of the key's row, with the rules of
`plans_for_key` (`planning.plans.selectors.plans_visible` for a person):
- a person's key: a plan of an organisation the person is a member of (any role), or one
  granted to the person (a PlanMembership, any role);
- a service account's key: a plan of its organisation;
- a key limited to plans: only those of its list.
tests/apikeys/test_lookup.py checks on random worlds of principals, plans and keys that these
statements and the ORM's querysets read the same rows, so the two cannot drift apart unnoticed.

Plain SQL both SQLite and PostgreSQL run; names come from the models' metadata and values go
through the fields' own conversions, as the ORM's would.
"""

from __future__ import annotations

import functools
import itertools
import re
import secrets
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, ManyToManyField, Model

from accounts.models import User
from apikeys.models import ApiKey
from organisations.models import Organisation, OrganisationMembership
from planning.models import MAX_PLAN_NUMBER, Plan, PlanChange, PlanMembership

_Converter = Callable[[Any, Any, BaseDatabaseWrapper], Any]

# Canonical decimal only: no sign, no leading zero, no spaces, no fraction or exponent. "01"
# names no plan (a plan number is written one way), so it is a 400 like "+1" or " 1".
_PLAN_NUMBER = re.compile(r"[1-9][0-9]{0,9}")


def plan_number_of(raw: str) -> int | None:
    """The plan number a path segment names, or None when it names none."""
    if not _PLAN_NUMBER.fullmatch(raw):
        return None
    number = int(raw)
    return number if number <= MAX_PLAN_NUMBER else None


@dataclass(frozen=True)
class _Columns:
    """Every concrete column of `model` under a table alias, read into an instance."""

    model: type[Model]
    alias: str

    @functools.cached_property
    def fields(self) -> tuple[Field[Any, Any], ...]:
        return tuple(self.model._meta.concrete_fields)

    def sql(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(str(f.column))}" for f in self.fields)

    def instance(self, db: BaseDatabaseWrapper, row: Sequence[Any]) -> Any:
        """The instance of this model's columns, `row` holding exactly them."""
        values = []
        for value, (column, converters) in zip(row, _converters(db, self), strict=True):
            for convert in converters:
                value = convert(value, column, db)
            values.append(value)
        return self.model.from_db(db.alias, [f.attname for f in self.fields], values)


_KEY = _Columns(ApiKey, "k")
_OWNER = _Columns(User, "u")
_HOLDER = _Columns(Organisation, "h")
_PLAN = _Columns(Plan, "p")
_ORGANISATION = _Columns(Organisation, "o")


# Per connection (one per thread): the backend's and the fields' converters of each column, as
# the ORM's compiler applies them (SQLite returns UUIDs, decimals and datetimes as text).
_CONVERTERS: weakref.WeakKeyDictionary[
    BaseDatabaseWrapper, dict[_Columns, list[tuple[Any, list[_Converter]]]]
] = weakref.WeakKeyDictionary()


def _converters(db: BaseDatabaseWrapper, columns: _Columns) -> list[tuple[Any, list[_Converter]]]:
    known = _CONVERTERS.setdefault(db, {})
    if columns not in known:
        found = []
        for field in columns.fields:
            column = field.get_col(field.model._meta.db_table)
            found.append((column, db.ops.get_db_converters(column) + column.get_db_converters(db)))
        known[columns] = found
    return known[columns]


# The statements, with the models' table and column names in the braces; every value is a
# parameter (%s). `k` is the key's row, `p` the plan's.
_KEY_FROM = (
    "FROM {apikey} k LEFT JOIN {user} u ON u.{user_id} = k.{key_owner} "
    "LEFT JOIN {organisation} h ON h.{organisation_id} = k.{key_organisation} "
)
_SEES = (
    "(p.{plan_organisation} = k.{key_organisation} "
    "OR EXISTS (SELECT 1 FROM {membership} m WHERE m.{membership_organisation} = "
    "p.{plan_organisation} AND m.{membership_user} = k.{key_owner}) "
    "OR EXISTS (SELECT 1 FROM {grant} g WHERE g.{grant_plan} = p.{plan_id} "
    "AND g.{grant_user} = k.{key_owner})) "
    "AND (NOT k.{key_limited} OR EXISTS (SELECT 1 FROM {key_plans} l "
    "WHERE l.{key_plans_key} = k.{key_id} AND l.{key_plans_plan} = p.{plan_id}))"
)
_PENDING = "EXISTS (SELECT 1 FROM {change} c WHERE c.{change_plan} = p.{plan_id})"
# The key by its hash.
_KEY_SELECT = (
    "SELECT {key_columns}, {owner_columns}, {holder_columns} {key_from}WHERE k.{key_hash} = %s"
)
# The key by its hash and plan `number` where it sees it (NULLs where not): number, hash.
_KEY_AND_PLAN_SELECT = (
    "SELECT {key_columns}, {owner_columns}, {holder_columns}, {plan_columns}, "
    "{organisation_columns}, {pending} {key_from}"
    "LEFT JOIN {plan} p ON p.{plan_number} = %s AND {sees} "
    "LEFT JOIN {organisation} o ON o.{organisation_id} = p.{plan_organisation} "
    "WHERE k.{key_hash} = %s"
)
# Plan `number` where key `id` sees it: id, number.
_PLAN_SELECT = (
    "SELECT {plan_columns}, {organisation_columns}{sync_state} FROM {plan} p "
    "INNER JOIN {organisation} o ON o.{organisation_id} = p.{plan_organisation} "
    "INNER JOIN {apikey} k ON k.{key_id} = %s "
    "WHERE p.{plan_number} = %s AND {sees}"
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
        "key_columns": _KEY.sql(),
        "owner_columns": _OWNER.sql(),
        "holder_columns": _HOLDER.sql(),
        "plan_columns": _PLAN.sql(),
        "organisation_columns": _ORGANISATION.sql(),
        "apikey": quote(ApiKey._meta.db_table),
        "key_id": _column(ApiKey, "id"),
        "key_hash": _column(ApiKey, "key_hash"),
        "key_owner": _column(ApiKey, "owner"),
        "key_organisation": _column(ApiKey, "organisation"),
        "key_limited": _column(ApiKey, "limited_to_plans"),
        "user": quote(User._meta.db_table),
        "user_id": _column(User, "id"),
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
def _statement(template: str, *, vendor: str, sync_state: bool = False) -> str:
    """A statement with the names filled in (`vendor` is part of the cache key: the backend
    quotes)."""
    del vendor
    names = _names()
    pending = _PENDING.format(**names)
    return template.format(
        **names,
        key_from=_KEY_FROM.format(**names),
        sees=_SEES.format(**names),
        pending=pending,
        sync_state=f", {pending}" if sync_state else "",
    )


# Per PostgreSQL connection: the name under which it prepared each statement. The names carry a
# token of this process, so two app processes behind one pooled server connection never
# collide.
_PREPARED: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()
_PREPARED_PREFIX = f"maintplan_lookup_{secrets.token_hex(4)}_"
_PREPARED_NAMES = itertools.count()


def _fetch_one(db: BaseDatabaseWrapper, sql: str, params: list[Any]) -> Sequence[Any] | None:
    """The statement's one row, through Django's cursor (health check, query log, execute
    wrappers, errors). On PostgreSQL as a statement the connection prepared (`PREPARE`, once
    per connection; a persistent one keeps it): parsing and planning a statement over seven
    tables costs more than the rest of a 304. `DB_PREPARED_STATEMENTS` off: as it is."""
    with db.cursor() as cursor:
        if db.vendor == "postgresql" and settings.DB_PREPARED_STATEMENTS:
            prepared = _PREPARED.setdefault(db.connection, {})
            try:
                if sql not in prepared:
                    name = f"{_PREPARED_PREFIX}{next(_PREPARED_NAMES)}"
                    cursor.execute(f"PREPARE {name} AS {_numbered(sql)}")
                    prepared[sql] = name
                arguments = ", ".join(["%s"] * len(params))
                cursor.execute(f"EXECUTE {prepared[sql]} ({arguments})", params)
                return cursor.fetchone()
            except DatabaseError as error:
                if not isinstance(error.__cause__, _stale_errors()):
                    raise
                # Prepared again, under a new name, by the next request; this one goes on
                # unprepared where it can (outside a transaction the failure ended nothing).
                prepared.pop(sql, None)
                if db.in_atomic_block:
                    raise
        cursor.execute(sql, params)
        return cursor.fetchone()


def _stale_errors() -> tuple[type[Exception], ...]:
    """What PostgreSQL answers when a prepared statement no longer fits: a migration changed
    the type of a column it reads ("cached plan must not change result type"), or a pooler
    or DISCARD dropped it ("prepared statement does not exist"), or a pooler's server
    connection already has the name ("prepared statement already exists")."""
    from psycopg import errors

    return (
        errors.FeatureNotSupported,
        errors.InvalidSqlStatementName,
        errors.DuplicatePreparedStatement,
    )


def _numbered(sql: str) -> str:
    """`sql` with PostgreSQL's numbered parameters ($1, $2, ...) for its `%s`."""
    parts = sql.split("%s")
    return "".join(
        part + (f"${number}" if number < len(parts) else "")
        for number, part in enumerate(parts, start=1)
    )


def _key_of_row(db: BaseDatabaseWrapper, row: Sequence[Any]) -> ApiKey:
    """The key of a row that starts with its columns, its owner's and its organisation's, with
    the holder it has in place (as `select_related("owner", "organisation")` reads it)."""
    ends = _ends(_KEY, _OWNER, _HOLDER)
    api_key: ApiKey = _KEY.instance(db, row[: ends[0]])
    owner, holder = row[ends[0] : ends[1]], row[ends[1] : ends[2]]
    api_key.owner = None if api_key.owner_id is None else _OWNER.instance(db, owner)
    api_key.organisation = None if api_key.organisation_id is None else _HOLDER.instance(db, holder)
    return api_key


def _plan_of_row(db: BaseDatabaseWrapper, row: Sequence[Any], *, sync_state: bool) -> Plan:
    """The plan of a row that holds its columns, its organisation's and (`sync_state`) whether
    a change is pending, in this order."""
    ends = _ends(_PLAN, _ORGANISATION)
    plan: Plan = _PLAN.instance(db, row[: ends[0]])
    plan.organisation = _ORGANISATION.instance(db, row[ends[0] : ends[1]])
    if sync_state:
        plan.changes_pending = bool(row[ends[1]])  # type: ignore[attr-defined]
    return plan


def _ends(*groups: _Columns) -> list[int]:
    ends, end = [], 0
    for group in groups:
        end += len(group.fields)
        ends.append(end)
    return ends


def _prep(model: type[Model], name: str, value: Any, db: BaseDatabaseWrapper) -> Any:
    return model._meta.get_field(name).get_db_prep_value(value, db)  # type: ignore[union-attr]


def key_by_hash(*, key_hash: str) -> ApiKey | None:
    """The key with this SHA-256 and its holder (owner or organisation), or None."""
    db = connections[DEFAULT_DB_ALIAS]
    row = _fetch_one(db, _statement(_KEY_SELECT, vendor=db.vendor), [key_hash])
    return None if row is None else _key_of_row(db, row)


def key_and_plan(*, key_hash: str, number: int) -> tuple[ApiKey | None, Plan | None]:
    """`key_by_hash` and, in the same statement, `plan_of_key(number, sync_state=True)` of
    that key: (None, None) for no such key, (key, None) when it does not see the plan."""
    db = connections[DEFAULT_DB_ALIAS]
    sql = _statement(_KEY_AND_PLAN_SELECT, vendor=db.vendor)
    row = _fetch_one(db, sql, [number, key_hash])
    if row is None:
        return None, None
    api_key = _key_of_row(db, row)
    plan_part = row[_ends(_KEY, _OWNER, _HOLDER)[-1] :]
    if plan_part[0] is None:  # the plan's id: no plan that the key sees
        return api_key, None
    return api_key, _plan_of_row(db, plan_part, sync_state=True)


def plan_of_key(*, api_key: ApiKey, number: int, sync_state: bool) -> Plan | None:
    """Plan `number` with its organisation if the key's principal may see it (and the key is
    not limited to other plans), else None. `sync_state`: with `changes_pending` read in the
    same statement (planning.suggestions.sync.due.with_sync_state)."""
    db = connections[DEFAULT_DB_ALIAS]
    sql = _statement(_PLAN_SELECT, vendor=db.vendor, sync_state=sync_state)
    row = _fetch_one(db, sql, [_prep(ApiKey, "id", api_key.pk, db), number])
    return None if row is None else _plan_of_row(db, row, sync_state=sync_state)
