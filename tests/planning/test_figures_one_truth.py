"""One truth for every figure (docs/subsystems/figures.md "One truth for every figure"): on random
plans (recurring, done, cancelled and completed actions, an index, markups, a price base year
before or after this year, random year ranges) every surface that shows planned cost, read
through its real code path (the page's context, the export's rows, the API's answer, the
report's figures, the sync's suggestions), equals a recomputation written here from the
definition, independently of planning.figures. Runs on SQLite in `make test` and on
PostgreSQL in `make test-postgres`.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apikeys.services import api_access_set, api_key_create
from planning.figures.prices import Markup
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Completion,
    NodeKind,
    Plan,
    PlanRole,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.services.actions import action_cancel, action_mark_done
from planning.plans.services.plans import plan_money_update
from planning.records.adoption import plan_adopt
from planning.records.comparison import Side, versions_compare
from planning.reports.content import report_content
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)
from tests.planning.workbooks import sheet_parts, workbook_sheets

pytestmark = pytest.mark.django_db

Y = timezone.now().year  # the year every figure's default range starts in (UTC)
CENT = Decimal("0.01")


# --- the recomputation, from the definition ----------------------------------------------------


@dataclass(frozen=True)
class Row:
    """An action as the definition reads it."""

    planned_year: int
    interval: int | None
    cost: Decimal
    status: str


def occurs(row: Row, year: int) -> bool:
    if row.interval is None:
        return year == row.planned_year
    return year >= row.planned_year and (year - row.planned_year) % row.interval == 0


def nominal(cost: Decimal, year: int, plan: Plan, markups: Iterable[Decimal]) -> Decimal:
    value = Fraction(cost) * (1 + Fraction(plan.index_rate_percent) / 100) ** (
        year - plan.price_base_year
    )
    for markup in markups:
        value *= 1 + Fraction(markup) / 100
    cents = value * 100
    return Decimal(int(cents + Fraction(1, 2))) * CENT  # half up: costs are never negative


def expected(
    rows: Iterable[Row], years: range, *, plan: Plan | None = None, markups: Iterable[Decimal] = ()
) -> list[Decimal]:
    """The planned cost of each year: every live occurrence, today's prices (or nominal when a
    plan is given), each occurrence rounded on its own."""
    markups = list(markups)
    totals = []
    for year in years:
        total = Decimal("0.00")
        for row in rows:
            if row.status == ActionStatus.PLANNED and occurs(row, year):
                total += row.cost if plan is None else nominal(row.cost, year, plan, markups)
        totals.append(total)
    return totals


def rows_of(plan: Plan) -> list[Row]:
    return [
        Row(a.planned_year, a.interval_years, a.estimated_cost, a.status)
        for a in Action.objects.filter(plan=plan)
    ]


# --- random plans ------------------------------------------------------------------------------

action_spec = st.tuples(
    st.integers(min_value=0, max_value=2),  # which building's component
    st.integers(min_value=Y - 8, max_value=Y + 16),  # planned year
    st.none() | st.integers(min_value=1, max_value=7),  # interval
    st.decimals(min_value=0, max_value=99999, places=2),  # cost
    st.sampled_from(["planned", "planned", "planned", "done", "cancelled", "completed"]),
    st.sampled_from(ActionKind.values),
)
percent = st.decimals(min_value=0, max_value=30, places=1)
plan_spec = st.fixed_dictionaries(
    {
        "base_year": st.integers(min_value=Y - 4, max_value=Y + 3),
        "index": st.decimals(min_value=-3, max_value=9, places=2),
        "overhead": percent,
        "vat": percent,
        # A list of named markups (stored, compounding in order), or none: overhead and VAT.
        "markups": st.none() | st.lists(percent, max_size=4),
        "actions": st.lists(action_spec, min_size=0, max_size=14),
        "year_from": st.integers(min_value=Y - 5, max_value=Y + 6),
        "span": st.integers(min_value=1, max_value=15),
        "budget": st.decimals(min_value=1, max_value=60000, places=0),
    }
)


def make_plan(spec: dict[str, Any]) -> tuple[Plan, Any]:
    owner = UserFactory.create()
    plan = PlanFactory.create(
        price_base_year=spec["base_year"],
        index_rate_percent=spec["index"],
        overhead_percent=spec["overhead"],
        vat_percent=spec["vat"],
    )
    PlanMembershipFactory.create(plan=plan, user=owner, role=PlanRole.OWNER)
    if spec["markups"] is not None:
        plan_money_update(
            plan=plan,
            price_base_year=plan.price_base_year,
            index_rate_percent=plan.index_rate_percent,
            annual_budget=None,
            markups=[Markup(f"Markup {i}", p) for i, p in enumerate(spec["markups"])],
        )
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    components = []
    for name in ("House 1", "House 2", "House 10"):
        building = StructureNodeFactory.create(
            plan=plan, parent=site, kind=NodeKind.BUILDING, name=name
        )
        components.append(StructureNodeFactory.create(plan=plan, parent=building, name="Roof"))
    today = timezone.localdate()
    for which, year, interval, cost, status, kind in spec["actions"]:
        action = ActionFactory.create(
            node=components[which],
            planned_year=year,
            interval_years=interval,
            estimated_cost=cost,
            kind=kind,
        )
        if status == "cancelled":
            action_cancel(action=action)
        elif status == "done" or (status == "completed" and interval is not None):
            # A recurring action moves on to the completion's year + its interval.
            action_mark_done(action=action, completed_on=today - datetime.timedelta(days=40))
    return plan, owner


def markups_of(plan: Plan) -> list[Decimal]:
    if plan.markups is not None:
        return [Decimal(markup["percent"]) for markup in plan.markups]
    return [plan.overhead_percent, plan.vat_percent]


# --- the surfaces -------------------------------------------------------------------------------


def planning_page(client: Client, plan: Plan, years: range, prices: str) -> Any:
    url = reverse("planning:action_planning", args=[plan.number])
    query: dict[str, str | int] = {"year_from": years[0], "year_to": years[-1], "prices": prices}
    return client.get(url, query).context


def budget_export_total_row(client: Client, plan: Plan, years: range) -> list[str]:
    url = reverse("planning:export_budget", args=[plan.number, "csv"])
    response = client.get(url, {"year_from": years[0], "year_to": years[-1]})
    body = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    return rows[-1]


def api_plan(owner: Any, plan: Plan) -> dict[str, Any]:
    api_access_set(user=owner, enabled=True)
    _key, raw = api_key_create(user=owner, name="figures")
    response = Client().get(
        f"/api/v1/platform/plans/{plan.number}", headers={"Authorization": f"Bearer {raw}"}
    )
    assert response.status_code == 200, response.content
    data: dict[str, Any] = response.json()["data"]
    return data


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(spec=plan_spec)
def test_every_surface_equals_the_recomputation(spec: dict[str, Any]) -> None:
    plan, owner = make_plan(spec)
    client = Client()
    client.force_login(owner)
    rows = rows_of(plan)
    ten = range(Y, Y + 10)
    chosen = range(spec["year_from"], spec["year_from"] + spec["span"])
    ten_today = sum(expected(rows, ten), Decimal("0.00"))

    # The plan list: the ten years from Y, today's prices.
    listed = client.get(reverse("planning:plan_list")).context
    plans = {p.pk: p for p, _access in [*listed["rows"], *listed["shared_rows"]]}
    assert plans[plan.pk].ten_year_cost == ten_today

    # The Actions tab's total over a chosen range, and over the default ten years.
    actions_url = reverse("planning:plan_actions", args=[plan.number])
    assert client.get(actions_url).context["actions_total"] == ten_today
    ranged = client.get(actions_url, {"year_from": chosen[0], "year_to": chosen[-1]})
    assert ranged.context["actions_total"] == sum(expected(rows, chosen), Decimal("0.00"))

    # The planning grid, its building rows and its kinds, in both prices; the key figures.
    for prices, plan_or_none in (("today", None), ("nominal", plan)):
        want = expected(rows, chosen, plan=plan_or_none, markups=markups_of(plan))
        page = planning_page(client, plan, chosen, prices)
        budget = page["budget"]
        assert budget.year_totals == want
        assert budget.total == sum(want, Decimal("0.00"))
        for i in range(len(chosen)):
            assert sum((row.cells[i] for row in budget.rows), Decimal("0.00")) == want[i]
            assert sum((s.values[i] for s in budget.by_kind), Decimal("0.00")) == want[i]
    figures = page["key_figures"].plan
    assert figures.ten_year_cost == ten_today
    debt = sum(
        (r.cost for r in rows if r.status == ActionStatus.PLANNED and r.planned_year < Y),
        Decimal("0.00"),
    )
    assert figures.debt == debt

    # The budget export's total row: the years in today's prices, their total, then nominal.
    total_row = budget_export_total_row(client, plan, chosen)
    width = len(chosen)
    # Building, then six key figures (area, cost per m2 per year, debt, debt per m2, FCI, band).
    today_cells = [Decimal(cell) for cell in total_row[7 : 7 + width + 1]]
    nominal_cells = [Decimal(cell) for cell in total_row[8 + width : 8 + 2 * width + 1]]
    want_today = expected(rows, chosen)
    want_nominal = expected(rows, chosen, plan=plan, markups=markups_of(plan))
    assert today_cells == [*want_today, sum(want_today, Decimal("0.00"))]
    assert nominal_cells == [*want_nominal, sum(want_nominal, Decimal("0.00"))]
    # The budget workbook's total row on each price basis's sheet (below its table).
    workbook = client.get(
        reverse("planning:export_budget", args=[plan.number, "xlsx"]),
        {"year_from": chosen[0], "year_to": chosen[-1]},
    )
    sheets = workbook_sheets(b"".join(workbook.streaming_content))  # type: ignore[attr-defined]
    for name, want in (("Today's prices", want_today), ("Nominal", want_nominal)):
        last = [cell for cell in sheet_parts(sheets[name]).below[-1] if cell is not None]
        assert last[0] == "Total"
        cells = [Decimal(str(cell)).quantize(Decimal("0.01")) for cell in last[-width - 1 :]]
        assert cells == [*want, sum(want, Decimal("0.00"))]

    # Follow-up: the live occurrences planned for each year plus the work done on occurrences
    # planned for it (at its estimate when done).
    follow_up = client.get(
        reverse("planning:follow_up", args=[plan.number]),
        {"year_from": chosen[0], "year_to": chosen[-1]},
    ).context["figures"]
    done_estimates = dict.fromkeys(chosen, Decimal("0.00"))
    for completion in Completion.objects.filter(action__plan=plan):
        if completion.planned_year in done_estimates:
            done_estimates[completion.planned_year] += completion.estimated_cost or 0
    assert [row.planned for row in follow_up.years] == [
        live + done_estimates[year]
        for year, live in zip(chosen, expected(rows, chosen), strict=True)
    ]

    # The API's key figures.
    assert Decimal(api_plan(owner, plan)["key_figures"]["ten_year_cost"]) == ten_today

    # The board report, both prices, the plan's horizon from today.
    for prices, plan_or_none in (("today", None), ("nominal", plan)):
        content = report_content(plan=plan, prices=prices)
        horizon = range(Y, content.year_to + 1)
        assert content.budget.year_totals == expected(
            rows, horizon, plan=plan_or_none, markups=markups_of(plan)
        )
        assert content.key_figures.plan.ten_year_cost == ten_today

    # A version: its planned cost is the plan list's figure then; after a change, the
    # comparison's totals are each side's, from the snapshot and from the plan.
    version = plan_adopt(plan=plan, name="Adopted")
    assert version.total_cost == ten_today
    extra = ActionFactory.create(
        node=Action.objects.filter(plan=plan).first().node  # type: ignore[union-attr]
        if rows
        else StructureNodeFactory.create(plan=plan),
        planned_year=chosen[0],
        interval_years=2,
        estimated_cost=Decimal("123.45"),
    )
    now_rows = rows_of(plan)
    comparison = versions_compare(old=Side(plan, version), new=Side(plan), years=list(chosen))
    assert comparison.old_totals == expected(rows, chosen)
    assert comparison.new_totals == expected(now_rows, chosen)
    assert [
        d.kind for d in comparison.differences if d.state.action_id in (str(extra.pk), extra.pk.hex)
    ] == ["added"]

    # Rule 6: a year of the ten from Y over the annual budget is a suggestion with its total.
    Plan.objects.filter(pk=plan.pk).update(annual_budget=spec["budget"])
    plan.refresh_from_db()
    suggestion_sync(plan=plan)
    peaks = {
        s.recommended_action_json["year"]: Decimal(s.recommended_action_json["total"])
        for s in Suggestion.objects.filter(
            plan=plan, suggestion_type=SuggestionType.BUDGET_PEAK, status=SuggestionStatus.OPEN
        )
    }
    totals = dict(zip(ten, expected(now_rows, ten), strict=True))
    assert peaks == {year: total for year, total in totals.items() if total > spec["budget"]}
