from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from accounts.models import User
from accounts.selectors import user_get_by_email
from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from planning.catalog.services import code_override_set
from planning.catalog.starter import STARTER_CATALOG
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Code,
    Plan,
)
from planning.plans.selectors import plans_visible
from planning.plans.services.actions import action_mark_done
from planning.transfer.imports.json_file import plan_import
from platform_api.demo import demo_plan_record

DEMO_EMAIL = "demo@maintplan.example"
DEMO_USER_NAME = "Demo Planner"
DEMO_PLAN_NAME = "Demo: Northfield schools and housing"
DEMO_KEY_NAME = "Demo key"
DEMO_SEED = 2024
PLAN_YEARS = 10
SHARE_WITHOUT_CODE = 0.12
SHARE_COST_OUTLIERS = 0.08
SHARE_TIMING_OUTLIERS = 0.06
SHARE_WITH_REPAIR = 0.65


@dataclass(frozen=True)
class ComponentTemplate:
    name: str
    code: str
    quantity: tuple[int, int]
    inspection_every_years: int = 0


STARTER_FIGURES = {row[0]: row for row in STARTER_CATALOG}
SYSTEMS: dict[str, list[ComponentTemplate]] = {
    "Roof": [
        ComponentTemplate("Flat roof membrane", "363.2", (300, 1500), 2),
        ComponentTemplate("Roof gutters and downpipes", "363.4", (60, 250)),
        ComponentTemplate("Rooflights", "363.5", (2, 12)),
    ],
    "Building envelope": [
        ComponentTemplate("Facade render", "335.1", (600, 2500)),
        ComponentTemplate("Facade paint", "335.2", (600, 2500)),
        ComponentTemplate("Windows", "334.2", (150, 600)),
        ComponentTemplate("Entrance doors", "334.3", (2, 6)),
        ComponentTemplate("Sun blinds", "338.1", (80, 300)),
        ComponentTemplate("Balconies", "339.1", (4, 30)),
    ],
    "Heating": [
        ComponentTemplate("Gas boiler", "421.1", (1, 3), 1),
        ComponentTemplate("Heating pipework", "422.1", (300, 1500)),
        ComponentTemplate("Radiators", "423.1", (40, 200)),
        ComponentTemplate("Radiator valves", "423.2", (40, 200)),
        ComponentTemplate("Hot water tank", "412.2", (1, 3)),
    ],
    "Ventilation": [
        ComponentTemplate("Air handling unit", "431.1", (1, 3)),
        ComponentTemplate("Ventilation ductwork", "431.2", (200, 900)),
        ComponentTemplate("Exhaust fans", "431.3", (4, 20)),
    ],
    "Electrical": [
        ComponentTemplate("Main distribution board", "444.1", (1, 2)),
        ComponentTemplate("Electrical wiring", "444.2", (1500, 6000)),
        ComponentTemplate("Lighting", "445.1", (100, 400)),
        ComponentTemplate("Photovoltaic system", "442.1", (20, 120)),
    ],
    "Sanitary": [
        ComponentTemplate("Drainage pipes", "411.1", (150, 600)),
        ComponentTemplate("Drinking water pipes", "412.1", (150, 600)),
        ComponentTemplate("Sanitary fixtures", "419.1", (20, 80)),
    ],
    "Fire safety": [
        ComponentTemplate("Fire alarm system", "456.1", (1500, 6000), 2),
        ComponentTemplate("Emergency lighting", "457.1", (30, 120)),
        ComponentTemplate("Fire doors", "344.1", (6, 24)),
        ComponentTemplate("Fire extinguishers", "474.2", (10, 40), 1),
    ],
    "Conveying": [
        ComponentTemplate("Passenger elevator", "461.1", (1, 2), 1),
    ],
}
GROUNDS: list[ComponentTemplate] = [
    ComponentTemplate("Car park paving", "521.1", (400, 2000)),
    ComponentTemplate("Fencing", "533.1", (100, 600)),
    ComponentTemplate("Exterior lighting", "541.1", (6, 30)),
    ComponentTemplate("Playground equipment", "574.1", (2, 8)),
]
SITES: list[tuple[str, list[str], list[ComponentTemplate]]] = [
    ("North campus", ["Library", "Science block", "Sports hall"], GROUNDS),
    ("Harbour quarter", ["Residential block A", "Residential block B"], GROUNDS[:3]),
]
# One building per site has its whole envelope redone in the same year, with no project yet:
# the grouping suggestion should offer to bundle those actions.
GROUPED_BUILDINGS = {"Science block": 3, "Residential block A": 5}
GROUPED_SYSTEM = "Building envelope"


class _DemoPlanBuilder:
    """Builds the demo plan as an import document (so it takes the importer's code path)."""

    def __init__(self, *, year: int, codes: dict[str, Code]) -> None:
        self.rng = random.Random(DEMO_SEED)  # noqa: S311 - demo data, not secrets
        self.year = year
        self.last_year = year + PLAN_YEARS - 1
        self.codes = codes
        self.nodes: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []

    def document(self) -> dict[str, Any]:
        for site_number, (site_name, buildings, grounds) in enumerate(SITES, start=1):
            site_ref = f"S{site_number}"
            self._node(site_ref, None, site_name, "site")
            for building_number, building_name in enumerate(buildings, start=1):
                building_ref = f"{site_ref}-B{building_number}"
                self._node(building_ref, site_ref, building_name, "building")
                for system_number, (system_name, templates) in enumerate(SYSTEMS.items(), 1):
                    system_ref = f"{building_ref}-Y{system_number}"
                    self._node(system_ref, building_ref, system_name, "system")
                    grouped_year = (
                        self.year + GROUPED_BUILDINGS[building_name]
                        if system_name == GROUPED_SYSTEM and building_name in GROUPED_BUILDINGS
                        else None
                    )
                    for index, template in enumerate(templates, start=1):
                        ref = f"{system_ref}-C{index}"
                        self._component(ref, system_ref, template, grouped_year)
            grounds_ref = f"{site_ref}-G"
            self._node(grounds_ref, site_ref, "Grounds", "system")
            for index, template in enumerate(grounds, start=1):
                self._component(f"{grounds_ref}-C{index}", grounds_ref, template, None)
        self._rules_4_to_6()
        return {
            "name": DEMO_PLAN_NAME,
            "nodes": self.nodes,
            "actions": self.actions,
            "annual_budget": self.annual_budget(),
        }

    def _rules_4_to_6(self) -> None:
        """What the suggestion rules 4 and 5 look for: components in bad condition with no
        repair planned in time, and work still open from last year."""
        envelope = "S1-B1-Y2"
        self._node(
            f"{envelope}-C90",
            envelope,
            "Balcony railings",
            "component",
            code="339.1" if "339.1" in self.codes else None,
            quantity=12,
            unit="pcs",
            install_year=self.year - 35,
            condition_grade=3,
            condition_assessed_on=f"{self.year}-03-14",
        )
        self._node(
            f"{envelope}-C91",
            envelope,
            "Basement damp proofing",
            "component",
            condition_grade=2,
            condition_assessed_on=f"{self.year}-03-14",
        )
        self._action(
            f"{envelope}-C91", "Inspect basement walls", ActionKind.INSPECTION, self.year, 400
        )
        self._action(
            "S1-B1-Y1-C2", "Clean gutters and downpipes", ActionKind.REPAIR, self.year - 1, 900
        )

    def annual_budget(self) -> int:
        """A budget that some of the ten years exceed (rule 6 suggests moving work out of them):
        a tenth over the median year's planned cost, in thousands."""
        totals = [0.0] * PLAN_YEARS
        for action in self.actions:
            offset = action["planned_year"] - self.year
            if action["status"] == ActionStatus.PLANNED and 0 <= offset < PLAN_YEARS:
                totals[offset] += action["estimated_cost"]
        return int(round(sorted(totals)[PLAN_YEARS // 2] * 1.1, -3))

    def _node(self, ref: str, parent_ref: str | None, name: str, kind: str, **extra: Any) -> None:
        node = {"ref": ref, "parent_ref": parent_ref, "name": name, "kind": kind}
        self.nodes.append({**node, **extra})

    def _component(
        self, ref: str, parent_ref: str, template: ComponentTemplate, grouped_year: int | None
    ) -> None:
        rng = self.rng
        code = self.codes.get(template.code)
        # An operator may have edited or deleted a catalog code: the starter figures stand in.
        _code, _name, default_unit, default_cost, default_life, _words = STARTER_FIGURES[
            template.code
        ]
        unit_cost = float(code.unit_cost if code and code.unit_cost else default_cost)
        life = (code.service_life_years if code else None) or default_life
        quantity = rng.randint(*template.quantity)
        # Most components fall due within the plan's ten years; the rest were renewed lately.
        if grouped_year is not None or rng.random() < 0.6:
            due_year = grouped_year or rng.randint(self.year - 2, self.last_year)
        else:
            due_year = rng.randint(self.last_year + 1, self.last_year + life)
        # Some components lack their code: the missing-code suggestion has work to do.
        node_code = code.code if code is not None and rng.random() >= SHARE_WITHOUT_CODE else None
        self._node(
            ref,
            parent_ref,
            template.name,
            "component",
            code=node_code,
            quantity=quantity,
            unit=code.unit if code else default_unit,
            install_year=due_year - life,
        )
        replacement_cost = unit_cost * quantity
        if due_year <= self.last_year:
            planned_year = max(due_year, self.year)
            if grouped_year is None and rng.random() < SHARE_TIMING_OUTLIERS:
                # At the far end of the ten years from when the catalog says it is due.
                far_end_is_first = due_year - self.year > self.last_year - due_year
                planned_year = self.year if far_end_is_first else self.last_year
            factor = rng.uniform(0.9, 1.1)
            if rng.random() < SHARE_COST_OUTLIERS:
                factor = rng.choice((rng.uniform(2.2, 3.5), rng.uniform(0.25, 0.4)))
            self._action(
                ref,
                f"Replace {template.name.lower()}",
                ActionKind.REPLACEMENT,
                planned_year,
                replacement_cost * factor,
            )
        if rng.random() < SHARE_WITH_REPAIR:
            self._action(
                ref,
                f"Repair {template.name.lower()}",
                ActionKind.REPAIR,
                rng.randint(self.year, self.last_year),
                replacement_cost * rng.uniform(0.04, 0.12),
            )
        if template.inspection_every_years:
            for planned_year in range(
                self.year, self.last_year + 1, template.inspection_every_years
            ):
                cost = max(150.0, replacement_cost * 0.01)
                self._action(
                    ref,
                    f"Inspect {template.name.lower()}",
                    ActionKind.INSPECTION,
                    planned_year,
                    cost,
                )

    def _action(self, node_ref: str, title: str, kind: str, year: int, cost: float) -> None:
        status = ActionStatus.PLANNED
        if year == self.year and kind == ActionKind.INSPECTION and self.rng.random() < 0.5:
            status = ActionStatus.DONE
        self.actions.append(
            {
                "node_ref": node_ref,
                "title": title,
                "kind": kind,
                "planned_year": year,
                "estimated_cost": round(cost, -1),
                "status": status,
            }
        )


def demo_plan_document(*, year: int) -> dict[str, Any]:
    codes = {code.code: code for code in Code.objects.all()}
    return _DemoPlanBuilder(year=year, codes=codes).document()


OVERRIDDEN_CODE, OVERRIDDEN_UNIT_COST = "334.2", Decimal("640.00")


def _demo_catalog_and_costs(*, plan: Plan, user: User) -> None:
    """The organisation's catalog at work: its own figure for PVC windows, and three
    replacements of one code done at 40 % over the reference, which the catalog's learned
    references page lists."""
    organisation = plan.organisation
    windows = Code.objects.filter(organisation__isnull=True, code=OVERRIDDEN_CODE).first()
    if windows is not None:
        code_override_set(
            organisation=organisation,
            user=user,
            code=windows,
            figures={"unit_cost": OVERRIDDEN_UNIT_COST},
        )
    replacements = Action.objects.filter(
        plan=plan,
        kind=ActionKind.REPLACEMENT,
        status=ActionStatus.PLANNED,
        node__code__organisation__isnull=True,
        node__code__unit_cost__isnull=False,
        node__quantity__gt=0,
    )
    # The code with the most replacements planned (several buildings have one).
    busiest = (
        replacements.values("node__code__code")
        .annotate(count=Count("id"))
        .order_by("-count", "node__code__code")
        .first()
    )
    roofs = (
        replacements.filter(node__code__code=busiest["node__code__code"] if busiest else "")
        .select_related("node__code")
        .order_by("planned_year", "title", "id")[:3]
    )
    for action in roofs:
        reference = action.node.code.unit_cost * action.node.quantity  # type: ignore[union-attr,operator]
        action_mark_done(
            action=action, by=user, actual_cost=(reference * Decimal("1.4")).quantize(Decimal(1))
        )


class Command(BaseCommand):
    help = (
        "Creates the demo account, its API access, a demo plan (with an adopted version, a "
        "project, work done and a dismissed suggestion) and an API key that may act on "
        "suggestions, once. Running it again changes nothing. The password and the key are "
        "printed the first time only."
    )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        done: list[str] = []
        user = user_get_by_email(email=DEMO_EMAIL)
        if user is None:
            password = secrets.token_urlsafe(12)
            user = User.objects.create_user(
                DEMO_EMAIL, password, name=DEMO_USER_NAME, api_access_enabled=True
            )
            done.append(f"Demo login: {DEMO_EMAIL}  password: {password}")
        elif not user.api_access_enabled:
            api_access_set(user=user, enabled=True)
            done.append(f"Granted API access to {DEMO_EMAIL}.")
        demo_plan = plans_visible(user=user).filter(name=DEMO_PLAN_NAME).first()
        if demo_plan is None:
            document = demo_plan_document(year=timezone.now().year)
            plan = plan_import(
                owner=user, content=json.dumps(document).encode(), filename="demo-plan.json"
            )
            done.append(
                f"Demo plan #{plan.number} {plan.name!r}: {len(document['nodes'])} nodes, "
                f"{len(document['actions'])} actions."
            )
            _demo_catalog_and_costs(plan=plan, user=user)
            done.extend(demo_plan_record(plan=plan, user=user))
        else:
            plan = demo_plan
        if not ApiKey.objects.filter(owner=user, name=DEMO_KEY_NAME).exists():
            # Read and act: the integrator guide's dismiss and restore work with it too.
            _api_key, raw_key = api_key_create(
                user=user, name=DEMO_KEY_NAME, permission=ApiKey.Permission.READ_WRITE
            )
            done.append(f"Demo API key (shown this once): {raw_key}")
        if not done:
            self.stdout.write(
                f"Demo data already in place ({DEMO_EMAIL}, plan #{plan.number}); nothing "
                f"changed. Forgot the password? manage.py changepassword {DEMO_EMAIL}"
            )
            return
        for line in done:
            self.stdout.write(line)
