"""The plan's own fields in an import (docs/subsystems/imports.md): the optional fields a document
gives (PLAN_FIELDS: description, currency, prices, markups, budget), checked by the Plan model's
rules, and the currency of a plan whose file names none (the one chosen on the form or the
command, else the organisation's default)."""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError

from organisations.models import Organisation
from planning.figures.prices import markups_columns, markups_parse
from planning.models import Plan, plan_currency_default
from planning.models.plans import markups_validate
from planning.transfer.imports.records import ProblemCollector, RecordReader


def plan_fields_read(
    document: object, problems: ProblemCollector, *, source: str = ""
) -> dict[str, object]:
    """The optional plan fields of a document (PLAN_FIELDS) that it gives, checked by the Plan
    model's rules; a bad one is a problem of the document (no row), named by its `source` when
    the fields have a file or sheet of their own ("plan.csv", "sheet Plan")."""
    if not isinstance(document, Mapping):
        return {}
    reader = RecordReader(document, source, (0, 0), problems)
    currency = reader.text("currency")
    values: dict[str, object] = {
        "description": reader.text("description"),
        "currency": currency.strip().upper() if currency else None,  # as the Settings form
        "price_base_year": reader.year("price_base_year"),
        "index_rate_percent": reader.amount("index_rate_percent"),
        "overhead_percent": reader.amount("overhead_percent"),
        "vat_percent": reader.amount("vat_percent"),
        "annual_budget": reader.amount("annual_budget"),
    }
    raw_markups = document.get("markups")
    if raw_markups is not None and raw_markups != "":
        # The list wins over the two older fields: it is what they are derived from.
        try:
            columns = markups_columns(markups_parse(raw_markups))
            markups_validate(columns["markups"])
        except ValueError as error:
            reader.problem("markups", str(error))
        except ValidationError as error:
            reader.problem("markups", " ".join(error.messages))
        else:
            values.update(columns)
    reader.model_rules(Plan, values)
    return {field: value for field, value in values.items() if value is not None}


def import_currency_default(*, organisation: Organisation | None) -> str:
    """The currency of a plan whose file names none, unless the person importing chooses
    another: that of the organisation's most recently created plan, else the
    PLAN_DEFAULT_CURRENCY setting (docs/subsystems/imports.md "Currency"). The upload form
    offers it as its choice."""
    if organisation is not None:
        latest = (
            Plan.objects.filter(organisation=organisation)
            .order_by("-created_at", "-number")
            .values_list("currency", flat=True)
            .first()
        )
        if latest:
            return latest
    return plan_currency_default()


def import_currency_chosen(
    currency: str | None, *, organisation: Organisation | None, problems: ProblemCollector
) -> str:
    """The currency of the form or the command (checked by the Plan model's rules, a problem
    without a row), else the organisation's default."""
    if currency is None or not currency.strip():
        return import_currency_default(organisation=organisation)
    chosen = currency.strip().upper()  # as the Settings form
    RecordReader({}, "", (0, 0), problems).model_rules(Plan, {"currency": chosen})
    return chosen
