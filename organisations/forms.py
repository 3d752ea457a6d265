from __future__ import annotations

from django import forms

from organisations.models import OrganisationRole


class OrganisationCreateForm(forms.Form):
    name = forms.CharField(max_length=200)


class OrganisationRenameForm(forms.Form):
    name = forms.CharField(max_length=200)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=OrganisationRole.choices)


class InvitationForm(forms.Form):
    email = forms.EmailField(max_length=254)
    role = forms.ChoiceField(choices=OrganisationRole.choices, initial=OrganisationRole.PLANNER)
