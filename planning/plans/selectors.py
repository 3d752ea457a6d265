"""Reads of the planning domain. Every way to a plan goes through `plan_access_get` (or
`plans_visible`), so a plan the user may not see is indistinguishable from one that does not
exist."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypedDict

from django.core.exceptions import ValidationError
from django.db.models import (
    Case,
    CharField,
    Count,
    Exists,
    F,
    FilteredRelation,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.http import Http404

from core.text_order import natural_key
from organisations.models import OrganisationMembership
from planning.catalog.currency import (
    catalog_currency,
    catalog_currency_expression,
    usable_unit_cost,
)
from planning.catalog.starter import STARTER_CURRENCY
from planning.core.access import PlanAccess, plan_access_from
from planning.figures.totals import plans_planned_cost, project_cost, ten_years
from planning.models import (
    CENT,
    MAX_PLAN_NUMBER,
    Action,
    ActionKind,
    Attachment,
    Code,
    Completion,
    ConditionSurvey,
    Plan,
    PlanMembership,
    Project,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.tree.selectors import node_subtree

# The order of a component's surveys, newest first: the first is its current condition.
LATEST_SURVEY = ("-assessed_on", "-created_at")


def _role_of(user: Any) -> dict[str, Subquery]:
    """The user's organisation role and plan grant on each plan, as two subqueries."""
    return {
        "organisation_role": Subquery(
            OrganisationMembership.objects.filter(
                organisation=OuterRef("organisation"), user=user
            ).values("role")[:1]
        ),
        "grant_role": Subquery(
            PlanMembership.objects.filter(plan=OuterRef("pk"), user=user).values("role")[:1]
        ),
    }


def plans_visible(*, user: Any) -> QuerySet[Plan]:
    """The plans the user may see: those of their organisations and those granted to them.
    apikeys.lookup says the same in SQL for the API's plan of a request; a change
    here fails tests/apikeys/test_lookup.py until it is made there too."""
    if not getattr(user, "is_authenticated", False) or user.pk is None:
        return Plan.objects.none()
    member = OrganisationMembership.objects.filter(organisation=OuterRef("organisation"), user=user)
    grant = PlanMembership.objects.filter(plan=OuterRef("pk"), user=user)
    return Plan.objects.filter(Q(Exists(member)) | Q(Exists(grant)))


def plan_access_get(*, user: Any, number: int) -> PlanAccess:
    """The user's rights on plan `number` (with the plan and its organisation), in one query;
    Http404 when they may not see it, exactly as for a missing plan."""
    if not getattr(user, "is_authenticated", False) or not 1 <= number <= MAX_PLAN_NUMBER:
        raise Http404("No such plan")
    plan = (
        Plan.objects.filter(number=number)
        .select_related("organisation")
        .annotate(**_role_of(user))
        .first()
    )
    if plan is None:
        raise Http404("No such plan")
    access = plan_access_from(plan, plan.organisation_role, plan.grant_role)  # type: ignore[attr-defined]
    if access is None:
        raise Http404("No such plan")
    return access


def plans_with_access(*, user: Any) -> QuerySet[Plan]:
    """`plans_visible` annotated with the user's `organisation_role` and `grant_role`."""
    return plans_visible(user=user).annotate(**_role_of(user))


def _counts_by_plan(rows: QuerySet[Any], plan_ids: list[Any]) -> dict[Any, int]:
    """How many of `rows` each of these plans holds: one grouped query for all of them. (A
    count per plan in a correlated subquery let PostgreSQL, its statistics seeing one plan hold
    every row, scan a whole table once per listed plan: 320 ms for 50 plans beside one of
    100,000 actions.)"""
    return dict(
        rows.filter(plan_id__in=plan_ids)
        .order_by()
        .values("plan_id")
        .annotate(n=Count("pk"))
        .values_list("plan_id", "n")
    )


def plan_list_rows(*, user: Any, plan_ids: list[Any], year: int) -> list[Plan]:
    """The plan list's rows for these plans, in the given order: the user's roles, the counts
    of nodes, actions and open suggestions, the planned cost of the ten years from `year`
    (planning.figures.totals: today's prices, every live occurrence) and the last change
    (`updated_at`). Five queries for the page's plans, whatever their size."""
    rows = {
        plan.pk: plan
        for plan in plans_with_access(user=user)
        .filter(pk__in=plan_ids)
        .select_related("organisation")
    }
    ids = list(rows)
    nodes = _counts_by_plan(StructureNode.objects.all(), ids)
    actions = _counts_by_plan(Action.objects.all(), ids)
    open_counts = _counts_by_plan(Suggestion.objects.filter(status=SuggestionStatus.OPEN), ids)
    year_from, year_to = ten_years(year)
    costs = plans_planned_cost(plan_ids=ids, year_from=year_from, year_to=year_to)
    for plan_id, plan in rows.items():
        plan.node_count = nodes.get(plan_id, 0)  # type: ignore[attr-defined]
        plan.action_count = actions.get(plan_id, 0)  # type: ignore[attr-defined]
        plan.open_count = open_counts.get(plan_id, 0)  # type: ignore[attr-defined]
        plan.ten_year_cost = costs[plan_id]  # type: ignore[attr-defined]
    return [rows[plan_id] for plan_id in plan_ids if plan_id in rows]


def plan_ids_in_natural_order(plans: QuerySet[Plan]) -> list[Any]:
    """The ids of `plans` by name in natural order ("Building 2" before "Building 10"), then
    number: a list of ids and names, cheap even for thousands of plans, paged afterwards."""
    pairs = plans.values_list("pk", "name", "number")
    return [
        pk for pk, _name, _number in sorted(pairs, key=lambda row: (natural_key(row[1]), row[2]))
    ]


def plan_guests(*, plan: Plan) -> QuerySet[PlanMembership]:
    """The plan's grants: people outside its organisation (or above their role in it)."""
    return PlanMembership.objects.filter(plan=plan).select_related("user").order_by("user__email")


def plan_membership_by_id(*, plan: Plan, membership_id: int) -> PlanMembership:
    try:
        return PlanMembership.objects.select_related("user", "plan").get(
            plan=plan, pk=membership_id
        )
    except PlanMembership.DoesNotExist:
        raise Http404("No such member") from None


# --- structure --------------------------------------------------------------------------------


def node_get(*, plan: Plan, node_id: Any) -> StructureNode:
    try:
        return StructureNode.objects.select_related("code", "parent", "plan").get(
            plan=plan, pk=node_id
        )
    except (StructureNode.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such node") from None


# --- actions ----------------------------------------------------------------------------------


def action_list(
    *, plan: Plan, node_id: Any | None = None, year: int | None = None
) -> QuerySet[Action]:
    """The plan's actions, optionally only those in a node's subtree and/or one year."""
    actions = Action.objects.filter(plan=plan).select_related("node", "project")
    if node_id is not None:
        actions = actions.filter(node_id__in=node_subtree(node_id=node_id).values("id"))
    if year is not None:
        actions = actions.filter(planned_year=year)
    return actions.order_by("planned_year", "title", "id")


def action_get(*, plan: Plan, action_id: Any) -> Action:
    try:
        return Action.objects.select_related("node", "project", "plan").get(plan=plan, pk=action_id)
    except (Action.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such action") from None


def plan_projects(*, plan: Plan) -> QuerySet[Project]:
    return Project.objects.filter(plan=plan).order_by("year", "name")


# --- code catalog -----------------------------------------------------------------------------


class EffectiveFigures(TypedDict):
    ref_unit_cost: Decimal | None
    ref_unit_cost_currency: str
    ref_service_life_years: int | None
    ref_interval_years: int | None
    override_id: int | None


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    EffectiveCode = WithAnnotations[Code, EffectiveFigures]


def catalog_codes(*, organisation_id: Any) -> QuerySet[EffectiveCode]:
    """The organisation's effective catalog (docs/subsystems/code-catalog.md): the starter codes
    and its own, each with its effective figures `ref_unit_cost`, `ref_service_life_years` and
    `ref_interval_years` (the organisation's override where it gives one), the currency of its
    unit cost `ref_unit_cost_currency` (the starter's own figure's is STARTER_CURRENCY, any
    other the catalog's: planning.catalog.currency) and `override_id` (None when nothing is
    overridden)."""
    mine = FilteredRelation("overrides", condition=Q(overrides__organisation_id=organisation_id))
    return (
        Code.objects.filter(Q(organisation__isnull=True) | Q(organisation_id=organisation_id))
        .annotate(mine=mine)
        .annotate(
            ref_unit_cost=Coalesce(
                "mine__unit_cost", "unit_cost", output_field=Code._meta.get_field("unit_cost")
            ),
            ref_unit_cost_currency=Case(
                When(
                    Q(organisation__isnull=True, mine__unit_cost__isnull=True),
                    then=Value(STARTER_CURRENCY),
                ),
                default=catalog_currency_expression(organisation_id=organisation_id),
                output_field=CharField(),
            ),
            ref_service_life_years=Coalesce("mine__service_life_years", "service_life_years"),
            ref_interval_years=Coalesce("mine__interval_years", "interval_years"),
            override_id=F("mine__id"),
        )
    )


def code_search(
    *, organisation_id: Any, query: str = "", limit: int | None = 50
) -> QuerySet[EffectiveCode]:
    """Codes of the organisation's catalog whose code, name or keywords contain every word of
    the query, by code (at most `limit`; None: all, for a paginator)."""
    codes = catalog_codes(organisation_id=organisation_id)
    for word in (query or "").split()[:10]:
        codes = codes.filter(
            Q(code__icontains=word) | Q(name__icontains=word) | Q(keywords__icontains=word)
        )
    codes = codes.order_by("code")
    return codes if limit is None else codes[:limit]


def code_get_by_code(*, organisation_id: Any, code: str) -> EffectiveCode | None:
    return catalog_codes(organisation_id=organisation_id).filter(code=(code or "").strip()).first()


def code_effective(*, organisation_id: Any, code_id: Any) -> EffectiveCode | None:
    """One code of the organisation's catalog with its effective figures (catalog_codes)."""
    return catalog_codes(organisation_id=organisation_id).filter(pk=code_id).first()


# --- projects ---------------------------------------------------------------------------------


def project_list(*, plan: Plan) -> QuerySet[Project]:
    """The plan's projects with `action_count` and `total`
    (planning.figures.totals.project_cost)."""
    return (
        Project.objects.filter(plan=plan)
        .annotate(action_count=Count("actions"), total=project_cost())
        .order_by("year", "name", "id")
    )


def project_get(*, plan: Plan, project_id: Any) -> Project:
    try:
        return Project.objects.get(plan=plan, pk=project_id)
    except (Project.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such project") from None


# --- learned reference values -------------------------------------------------------------------
LEARNED_MIN_COMPLETIONS = 3
LEARNED_DIFFERENCE = Decimal("0.25")


@dataclass(frozen=True)
class LearnedReference:
    """What an organisation's completed replacements cost per unit of a code, against the
    code's reference in its catalog."""

    code: Any  # an EffectiveCode
    completions: int
    median: Decimal  # actual cost per unit, to the cent
    reference: Decimal | None

    @property
    def difference(self) -> Decimal | None:
        """(median - reference) / reference; None without a reference."""
        if not self.reference:
            return None
        return (self.median - self.reference) / self.reference

    @property
    def difference_percent(self) -> str:
        """The difference as people read it: "+38 %", "-30 %", "" without a reference."""
        if self.difference is None:
            return ""
        percent = (self.difference * 100).quantize(Decimal(1))
        return f"{'+' if percent > 0 else ''}{percent} %"


def learned_references(*, organisation_id: Any, code_id: Any = None) -> list[LearnedReference]:
    """The codes of the organisation's catalog whose completed replacements (with an actual
    cost, on a component with a quantity) cost per unit, as a median over at least 3 of them,
    more than 25 % off the code's reference (the largest difference first), then those with no
    reference at all (docs/subsystems/code-catalog.md "Reference values that learn"). Only the
    plans in the catalog's currency count, and a reference in another currency (a starter
    figure in a catalog that is not in STARTER_CURRENCY) counts as none."""
    currency = catalog_currency(organisation_id=organisation_id)
    completions = Completion.objects.filter(
        action__plan__organisation_id=organisation_id,
        action__plan__currency=currency,
        action__kind=ActionKind.REPLACEMENT,
        actual_cost__isnull=False,
        action__node__code__isnull=False,
        action__node__quantity__gt=0,
    )
    if code_id is not None:
        completions = completions.filter(action__node__code_id=code_id)
    per_unit: dict[Any, list[Decimal]] = {}
    for node_code_id, actual, quantity in completions.values_list(
        "action__node__code_id", "actual_cost", "action__node__quantity"
    ).iterator(chunk_size=5000):
        per_unit.setdefault(node_code_id, []).append(Decimal(str(actual)) / Decimal(str(quantity)))
    counted = {pk: costs for pk, costs in per_unit.items() if len(costs) >= LEARNED_MIN_COMPLETIONS}
    codes = catalog_codes(organisation_id=organisation_id).in_bulk(list(counted))
    found = []
    for pk, costs in counted.items():
        code = codes.get(pk)
        if code is None:
            continue  # a code the organisation no longer sees
        learned = LearnedReference(
            code=code,
            completions=len(costs),
            median=Decimal(statistics.median(costs)).quantize(CENT),
            reference=usable_unit_cost(code, currency=currency),
        )
        difference = learned.difference
        if difference is None or abs(difference) > LEARNED_DIFFERENCE:
            found.append(learned)
    found.sort(key=lambda r: (r.difference is None, -abs(r.difference or Decimal(0)), r.code.code))
    return found


# --- surveys and attachments (docs/subsystems/surveys-and-files.md) -------------------------


def node_surveys(*, node: StructureNode, limit: int = 20) -> list[ConditionSurvey]:
    """A component's latest surveys, newest first: its grades over time."""
    return list(node.surveys.select_related("assessed_by").order_by(*LATEST_SURVEY)[:limit])


def attachments_shown(
    *, node: StructureNode | None = None, action: Action | None = None, limit: int = 24
) -> tuple[list[Attachment], int]:
    """The newest `limit` files of a node or an action (its page shows these), and how many it
    has."""
    files = Attachment.objects.filter(node=node) if node is not None else None
    if files is None:
        files = Attachment.objects.filter(action=action)
    return list(files.select_related("uploaded_by").order_by("-created_at")[:limit]), files.count()


def attachment_get(*, plan: Plan, attachment_id: Any) -> Attachment:
    try:
        return Attachment.objects.get(plan=plan, pk=attachment_id)
    except (Attachment.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such file") from None
