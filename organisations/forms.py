from __future__ import annotations

from django import forms

from organisations.models import Organisation, OrganisationRole


class OrganisationCreateForm(forms.Form):
    name = forms.CharField(max_length=200)


class OrganisationRenameForm(forms.Form):
    name = forms.CharField(max_length=200)


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(choices=OrganisationRole.choices)


class InvitationForm(forms.Form):
    email = forms.EmailField(max_length=254)
    role = forms.ChoiceField(choices=OrganisationRole.choices, initial=OrganisationRole.PLANNER)


class OrganisationValueForm(forms.ModelForm[Organisation]):
    """The organisation's building value per m2 (its model's field and rules); the page that
    shows it labels it with the catalog's currency."""

    class Meta:
        model = Organisation
        fields = ("value_per_m2",)
        help_texts = {
            "value_per_m2": "What a m² of your buildings costs to build again. A building "
            "without its own replacement value is valued at its floor area times this, in "
            "plans in the catalog's currency. Empty: none."
        }
