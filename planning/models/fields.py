"""The field rules shared by the planning models, written once (docs/subsystems/domain.md "Field
rules are written once"): services run them with ``full_clean()``, the forms are ModelForms, and the
importer turns the same ValidationErrors into its problem list, so every way in refuses a bad value
with the same message."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

MIN_YEAR = 1900
MAX_YEAR = 2200
# PostgreSQL `integer`: a plan number or URL value beyond this cannot name a plan.
MAX_PLAN_NUMBER = 2_147_483_647
# Money and quantities are kept to the cent (decimal_places=2).
CENT = Decimal("0.01")


def validate_not_blank(value: str) -> None:
    """A name made only of spaces is no name (an empty one is refused by the field itself)."""
    if not value.strip():
        raise ValidationError("This field cannot be blank.", code="blank")


NAME_VALIDATORS = [validate_not_blank]
_YEAR_MESSAGE = f"Enter a year between {MIN_YEAR} and {MAX_YEAR}."
YEAR_VALIDATORS = [
    MinValueValidator(MIN_YEAR, message=_YEAR_MESSAGE),
    MaxValueValidator(MAX_YEAR, message=_YEAR_MESSAGE),
]
NOT_NEGATIVE = [MinValueValidator(0, message="Cannot be negative.")]


def choice_messages(choices: type[models.TextChoices]) -> dict[str, str]:
    """The message of a value outside `choices`, naming the allowed ones; model fields and the
    ModelForms built on them (planning.web.forms.fields.ModelRulesForm) both use it."""
    allowed = ", ".join(choices.values)
    return {"invalid_choice": f"“%(value)s” is not one of: {allowed}."}


# An action may repeat every 1 to 100 years (docs/subsystems/money.md "Recurring actions").
INTERVAL_RANGE = (1, 100)
_INTERVAL_MESSAGE = (
    f"Enter a whole number of years between {INTERVAL_RANGE[0]} and {INTERVAL_RANGE[1]}."
)
INTERVAL_VALIDATORS = [
    MinValueValidator(INTERVAL_RANGE[0], message=_INTERVAL_MESSAGE),
    MaxValueValidator(INTERVAL_RANGE[1], message=_INTERVAL_MESSAGE),
]


# --- bounds that move with the clock: docs/subsystems/money.md "Bounds of years and dates"
# Y is this year in UTC. A planned year lies within Y - 50 .. Y + 100; a completion or decision
# date from 1950-01-01 to today. The database keeps the fixed MIN_YEAR .. MAX_YEAR as its check
# constraint (a constraint cannot read the clock); these validators are the rule every way in
# applies: the model fields carry them, so the forms (planning.web.forms.fields), the services
# (`validated`) and the import (its problem list) all refuse with the same message.
PLANNED_YEARS_BACK = 50
PLANNED_YEARS_AHEAD = 100
EARLIEST_DATE = datetime.date(1950, 1, 1)


def this_year() -> int:
    """Y: this year, UTC."""
    return timezone.now().year


def today() -> datetime.date:
    """Today, UTC: no completion or decision is dated after it."""
    return timezone.now().date()


def planned_year_first() -> int:
    return this_year() - PLANNED_YEARS_BACK


def planned_year_last() -> int:
    return this_year() + PLANNED_YEARS_AHEAD


PLANNED_YEAR_VALIDATORS = [
    MinValueValidator(
        planned_year_first,
        message=f"Enter a planned year from %(limit_value)s on (at most {PLANNED_YEARS_BACK} "
        "years back).",
    ),
    MaxValueValidator(
        planned_year_last,
        message=f"Enter a planned year up to %(limit_value)s (at most {PLANNED_YEARS_AHEAD} "
        "years ahead).",
    ),
]
PAST_DATE_VALIDATORS = [
    MinValueValidator(EARLIEST_DATE, message="Enter a date from %(limit_value)s on."),
    MaxValueValidator(today, message="Enter a date no later than today (%(limit_value)s)."),
]
