"""The incremental sync equals a full recompute after any sequence of changes and syncs.

Hypothesis draws a sequence of edits (node code, quantity, install year, parent, kind, name,
condition; action cost, year, kind, status, interval, project; node and action inserts and
deletes; the plan's annual budget; a catalog unit cost; an organisation's override;
dismissals) made through the services, `QuerySet.update()` or raw SQL, with incremental syncs at
random steps. After a last incremental sync, a full sync must find nothing to change, and no
suggestion ever changes its id. Runs on SQLite in `make test` and on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Field, Model
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from planning.catalog.services import code_override_set
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Code,
    CodeOverride,
    NodeKind,
    Plan,
    Project,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.plans.services.actions import action_create
from planning.plans.services.nodes import (
    node_code_assign,
    node_code_clear,
    node_create,
    node_delete,
    node_details_update,
    node_move,
)
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import CodeFactory, PlanFactory, ProjectFactory

pytestmark = pytest.mark.django_db

PATHS = ("service", "update", "raw")
index = st.integers(min_value=0, max_value=40)
year = st.integers(min_value=2000, max_value=2040)
money = st.decimals(min_value=0, max_value=5000, places=2)
edit = st.one_of(
    st.tuples(st.just("node_code"), index, st.none() | index, st.sampled_from(PATHS)),
    st.tuples(st.just("node_quantity"), index, st.none() | money, st.sampled_from(PATHS)),
    st.tuples(st.just("node_install_year"), index, st.none() | year, st.sampled_from(PATHS)),
    st.tuples(st.just("node_parent"), index, st.none() | index, st.sampled_from(PATHS)),
    st.tuples(
        st.just("node_kind"), index, st.sampled_from(NodeKind.values), st.sampled_from(PATHS)
    ),
    st.tuples(st.just("node_name"), index, st.sampled_from(["Roof", "Boiler"]), st.just("raw")),
    st.tuples(
        st.just("node_condition"),
        index,
        st.none() | st.integers(min_value=0, max_value=3),
        st.sampled_from(["update", "raw"]),
    ),
    st.tuples(st.just("action_cost"), index, money, st.sampled_from(PATHS)),
    st.tuples(st.just("action_year"), index, year, st.sampled_from(PATHS)),
    st.tuples(
        st.just("action_kind"), index, st.sampled_from(ActionKind.values), st.sampled_from(PATHS)
    ),
    st.tuples(
        st.just("action_status"),
        index,
        st.sampled_from(ActionStatus.values),
        st.sampled_from(PATHS),
    ),
    st.tuples(st.just("action_project"), index, st.none() | index, st.sampled_from(PATHS)),
    st.tuples(st.just("node_insert"), index, st.sampled_from(NodeKind.values), st.just("service")),
    st.tuples(st.just("node_delete"), index, st.none(), st.sampled_from(["service", "update"])),
    st.tuples(st.just("action_insert"), index, year, st.sampled_from(["service", "raw"])),
    st.tuples(st.just("action_delete"), index, st.none(), st.sampled_from(["update", "raw"])),
    st.tuples(st.just("catalog_unit_cost"), index, money, st.sampled_from(["update", "raw"])),
    st.tuples(
        st.just("plan_budget"), st.just(0), st.none() | money, st.sampled_from(["update", "raw"])
    ),
    st.tuples(
        st.just("action_interval"),
        index,
        st.none() | st.integers(min_value=1, max_value=5),
        st.sampled_from(["update", "raw"]),
    ),
    st.tuples(
        st.just("catalog_override"),
        index,
        st.none() | money,
        st.sampled_from(["service", "update"]),
    ),
    st.tuples(st.just("dismiss"), index, st.none(), st.just("service")),
    st.tuples(st.just("sync"), st.just(0), st.none(), st.just("service")),
)


def _field(model: type[Model], name: str) -> Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, Field)
    return field


def _db(model: type[Model], name: str, value: Any) -> Any:
    return _field(model, name).get_db_prep_value(value, connection)


def _raw_update(model: type[Model], pk: Any, field: str, value: Any) -> None:
    column = _field(model, field).column
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {model._meta.db_table} SET {column} = %s WHERE id = %s",  # noqa: S608
            [_db(model, field, value), _db(model, "id", pk)],
        )


def _set(model: type[Model], pk: Any, path: str, field: str, value: Any) -> None:
    if path == "raw":
        _raw_update(model, pk, field, value)
    else:
        model.objects.filter(pk=pk).update(**{field: value})  # type: ignore[attr-defined]


def _pick(items: list[Any], position: int) -> Any:
    return items[position % len(items)] if items else None


def _is_below(nodes: dict[Any, Any], node_id: Any, ancestor_id: Any) -> bool:
    current = node_id
    while current is not None:
        if current == ancestor_id:
            return True
        current = nodes.get(current)
    return False


class PlanEditor:
    def __init__(self, plan: Plan, codes: list[Code], projects: list[Project]) -> None:
        self.plan, self.codes, self.projects = plan, codes, projects

    def nodes(self) -> list[StructureNode]:
        return list(StructureNode.objects.filter(plan=self.plan).order_by("name", "id"))

    def actions(self) -> list[Action]:
        return list(Action.objects.filter(plan=self.plan).order_by("title", "id"))

    def apply(self, kind: str, position: int, value: Any, path: str) -> None:
        nodes, actions = self.nodes(), self.actions()
        node, action = _pick(nodes, position), _pick(actions, position)
        if kind == "node_code" and node:
            code = None if value is None else _pick(self.codes, value)
            if path == "service":
                if code is None:
                    node_code_clear(node=node)
                else:
                    node_code_assign(node=node, code=code)
            else:
                _set(StructureNode, node.pk, path, "code", code.pk if code else None)
        elif kind in ("node_quantity", "node_install_year", "node_kind") and node:
            field = {"node_quantity": "quantity", "node_install_year": "install_year"}.get(
                kind, "kind"
            )
            if path == "service":
                details = {
                    "kind": node.kind,
                    "quantity": node.quantity,
                    "unit": node.unit,
                    "install_year": node.install_year,
                    field: value,
                }
                # A graded component made a building is refused: nothing changes.
                with contextlib.suppress(ValidationError):
                    node_details_update(node=node, **details)
            else:
                _set(StructureNode, node.pk, path, field, value)
        elif kind == "node_name" and node:
            _set(StructureNode, node.pk, path, "name", value)
        elif kind == "node_condition" and node:
            _set(StructureNode, node.pk, path, "condition_grade", value)
        elif kind == "node_parent" and node:
            parent = None if value is None else _pick(nodes, value)
            if path == "service":
                with contextlib.suppress(ValidationError):  # a move under itself: refused
                    node_move(node=node, parent=parent)
            else:
                tree = {n.pk: n.parent_id for n in nodes}
                if parent is None or not _is_below(tree, parent.pk, node.pk):
                    _set(StructureNode, node.pk, path, "parent", parent.pk if parent else None)
        elif kind == "node_insert":
            parent = _pick(nodes, position)
            node_create(
                plan=self.plan, name=f"New {uuid.uuid4().hex[:6]}", kind=value, parent=parent
            )
        elif kind == "node_delete" and node and len(nodes) > 1:
            if path == "service":
                node_delete(node=node)
            else:
                StructureNode.objects.filter(pk=node.pk).delete()
        elif kind == "action_cost" and action:
            _set(Action, action.pk, path, "estimated_cost", value)
        elif kind in ("action_year", "action_kind", "action_status") and action:
            field = {"action_year": "planned_year", "action_kind": "kind"}.get(kind, "status")
            _set(Action, action.pk, "update" if path == "service" else path, field, value)
        elif kind == "action_project" and action:
            project = None if value is None else _pick(self.projects, value)
            _set(Action, action.pk, path, "project", project.pk if project else None)
        elif kind == "action_insert" and node:
            self._action_insert(node, value, path)
        elif kind == "action_delete" and action:
            if path == "raw":
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"DELETE FROM {Action._meta.db_table} WHERE id = %s",  # noqa: S608
                        [_db(Action, "id", action.pk)],
                    )
            else:
                Action.objects.filter(pk=action.pk).delete()
        elif kind == "plan_budget":
            _set(Plan, self.plan.pk, path, "annual_budget", value)
        elif kind == "action_interval" and action:
            _set(Action, action.pk, path, "interval_years", value)
        elif kind == "catalog_override":
            code = _pick(self.codes, position)
            organisation = self.plan.organisation
            if path == "service":
                code_override_set(
                    organisation=organisation, user=None, code=code, figures={"unit_cost": value}
                )
            elif value is None:
                CodeOverride.objects.filter(organisation=organisation, code=code).delete()
            elif not CodeOverride.objects.filter(organisation=organisation, code=code).update(
                unit_cost=value
            ):
                CodeOverride.objects.create(organisation=organisation, code=code, unit_cost=value)
        elif kind == "catalog_unit_cost":
            code = _pick(self.codes, position)
            _set(Code, code.pk, path, "unit_cost", value)
        elif kind == "dismiss":
            open_ones = list(
                Suggestion.objects.filter(plan=self.plan, status=SuggestionStatus.OPEN).order_by(
                    "fingerprint"
                )
            )
            if open_ones:
                suggestions_dismiss(
                    plan=self.plan,
                    suggestion_ids=[_pick(open_ones, position).pk],
                    user=None,
                    reason="not_applicable",
                )

    def _action_insert(self, node: StructureNode, planned_year: int, path: str) -> None:
        if path == "service":
            action_create(
                plan=self.plan,
                node=node,
                title=f"Act {uuid.uuid4().hex[:6]}",
                kind=ActionKind.REPLACEMENT,
                planned_year=planned_year,
                estimated_cost=Decimal("900"),
            )
            return
        now = timezone.now()
        values = {
            "id": uuid.uuid4(),
            "plan": self.plan.pk,
            "node": node.pk,
            "title": f"Raw {uuid.uuid4().hex[:6]}",
            "kind": ActionKind.REPLACEMENT.value,
            "planned_year": planned_year,
            "estimated_cost": Decimal("2500.00"),
            "status": ActionStatus.PLANNED.value,
            "created_at": now,
            "updated_at": now,
        }
        columns = [str(_field(Action, name).column) for name in values]
        params = [_db(Action, name, value) for name, value in values.items()]
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {Action._meta.db_table} ({', '.join(columns)}) "  # noqa: S608
                f"VALUES ({', '.join(['%s'] * len(columns))})",
                params,
            )


def _new_plan() -> PlanEditor:
    codes = [
        CodeFactory.create(name=name, unit_cost=cost, service_life_years=life)
        for name, cost, life in (
            ("Roof covering", Decimal("40"), 30),
            ("Gas boiler", Decimal("3000"), 20),
            ("Window", None, 25),
        )
    ]
    plan = PlanFactory.create(annual_budget=Decimal("2500.00"))
    site = node_create(plan=plan, name="Site", kind=NodeKind.SITE)
    # Outside every building: its texts name the site (a rename of the site must reach them).
    node_create(plan=plan, name="Site fence", kind=NodeKind.COMPONENT, parent=site)
    for house in ("House A", "House B"):
        building = node_create(plan=plan, name=house, kind=NodeKind.BUILDING, parent=site)
        system = node_create(
            plan=plan, name=f"{house} heating", kind=NodeKind.SYSTEM, parent=building
        )
        for number, code in enumerate([codes[0], codes[1], None]):
            component = node_create(
                plan=plan,
                name=f"{house} boiler {number}",
                kind=NodeKind.COMPONENT,
                parent=system,
                code=code,
                quantity=Decimal("10"),
                install_year=2005,
            )
            action_create(
                plan=plan,
                node=component,
                title=f"Replace {house} {number}",
                kind=ActionKind.REPLACEMENT,
                planned_year=2030,
                estimated_cost=Decimal("1000"),
            )
    projects = [ProjectFactory.create(plan=plan, name=f"Project {n}") for n in range(2)]
    return PlanEditor(plan, codes, projects)


def _ids(plan: Plan) -> dict[str, Any]:
    return dict(Suggestion.objects.filter(plan=plan).values_list("fingerprint", "id"))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(edit, max_size=14))
# Deleting the first node (the site) takes the budget peak's anchor, and the peak with it (a
# cascade): the sync makes the peak again, a new suggestion. It once failed here by chance,
# the ids of what was stored before that delete compared with those after the sync.
@example(edits=[("node_delete", 0, None, "service"), ("sync", 0, None, "service")])
def test_incremental_sync_equals_a_full_recompute(edits: list[tuple[Any, ...]]) -> None:
    editor = _new_plan()
    suggestion_sync(plan=editor.plan)
    for kind, position, value, path in edits:
        if kind == "sync":
            # A sync keeps the id of every suggestion it keeps (it resolves, never deletes).
            stored = _ids(editor.plan)
            suggestion_sync(plan=editor.plan)
            current = _ids(editor.plan)
            assert {fp: current[fp] for fp in stored} == stored
        else:
            editor.apply(kind, position, value, path)
    suggestion_sync(plan=editor.plan)

    check = suggestion_sync(plan=editor.plan, full=True)

    assert check.full
    assert (check.created, check.updated, check.resolved, check.reopened) == (0, 0, 0, 0)
