"""A person's rights on a plan, from their organisation role and their plan grant
(docs/subsystems/organisations.md): the higher of the two. Pure: no database."""

from __future__ import annotations

from dataclasses import dataclass

from organisations.models import OrganisationRole
from planning.models import Plan, PlanRole

# What each organisation role gives on the organisation's plans.
ORGANISATION_ROLE_ON_PLANS = {
    OrganisationRole.OWNER: PlanRole.OWNER,
    OrganisationRole.ADMIN: PlanRole.OWNER,
    OrganisationRole.PLANNER: PlanRole.EDITOR,
    OrganisationRole.VIEWER: PlanRole.VIEWER,
}
PLAN_ROLE_RANK = {PlanRole.VIEWER: 1, PlanRole.EDITOR: 2, PlanRole.OWNER: 3}


@dataclass(frozen=True)
class PlanAccess:
    """What one person may do with one plan. `role` is the effective one: owner (change the
    plan, its guests, delete it), editor (change it) or viewer (see and export it)."""

    plan: Plan
    role: PlanRole
    organisation_role: OrganisationRole | None
    grant_role: PlanRole | None

    @property
    def can_edit(self) -> bool:
        return self.role in (PlanRole.OWNER, PlanRole.EDITOR)

    @property
    def can_manage(self) -> bool:
        """Change the plan's guests and delete the plan."""
        return self.role == PlanRole.OWNER

    @property
    def plan_id(self) -> object:
        return self.plan.pk

    def get_role_display(self) -> str:
        if self.organisation_role is not None and (
            self.grant_role is None
            or PLAN_ROLE_RANK[ORGANISATION_ROLE_ON_PLANS[self.organisation_role]]
            >= PLAN_ROLE_RANK[self.grant_role]
        ):
            return f"{OrganisationRole(self.organisation_role).label} of {self.plan.organisation}"
        assert self.grant_role is not None  # no access at all is no PlanAccess
        return f"{PlanRole(self.grant_role).label} (guest)"


def plan_access_from(
    plan: Plan, organisation_role: str | None, grant_role: str | None
) -> PlanAccess | None:
    """The access these two roles give (None: no access at all)."""
    candidates = []
    if organisation_role:
        candidates.append(ORGANISATION_ROLE_ON_PLANS[OrganisationRole(organisation_role)])
    if grant_role:
        candidates.append(PlanRole(grant_role))
    if not candidates:
        return None
    return PlanAccess(
        plan=plan,
        role=max(candidates, key=PLAN_ROLE_RANK.__getitem__),
        organisation_role=OrganisationRole(organisation_role) if organisation_role else None,
        grant_role=PlanRole(grant_role) if grant_role else None,
    )
