"""Changing several rows at once (planning.web.bulk, docs/subsystems/web-app.md "Several at
once"): the ticked rows or every match of the list's filters, beyond the page shown, in one
transaction with one Undo, bounded by BULK_MAX, and refused when the matches changed."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    NodeKind,
    Plan,
    PlanRole,
    Project,
    Suggestion,
)
from planning.suggestions.sync.run import suggestion_sync
from planning.web import bulk
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def plan_with_roofs(user: Any, count: int, *, role: str = PlanRole.OWNER) -> Plan:
    """`count` roofs in one house, each with a replacement in 2030 at three times the reference
    (a cost deviation each) and a repair in 2031 (no suggestion): more rows than a page holds."""
    plan = PlanFactory.create(name="Harbour house")
    PlanMembershipFactory.create(plan=plan, user=user, role=role)
    code = CodeFactory.create(name="Roof membrane", keywords="membrane", unit_cost=Decimal("100"))
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House A")
    for i in range(count):
        roof = StructureNodeFactory.create(
            plan=plan, parent=house, name=f"Roof {i:02d}", code=code, quantity=Decimal("10")
        )
        ActionFactory.create(
            node=roof,
            title=f"Replace roof {i:02d}",
            kind=ActionKind.REPLACEMENT,
            planned_year=2030,
            estimated_cost=Decimal("3000.00"),
        )
        ActionFactory.create(
            node=roof,
            title=f"Repair roof {i:02d}",
            kind=ActionKind.REPAIR,
            planned_year=2031,
            estimated_cost=Decimal("10.00"),
        )
    suggestion_sync(plan=plan)
    return plan


def _actions_url(plan: Plan, tail: str = "") -> str:
    return f"{reverse('planning:plan_actions', args=[plan.number])}{tail}"


def _bulk(client: Client, plan: Plan, **data: Any) -> Any:
    return client.post(_actions_url(plan, "bulk/"), data, follow=True)


def _undo(client: Client, response: Any) -> Any:
    """Presses the Undo button of the confirmation the change redirected to."""
    page = response.content.decode()
    assert 'class="inline undo"' in page
    url = page.split('class="inline undo"')[0].rsplit('action="', 1)[1].split('"')[0]
    return client.post(url, follow=True)


def _years(plan: Plan, kind: str) -> list[int]:
    return sorted(set(plan.actions.filter(kind=kind).values_list("planned_year", flat=True)))


def test_every_match_moves_beyond_the_page_and_one_undo_puts_each_back(
    client: Client, user: Any
) -> None:
    plan = plan_with_roofs(user, 30)  # 60 actions: two pages of 50
    Action.objects.filter(plan=plan, title="Repair roof 00").update(planned_year=2033)
    client.force_login(user)

    response = _bulk(
        client,
        plan,
        scope="matching",
        match_count=30,
        kind="repair",  # the list's filter, sent along
        change="year",
        to_year=2035,
    )

    assert "Moved 30 actions to 2035." in response.content.decode()
    assert _years(plan, ActionKind.REPAIR) == [2035]
    assert _years(plan, ActionKind.REPLACEMENT) == [2030]  # outside the filter: untouched
    _undo(client, response)
    assert plan.actions.get(title="Repair roof 00").planned_year == 2033
    assert _years(plan, ActionKind.REPAIR) == [2031, 2033]


def test_the_ticked_ones_only_and_done_ones_keep_their_year(client: Client, user: Any) -> None:
    plan = plan_with_roofs(user, 3)
    done = plan.actions.get(title="Repair roof 02")
    done.status = ActionStatus.DONE
    done.save()
    ticked = [str(a.pk) for a in plan.actions.filter(title__startswith="Repair")]
    client.force_login(user)

    response = _bulk(client, plan, action=ticked, change="year", to_year=2034)

    text = response.content.decode()
    assert "Moved 2 actions to 2034. 1 action of the 3 stay as they were" in text
    done.refresh_from_db()
    assert done.planned_year == 2031
    assert plan.actions.filter(planned_year=2034).count() == 2


def test_every_match_goes_into_a_project_and_out_again(client: Client, user: Any) -> None:
    plan = plan_with_roofs(user, 30)
    roofs = Project.objects.create(plan=plan, name="Roofs 2030", year=2030)
    client.force_login(user)
    into = {"scope": "matching", "match_count": 30, "kind": "replacement", "change": "project"}

    response = _bulk(client, plan, **into, to_project=str(roofs.pk))

    assert "Put 30 actions in the project “Roofs 2030”." in response.content.decode()
    assert roofs.actions.count() == 30
    _undo(client, response)
    assert roofs.actions.count() == 0
    _bulk(client, plan, **into, to_project=str(roofs.pk))
    out = _bulk(client, plan, **into, to_project="none")
    assert "Took 30 actions out of their projects." in out.content.decode()
    assert roofs.actions.count() == 0


def test_more_matches_than_the_limit_change_nothing(
    client: Client, user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bulk, "BULK_MAX", 10)
    plan = plan_with_roofs(user, 6)
    client.force_login(user)

    response = _bulk(client, plan, scope="matching", match_count=12, change="year", to_year=2035)

    assert (
        "Nothing changed. 12 actions match these filters, and one change acts on at most 10: "
        "narrow the filters and change them in parts."
    ) in response.content.decode()
    assert not plan.actions.filter(planned_year=2035).exists()


def test_matches_that_changed_since_the_page_change_nothing(client: Client, user: Any) -> None:
    plan = plan_with_roofs(user, 3)
    client.force_login(user)

    response = _bulk(client, plan, scope="matching", match_count=5, change="year", to_year=2035)

    assert "6 actions match now, 5 then. Nothing was changed" in response.content.decode()
    assert not plan.actions.filter(planned_year=2035).exists()


def test_nothing_ticked_and_no_year_are_said_plainly(client: Client, user: Any) -> None:
    plan = plan_with_roofs(user, 1)
    client.force_login(user)

    nothing = _bulk(client, plan, change="year", to_year=2035).content.decode()
    no_year = _bulk(client, plan, scope="matching", match_count=2, change="year").content.decode()

    assert "Nothing changed. Tick the actions to change, or choose every match." in nothing
    assert "Give the year to move them to." in no_year


def test_a_viewer_cannot_change_several(client: Client, user: Any) -> None:
    plan = plan_with_roofs(user, 1, role=PlanRole.VIEWER)
    client.force_login(user)

    response = client.post(
        _actions_url(plan, "bulk/"),
        {"scope": "matching", "match_count": 2, "change": "year", "to_year": 2035},
    )

    assert response.status_code == 403
    assert not plan.actions.filter(planned_year=2035).exists()
    assert 'id="bulk-actions"' not in client.get(_actions_url(plan)).content.decode()


def test_every_matching_suggestion_is_dismissed_and_one_undo_restores_them(
    client: Client, user: Any
) -> None:
    plan = plan_with_roofs(user, 30)  # 30 cost deviations (and two groupings): two pages
    deviations = Suggestion.objects.filter(plan=plan, suggestion_type="deviation")
    earlier = deviations.first()
    assert earlier is not None
    client.force_login(user)
    planning = reverse("planning:action_planning", args=[plan.number])
    client.post(
        f"{planning}suggestions/{earlier.pk}/dismiss/", {"reason": "accepted", "next": planning}
    )
    page = client.get(planning, {"suggestion_type": "deviation"}).content.decode()
    assert "All 29 that match these filters, on every page" in page

    response = client.post(
        f"{planning}suggestions/dismiss/",
        {
            "scope": "matching",
            "match_count": 29,
            "suggestion_type": "deviation",
            "reason": "planned_elsewhere",
            "next": f"{planning}?suggestion_type=deviation#suggestions",
        },
        follow=True,
    )

    assert "Dismissed 29 suggestions." in response.content.decode()
    assert deviations.filter(status="open").count() == 0
    # the groupings are no deviations: they stay open
    assert Suggestion.objects.filter(plan=plan, status="open").count() == 2
    restored = _undo(client, response)
    assert "Restored 29 suggestions: open again." in restored.content.decode()
    assert deviations.filter(status="open").count() == 29
    # the one dismissed on its own before is no part of that Undo
    earlier.refresh_from_db()
    assert earlier.status == "dismissed"


def test_the_condition_filter_is_kept_and_every_match_under_it_changes(
    client: Client, user: Any
) -> None:
    """The Actions tab keeps the Condition filter in its links and sends it with a change of
    every match, so the server counts the same matches the page showed."""
    plan = plan_with_roofs(user, 4)
    plan.nodes.filter(name__in=["Roof 00", "Roof 01"]).update(condition_grade=3)
    client.force_login(user)

    page = client.get(_actions_url(plan, "?kind=repair&condition=3")).content.decode()
    assert '<input type="hidden" name="condition" value="3">' in page
    assert '<input type="hidden" name="match_count" value="2">' in page
    assert "condition=3" in page  # the sort and page links keep it

    response = _bulk(
        client,
        plan,
        scope="matching",
        match_count=2,
        kind="repair",
        condition="3",
        change="year",
        to_year=2035,
    )
    assert "Moved 2 actions to 2035." in response.content.decode()
    assert plan.actions.filter(kind=ActionKind.REPAIR, planned_year=2035).count() == 2
