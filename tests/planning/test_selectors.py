from __future__ import annotations

from typing import Any

import pytest

from planning.models import Code
from planning.selectors import (
    action_list,
    code_search,
    plan_memberships_for_user,
    structure_flat,
    structure_tree,
)
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def test_tree_is_built_from_one_query(django_assert_num_queries: Any) -> None:
    site = StructureNodeFactory.create(kind="site", name="Site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building", name="B")
    code = CodeFactory.create(code="777.7")
    StructureNodeFactory.create(plan=site.plan, parent=building, name="Roof", code=code)
    StructureNodeFactory.create(plan=site.plan, parent=building, name="Boiler")
    StructureNodeFactory.create()  # another plan's node stays out

    with django_assert_num_queries(1):  # the codes come with the nodes (select_related)
        tree = structure_tree(plan=site.plan)
        names = [(item.node.name, item.depth) for item in _walk(tree)]
        codes = [item.node.code.code if item.node.code else None for item in _walk(tree)]

    assert names == [("Site", 0), ("B", 1), ("Boiler", 2), ("Roof", 2)]
    assert codes == [None, None, None, "777.7"]


def _walk(items: list[Any]) -> list[Any]:
    return [entry for item in items for entry in [item, *_walk(item.children)]]


def test_flat_tree_lists_nodes_depth_first() -> None:
    first = StructureNodeFactory.create(kind="site", name="A site")
    StructureNodeFactory.create(plan=first.plan, kind="site", name="Z site")
    StructureNodeFactory.create(plan=first.plan, parent=first, kind="building", name="M building")

    assert [item.node.name for item in structure_flat(plan=first.plan)] == [
        "A site",
        "M building",
        "Z site",
    ]


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
    assert [c.code for c in code_search(query="334.1")] == ["334.1"]
    assert "421.1" in [c.code for c in code_search(query="BOILER")]
    assert "461.1" in [c.code for c in code_search(query="lift")]  # keyword only
    assert list(code_search(query="no such component anywhere")) == []


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

    row: Any = plan_memberships_for_user(user=membership.user).get()

    assert (row.node_count, row.action_count) == (2, 3)
