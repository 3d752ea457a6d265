"""The forms of a plan's guests page: inviting a guest from outside the plan's organisation, and a
guest's role (docs/subsystems/organisations.md)."""

from __future__ import annotations

from django import forms

from planning.models import PlanMembership, PlanRole
from planning.web.forms.fields import ModelRulesForm

GUEST_ROLE_CHOICES = [(PlanRole.EDITOR, "Editor"), (PlanRole.VIEWER, "Viewer")]


class MemberAddForm(forms.Form):
    """Invites a guest (someone outside the plan's organisation) to the plan."""

    email = forms.EmailField(max_length=254)
    role = forms.ChoiceField(choices=GUEST_ROLE_CHOICES, initial=PlanRole.VIEWER)


class MemberRoleForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = PlanMembership
        fields = ("role",)
