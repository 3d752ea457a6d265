from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from planning.figures.budget import plan_budget
from planning.models import Code
from planning.plans.selectors import action_list, code_search, plan_list_rows
from planning.tree.selectors import node_ancestors, tree_children, tree_overview
from tests.factories import (
    ActionFactory,
    CodeFactory,
    OrganisationFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def test_tree_overview_opens_sites_and_counts_what_is_below(
    django_assert_num_queries: Any,
) -> None:
    site = StructureNodeFactory.create(kind="site", name="Site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building", name="B")
    code = CodeFactory.create(code="777.7")
    StructureNodeFactory.create(plan=site.plan, parent=building, name="Roof", code=code)
    StructureNodeFactory.create(plan=site.plan, parent=building, name="Boiler", code=None)
    StructureNodeFactory.create(plan=site.plan, kind="building", name="A loose building")
    StructureNodeFactory.create()  # another plan's node stays out

    with django_assert_num_queries(2):  # the subtree counts, the shown rows
        overview = tree_overview(plan=site.plan)

    assert overview.node_count == 5
    assert [(e.name, e.expanded, e.below) for e in overview.roots] == [
        ("A loose building", False, 0),
        ("Site", True, 3),
    ]
    (shown_building,) = overview.roots[1].children
    assert (shown_building.name, shown_building.expanded, shown_building.below) == ("B", False, 2)
    children, more = tree_children(plan=site.plan, node_id=building.pk) or ([], 0)
    assert [(c.name, c.code, c.missing_code) for c in children] == [
        ("Boiler", None, True),
        ("Roof", "777.7", False),
    ]
    assert more == 0


def test_a_level_lists_at_most_its_limit_and_counts_the_rest() -> None:
    site = StructureNodeFactory.create(kind="site")
    for index in range(5):
        StructureNodeFactory.create(plan=site.plan, parent=site, name=f"N{index}")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("planning.tree.selectors.LEVEL_LIMIT", 3)
        children, more = tree_children(plan=site.plan, node_id=site.pk) or ([], 0)

    assert [c.name for c in children] == ["N0", "N1", "N2"]
    assert more == 2


def test_ancestors_of_several_nodes_come_from_one_query(django_assert_num_queries: Any) -> None:
    site = StructureNodeFactory.create(kind="site", name="Site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building", name="B")
    roof = StructureNodeFactory.create(plan=site.plan, parent=building, name="Roof")

    with django_assert_num_queries(1):
        paths = node_ancestors(plan=site.plan, nodes=[roof, site, building])

    assert [step.name for step in paths[roof.pk]] == ["Site", "B"]
    assert paths[site.pk] == []
    assert [step.name for step in paths[building.pk]] == ["Site"]


def test_budget_sums_live_actions_per_nearest_building_and_year() -> None:
    site = StructureNodeFactory.create(kind="site", name="Campus")
    hall = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building", name="Hall")
    annex = StructureNodeFactory.create(plan=site.plan, parent=hall, kind="building", name="Annex")
    roof = StructureNodeFactory.create(plan=site.plan, parent=hall, name="Roof")
    ActionFactory.create(node=roof, planned_year=2030, estimated_cost=Decimal("100.10"))
    ActionFactory.create(node=roof, planned_year=2030, estimated_cost=Decimal("0.20"))
    ActionFactory.create(node=annex, planned_year=2031, estimated_cost=Decimal("50"))
    ActionFactory.create(node=site, planned_year=2031, estimated_cost=Decimal("7"))
    ActionFactory.create(node=roof, planned_year=2031, estimated_cost=Decimal("9"), status="done")
    ActionFactory.create(node=roof, planned_year=2035, estimated_cost=Decimal("1"))  # outside

    budget = plan_budget(plan=site.plan, year_from=2030, year_to=2032)

    assert budget.years == [2030, 2031, 2032]
    assert [(row.name, row.cells, row.total) for row in budget.rows] == [
        ("Annex", [Decimal("0.00"), Decimal("50.00"), Decimal("0.00")], Decimal("50.00")),
        ("Hall", [Decimal("100.30"), Decimal("0.00"), Decimal("0.00")], Decimal("100.30")),
        ("(no building)", [Decimal("0.00"), Decimal("7.00"), Decimal("0.00")], Decimal("7.00")),
    ]
    assert budget.year_totals == [Decimal("100.30"), Decimal("57.00"), Decimal("0.00")]
    assert budget.total == Decimal("157.30")


def test_action_list_filters_by_node_subtree_and_year() -> None:
    site = StructureNodeFactory.create(kind="site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building")
    roof = StructureNodeFactory.create(plan=site.plan, parent=building)
    other = StructureNodeFactory.create(plan=site.plan, kind="site")
    on_roof_2030 = ActionFactory.create(node=roof, planned_year=2030)
    on_roof_2031 = ActionFactory.create(node=roof, planned_year=2031)
    ActionFactory.create(node=other, planned_year=2030)

    assert set(action_list(plan=site.plan, node_id=building.pk)) == {on_roof_2030, on_roof_2031}
    assert list(action_list(plan=site.plan, node_id=building.pk, year=2030)) == [on_roof_2030]
    assert action_list(plan=site.plan, year=2030).count() == 2


@pytest.mark.usefixtures("starter_catalog")
def test_code_search_matches_code_name_and_keywords() -> None:
    organisation = OrganisationFactory.create()
    assert [c.code for c in code_search(organisation_id=organisation.pk, query="334.1")] == [
        "334.1"
    ]
    assert "421.1" in [c.code for c in code_search(organisation_id=organisation.pk, query="BOILER")]
    # keyword only
    assert "461.1" in [c.code for c in code_search(organisation_id=organisation.pk, query="lift")]
    assert list(code_search(organisation_id=organisation.pk, query="no such component")) == []


def test_code_search_finds_the_organisations_own_codes_and_no_one_elses() -> None:
    mine, theirs = OrganisationFactory.create(), OrganisationFactory.create()
    CodeFactory.create(organisation=mine, code="X-1", name="Sauna stove")
    CodeFactory.create(organisation=theirs, code="X-2", name="Sauna bench")

    assert [c.code for c in code_search(organisation_id=mine.pk, query="sauna")] == ["X-1"]


def test_starter_catalog_is_loaded_as_defaults_by_the_migration() -> None:
    # No `starter_catalog` fixture: this checks migration 0003 itself. pytest-django runs
    # transactional tests (which empty the tables) after all the others.
    defaults = Code.objects.filter(is_default=True)

    assert defaults.count() >= 40
    assert not defaults.filter(unit="").exists()
    assert not defaults.filter(unit_cost__isnull=True).exists()
    assert not defaults.filter(service_life_years__isnull=True).exists()
    assert not defaults.filter(keywords="").exists()


def test_plan_list_counts_nodes_and_actions_per_plan() -> None:
    membership = PlanMembershipFactory.create()
    node = StructureNodeFactory.create(plan=membership.plan)
    StructureNodeFactory.create(plan=membership.plan)
    ActionFactory.create(node=node)
    ActionFactory.create(node=node)
    ActionFactory.create(node=node)

    other = PlanMembershipFactory.create(user=membership.user)
    ActionFactory.create(node=StructureNodeFactory.create(plan=other.plan))

    rows: Any = plan_list_rows(
        user=membership.user, plan_ids=[membership.plan.pk, other.plan.pk], year=2026
    )

    assert [(row.node_count, row.action_count) for row in rows] == [(2, 3), (1, 1)]


def test_the_tree_lists_names_in_natural_order() -> None:
    from planning.tree.selectors import tree_children, tree_overview
    from tests.factories import PlanFactory

    plan = PlanFactory.create()
    site = StructureNodeFactory.create(plan=plan, kind="site", name="Campus")
    for name in ("Building 10", "Building 2", "building 1", "Building 2a"):
        StructureNodeFactory.create(plan=plan, parent=site, kind="building", name=name)

    overview = tree_overview(plan=plan)
    children = tree_children(plan=plan, node_id=site.pk)

    expected = ["building 1", "Building 2", "Building 2a", "Building 10"]
    assert [entry.name for entry in overview.roots[0].children] == expected
    assert children is not None and [entry.name for entry in children[0]] == expected


def test_the_node_search_ranks_exact_then_prefix_then_the_rest_naturally() -> None:
    from planning.tree.selectors import node_search
    from tests.factories import PlanFactory

    plan = PlanFactory.create()
    site = StructureNodeFactory.create(plan=plan, kind="site", name="Old Building 12 annex")
    for name in ("Building 112", "Building 12", "Building 120", "Building 12b"):
        StructureNodeFactory.create(plan=plan, parent=site, kind="building", name=name)

    matches, more = node_search(plan=plan, query="building 12")

    assert [m.node.name for m in matches] == [
        "Building 12",
        "Building 12b",
        "Building 120",
        "Building 112",  # contains both words, does not start with them
        "Old Building 12 annex",
    ]
    assert not more
