from __future__ import annotations

from typing import Any

import factory
from factory.django import DjangoModelFactory

from accounts.models import User

TEST_PASSWORD = "correct-horse-battery-42"


def _password_set(user: User, create: bool, extracted: str | None, **kwargs: Any) -> None:
    user.set_password(extracted or TEST_PASSWORD)
    if create:
        user.save(update_fields=["password"])


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"person{n}@example.com")
    name = factory.Faker("name")
    is_active = True

    password = factory.PostGeneration(_password_set)


# --- organisations ----------------------------------------------------------------------------
from organisations.models import (  # noqa: E402
    Organisation,
    OrganisationMembership,
    OrganisationRole,
)


class OrganisationFactory(DjangoModelFactory[Organisation]):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"Organisation {n}")
    slug = factory.Sequence(lambda n: f"organisation-{n}")


class OrganisationMembershipFactory(DjangoModelFactory[OrganisationMembership]):
    class Meta:
        model = OrganisationMembership

    organisation = factory.SubFactory(OrganisationFactory)
    user = factory.SubFactory(UserFactory)
    role = OrganisationRole.OWNER


# --- planning ---------------------------------------------------------------------------------
from decimal import Decimal  # noqa: E402

from planning.models import (  # noqa: E402
    Action,
    ActionKind,
    Code,
    NodeKind,
    Plan,
    PlanMembership,
    PlanRole,
    Project,
    StructureNode,
)


class PlanFactory(DjangoModelFactory[Plan]):
    """Plans get their number from the same counter as real ones (planning.plans.services)."""

    class Meta:
        model = Plan

    name = factory.Sequence(lambda n: f"Plan {n}")
    organisation = factory.SubFactory(OrganisationFactory)

    @classmethod
    def _create(cls, model_class: type[Plan], *args: Any, **kwargs: Any) -> Plan:
        from planning.plans.services.plans import plan_number_allocate

        kwargs.setdefault("number", plan_number_allocate())
        return super()._create(model_class, *args, **kwargs)


class PlanMembershipFactory(DjangoModelFactory[PlanMembership]):
    class Meta:
        model = PlanMembership

    plan = factory.SubFactory(PlanFactory)
    user = factory.SubFactory(UserFactory)
    role = PlanRole.OWNER


class CodeFactory(DjangoModelFactory[Code]):
    class Meta:
        model = Code

    code = factory.Sequence(lambda n: f"T{n:04d}")
    name = factory.Sequence(lambda n: f"Test component {n}")
    unit = "m2"
    unit_cost = Decimal("100.00")
    service_life_years = 30
    keywords = ""


class StructureNodeFactory(DjangoModelFactory[StructureNode]):
    """Nodes get their stored path and building from their parent, as the services give them
    (planning.tree.paths.node_place)."""

    class Meta:
        model = StructureNode

    plan = factory.SubFactory(PlanFactory)
    parent = None
    name = factory.Sequence(lambda n: f"Node {n}")
    kind = NodeKind.COMPONENT
    code = None
    quantity = None
    unit = ""
    install_year = None

    @classmethod
    def _create(cls, model_class: type[StructureNode], *args: Any, **kwargs: Any) -> StructureNode:
        from planning.tree.paths import node_place

        node = model_class(**kwargs)
        node_place(node)
        node.save(force_insert=True)
        return node


class ActionFactory(DjangoModelFactory[Action]):
    class Meta:
        model = Action

    node = factory.SubFactory(StructureNodeFactory)
    plan = factory.LazyAttribute(lambda action: action.node.plan)
    title = factory.Sequence(lambda n: f"Action {n}")
    kind = ActionKind.REPAIR
    planned_year = 2030
    estimated_cost = Decimal("1000.00")


class ProjectFactory(DjangoModelFactory[Project]):
    class Meta:
        model = Project

    plan = factory.SubFactory(PlanFactory)
    name = factory.Sequence(lambda n: f"Project {n}")
    year = 2030
