"""The form of the Follow-up tab: its year range, this year and the four before it unless chosen."""

from __future__ import annotations

from planning.web.forms.fields import YearRangeForm

YEARS_DEFAULT = 5  # this year and the four before it
YEARS_MAX = 30


class FollowUpForm(YearRangeForm):
    """The year range: this year and the four before it unless chosen."""

    years_default = YEARS_DEFAULT
    years_max = YEARS_MAX
