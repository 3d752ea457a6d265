"""planning.tree.walk: a building's components in tree order, depth first, siblings in natural
order; a component below a component follows it; a building inside the building is walked on
its own."""

from __future__ import annotations

import pytest

from planning.models import NodeKind
from planning.tree.walk import building_walk
from tests.factories import PlanFactory, StructureNodeFactory

pytestmark = pytest.mark.django_db


def test_the_walk_is_depth_first_in_natural_order() -> None:
    plan = PlanFactory.create()
    hall = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Hall")
    roof = StructureNodeFactory.create(plan=plan, parent=hall, kind=NodeKind.SYSTEM, name="Roof")
    boiler = StructureNodeFactory.create(plan=plan, parent=hall, name="Boiler")
    burner = StructureNodeFactory.create(plan=plan, parent=boiler, name="Burner")
    StructureNodeFactory.create(plan=plan, parent=roof, name="Tile 10")
    StructureNodeFactory.create(plan=plan, parent=roof, name="Tile 9")
    annex = StructureNodeFactory.create(plan=plan, parent=hall, kind=NodeKind.BUILDING, name="A")
    StructureNodeFactory.create(plan=plan, parent=annex, name="Annex door")
    steps = building_walk(plan=plan, building=hall)
    assert [(step.place, step.name) for step in steps] == [
        ("", "Boiler"),
        ("Boiler", "Burner"),
        ("Roof", "Tile 9"),
        ("Roof", "Tile 10"),
    ]
    assert steps[1].id == burner.pk
    assert [step.name for step in building_walk(plan=plan, building=annex)] == ["Annex door"]
