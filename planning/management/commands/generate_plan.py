from __future__ import annotations

import random
import time
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.management import command_user, non_negative_int, plain_text, positive_int
from organisations.management import command_plan_organisation
from planning.core.validation import plan_size_check
from planning.models import ActionKind, ActionStatus, Code, NodeKind
from planning.transfer.imports.plan_document import plan_import_document
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.terminal import TerminalProgress
from planning.transfer.imports.write import imported_plan_settle, synced_line

# Shape of the tree, in nodes per parent: a site holds ~8 buildings, a building ~5 systems.
NODES_PER_SITE = 400
NODES_PER_BUILDING = 50
NODES_PER_SYSTEM = 10
SYSTEM_NAMES = ("Roof", "Facade", "Heating", "Ventilation", "Electrical", "Sanitary", "Fire")
SHARE_WITHOUT_CODE = 0.15
# Intervals of the recurring actions, by kind (years).
INTERVALS = {"inspection": (1, 2, 3, 5), "repair": (5, 8, 10, 15), "replacement": (20, 25, 30)}


def synthetic_plan_document(
    *,
    nodes: int,
    actions: int,
    seed: int,
    year: int,
    codes: list[Code],
    recurring: float = 0.0,
) -> dict[str, Any]:
    """A plan document with `nodes` nodes (sites, buildings, systems, then components) and
    `actions` actions spread over the components, the same for the same arguments; a share
    `recurring` of the actions repeats (an interval by kind)."""
    rng = random.Random(seed)  # noqa: S311 - test data, not secrets
    repeats = random.Random(seed + 1)  # noqa: S311 - its own stream: the rest stays the same
    sites = max(1, round(nodes / NODES_PER_SITE))
    buildings = min(nodes - sites, max(1, round(nodes / NODES_PER_BUILDING)))
    systems = min(nodes - sites - buildings, max(1, round(nodes / NODES_PER_SYSTEM)))
    components = nodes - sites - buildings - systems
    document_nodes: list[dict[str, Any]] = []
    for index in range(sites):
        document_nodes.append({"ref": f"S{index}", "name": f"Site {index + 1}", "kind": "site"})
    for index in range(buildings):
        document_nodes.append(
            {
                "ref": f"B{index}",
                "parent_ref": f"S{index % sites}",
                "name": f"Building {index + 1}",
                "kind": NodeKind.BUILDING,
            }
        )
    for index in range(systems):
        document_nodes.append(
            {
                "ref": f"Y{index}",
                "parent_ref": f"B{index % buildings}",
                "name": f"{SYSTEM_NAMES[index % len(SYSTEM_NAMES)]} {index + 1}",
                "kind": NodeKind.SYSTEM,
            }
        )
    leaves: list[tuple[str, Code | None, float]] = []
    for index in range(components):
        code = rng.choice(codes) if codes and rng.random() >= SHARE_WITHOUT_CODE else None
        quantity = float(rng.randint(1, 800))
        ref = f"C{index}"
        document_nodes.append(
            {
                "ref": ref,
                "parent_ref": f"Y{index % systems}",
                "name": f"{code.name if code else 'Component'} {index + 1}",
                "kind": NodeKind.COMPONENT,
                "code": code.code if code else None,
                "quantity": quantity,
                "unit": code.unit if code else "pcs",
                "install_year": rng.randint(year - 60, year),
            }
        )
        leaves.append((ref, code, quantity))
    if not leaves:  # a tiny plan: actions go on whatever nodes there are
        leaves = [(node["ref"], None, 1.0) for node in document_nodes]
    kinds = ActionKind.values
    document_actions = []
    for index in range(actions):
        ref, code, quantity = leaves[index % len(leaves)]
        unit_cost = float(code.unit_cost) if code and code.unit_cost else 100.0
        kind = rng.choice(kinds)
        share = {"inspection": 0.02, "repair": 0.15}.get(kind, 1.0)
        action = {
            "node_ref": ref,
            "title": f"{kind.capitalize()} {index + 1}",
            "kind": kind,
            "planned_year": year + rng.randint(0, 9),
            "estimated_cost": round(unit_cost * quantity * share * rng.uniform(0.7, 1.3), 2),
            "status": ActionStatus.PLANNED,
        }
        if recurring and repeats.random() < recurring:
            action["interval_years"] = repeats.choice(INTERVALS[kind])
        document_actions.append(action)
    return {
        "name": f"Synthetic plan ({nodes} nodes, {actions} actions)",
        "nodes": document_nodes,
        "actions": document_actions,
    }


class Command(BaseCommand):
    help = (
        "Creates a large synthetic plan through the plan importer (for benchmarks) and prints "
        "its number alone on the last line. The same --seed gives the same plan."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--nodes", type=positive_int, required=True, metavar="N")
        parser.add_argument("--actions", type=non_negative_int, required=True, metavar="M")
        parser.add_argument("--owner", type=plain_text, required=True, metavar="EMAIL")
        parser.add_argument("--name", type=plain_text)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--org",
            type=plain_text,
            default=None,
            metavar="SLUG",
            help="The organisation the plan goes into (default: the owner's personal one); "
            "the owner must be one of its owners, admins or planners.",
        )
        parser.add_argument(
            "--recurring",
            type=float,
            default=0.0,
            metavar="SHARE",
            help="share of the actions that repeat (0 to 1, e.g. 0.33)",
        )

    def handle(
        self,
        *args: Any,
        nodes: int,
        actions: int,
        owner: str,
        org: str | None,
        name: str | None,
        seed: int,
        recurring: float,
        **options: Any,
    ) -> None:
        if not 0 <= recurring <= 1:
            raise CommandError("--recurring is a share between 0 and 1.")
        try:  # before building a document that the import would refuse anyway
            plan_size_check(nodes=nodes, actions=actions)
        except ValidationError as error:
            raise CommandError(
                " ".join(error.messages)
                + " The limits are the PLAN_MAX_NODES and PLAN_MAX_ACTIONS settings."
            ) from None
        user = command_user(owner)
        organisation = command_plan_organisation(slug=org, user=user)
        started = time.perf_counter()
        document = synthetic_plan_document(
            nodes=nodes,
            actions=actions,
            seed=seed,
            year=timezone.now().year,
            codes=list(Code.objects.order_by("code")),
            recurring=recurring,
        )
        built = time.perf_counter()
        try:
            plan = plan_import_document(
                owner=user,
                organisation=organisation,
                document=document,
                name=name,
                source="generated",
                observer=TerminalProgress(self.stderr._out),
            )
        except ImportRejected as rejected:  # a bug here, not bad input: say what it was
            raise CommandError(str(rejected)) from None
        imported = time.perf_counter()
        synced = imported_plan_settle(plan=plan, rows=nodes + actions)
        finished = time.perf_counter()
        self.stdout.write(
            f"Generated plan #{plan.number} {plan.name!r}: {nodes} nodes, {actions} actions "
            f"(document {built - started:.2f}s, import {imported - built:.2f}s, "
            f"first sync {finished - imported:.2f}s, {synced_line(synced)})."
        )
        self.stdout.write(str(plan.number))
