"""Writes on the code catalog (docs/subsystems/code-catalog.md): the starter codes
(`code_catalog_defaults_load`), and an organisation's catalog: its own codes, its overrides of
starter codes' figures, a CSV import of both, and a learned reference taken as the
organisation's, and the currency of its figures. Each write records a CatalogChange (the
catalog's history) in its transaction. The sync needs no call from here: the change triggers
of migration 0026 leave change rows for the nodes that use a changed code, so exactly the plans
that use it re-derive them, and those of 0027 mark the organisation's plans when the currency
changes."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q

from accounts.models import User
from organisations.models import Organisation
from planning.catalog.currency import catalog_currency, catalog_currency_default
from planning.catalog.imports import CATALOG_FIGURES, catalog_csv_read
from planning.catalog.starter import STARTER_CATALOG
from planning.core.validation import validated
from planning.models import CatalogChange, Code, CodeOverride, OrganisationCatalog

OWN_FIELDS = ("name", "unit", "unit_cost", "service_life_years", "interval_years", "keywords")
STARTER_KEPT = "a starter code's name, unit and keywords stay as shipped"


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def _record(
    *,
    organisation: Organisation,
    user: User | None,
    code: str,
    summary: str,
    changes: dict[str, Any],
) -> None:
    CatalogChange.objects.create(
        organisation=organisation,
        by=user,
        code=code,
        summary=summary[:300],
        changes={field: [_plain(a), _plain(b)] for field, (a, b) in changes.items()},
    )


def _differences(before: dict[str, Any], after: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    return {
        field: (before.get(field), value)
        for field, value in after.items()
        if before.get(field) != value
    }


def organisation_code_create(
    *, organisation: Organisation, user: User | None, code: str, values: dict[str, Any]
) -> Code:
    """A new code of the organisation's own, seen by its plans only. A starter code's number
    cannot be taken: its figures are overridden instead."""
    code = (code or "").strip()
    if Code.objects.filter(organisation__isnull=True, code=code).exists():
        raise ValidationError(
            {"code": f"{code} is a starter code; change its figures for your plans instead."}
        )
    new = Code(organisation=organisation, code=code, **values)
    validated(new)
    try:
        with transaction.atomic():
            new.save(force_insert=True)
            _record(
                organisation=organisation,
                user=user,
                code=code,
                summary=f"Code {code} “{new.name}” added",
                changes={field: (None, getattr(new, field)) for field in OWN_FIELDS},
            )
    except IntegrityError:
        raise ValidationError({"code": f"Your catalog has a code {code} already."}) from None
    return new


def organisation_code_update(*, code: Code, user: User | None, values: dict[str, Any]) -> Code:
    """Changes the given fields of one of the organisation's own codes."""
    if code.organisation is None:
        raise ValidationError("A starter code is not changed; its figures are overridden.")
    before = {field: getattr(code, field) for field in OWN_FIELDS}
    for field, value in values.items():
        setattr(code, field, value)
    validated(code)
    changed = _differences(before, {field: getattr(code, field) for field in OWN_FIELDS})
    if not changed:
        return code
    with transaction.atomic():
        code.save(update_fields=list(changed))
        _record(
            organisation=code.organisation,
            user=user,
            code=code.code,
            summary=f"Code {code.code} changed: {', '.join(changed)}",
            changes=changed,
        )
    return code


def organisation_code_delete(*, code: Code, user: User | None) -> None:
    """Deletes one of the organisation's own codes; refused while a component uses it."""
    organisation = code.organisation
    if organisation is None:
        raise ValidationError("A starter code cannot be deleted.")
    try:
        with transaction.atomic():
            code.delete()
            _record(
                organisation=organisation,
                user=user,
                code=code.code,
                summary=f"Code {code.code} “{code.name}” deleted",
                changes={},
            )
    except ProtectedError as error:
        count = len(error.protected_objects)
        raise ValidationError(
            f"Code {code.code} is used by {count} component{'s' if count != 1 else ''}; "
            "assign them another code first."
        ) from None


def code_override_set(
    *, organisation: Organisation, user: User | None, code: Code, figures: dict[str, Any]
) -> CodeOverride | None:
    """The organisation's figures for a starter code (`figures`: unit_cost,
    service_life_years, interval_years; None keeps the starter's). All None removes the
    override. Returns the override, or None when there is none left."""
    if code.organisation_id is not None:
        raise ValidationError("Only a starter code's figures are overridden.")
    override = CodeOverride.objects.filter(organisation=organisation, code=code).first()
    before = {field: getattr(override, field) if override else None for field in CATALOG_FIGURES}
    after = {field: figures.get(field) for field in CATALOG_FIGURES}
    changed = _differences(before, after)
    if not changed:
        return override
    with transaction.atomic():
        if all(value is None for value in after.values()):
            if override is not None:
                override.delete()
            override = None
            summary = f"Code {code.code}: back to the starter figures"
        else:
            override = override or CodeOverride(organisation=organisation, code=code)
            for field, value in after.items():
                setattr(override, field, value)
            validated(override)
            override.save()
            summary = f"Code {code.code}: your {', '.join(changed).replace('_', ' ')}"
        _record(
            organisation=organisation, user=user, code=code.code, summary=summary, changes=changed
        )
    return override


def _override_figures(*, organisation: Organisation, code: Code) -> dict[str, Any]:
    """The organisation's figures for a starter code as they stand (None: not overridden)."""
    current = CodeOverride.objects.filter(organisation=organisation, code=code).first()
    return {field: getattr(current, field) if current else None for field in CATALOG_FIGURES}


def organisation_catalog_create(
    sender: Any, *, instance: Organisation, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    """A new organisation's catalog, in the currency new plans get (a post_save receiver of
    Organisation, connected in PlanningConfig.ready()): stored from the start, so what its
    figures are in never moves with a setting."""
    if created and not raw:
        OrganisationCatalog.objects.create(
            organisation=instance, currency=catalog_currency_default()
        )


def catalog_currency_set(
    *, organisation: Organisation, user: User | None, currency: str
) -> OrganisationCatalog:
    """Sets the currency of the organisation's own figures (its overrides and own codes; a
    starter code's own figures stay in STARTER_CURRENCY). Nothing is converted: the figures
    are read in the new currency. The change triggers (planning.db) make every synced plan
    of the organisation re-derive its suggestions."""
    before = catalog_currency(organisation_id=organisation.pk)
    catalog = OrganisationCatalog(
        organisation=organisation, currency=(currency or "").strip().upper()
    )
    validated(catalog)
    if catalog.currency == before:
        return catalog
    with transaction.atomic():
        OrganisationCatalog.objects.update_or_create(
            organisation=organisation, defaults={"currency": catalog.currency}
        )
        _record(
            organisation=organisation,
            user=user,
            code="",
            summary=f"Catalog currency changed from {before} to {catalog.currency}",
            changes={"currency": (before, catalog.currency)},
        )
    return catalog


@dataclass(frozen=True)
class CatalogImportResult:
    added: int
    changed: int
    unchanged: int
    notes: list[str]

    def describe(self) -> str:
        said = f"{self.added} added, {self.changed} changed, {self.unchanged} unchanged"
        return "; ".join([said, *self.notes])


def catalog_import(
    *,
    organisation: Organisation,
    user: User | None,
    content: bytes,
    source: str = "catalog.csv",
    currency: str | None = None,
) -> CatalogImportResult:
    """Imports a catalog CSV (planning.catalog.imports) into the organisation's catalog, all
    or nothing: a starter code's row overrides the figures it gives, any other code becomes (or
    updates) the organisation's own; importing again updates. `currency`, when given, is the
    file's, and becomes the catalog's (catalog_currency_set) in the same transaction. Raises
    ImportRejected with every problem."""
    catalog = Code.objects.filter(Q(organisation__isnull=True) | Q(organisation=organisation))
    rows = catalog_csv_read(
        content, known=set(catalog.values_list("code", flat=True)), source=source
    )
    wanted = [row.code for row in rows]
    starter = {c.code: c for c in catalog.filter(organisation__isnull=True, code__in=wanted)}
    own = {c.code: c for c in catalog.filter(organisation=organisation, code__in=wanted)}
    added = changed = unchanged = 0
    kept = False
    notes = []
    with transaction.atomic():
        if currency and currency.strip().upper() != catalog_currency(
            organisation_id=organisation.pk
        ):
            set_to = catalog_currency_set(organisation=organisation, user=user, currency=currency)
            notes.append(f"the catalog's currency is now {set_to.currency}")
        for row in rows:
            if row.code in starter:
                code = starter[row.code]
                kept |= any(field in row.values for field in ("name", "unit", "keywords"))
                before = _override_figures(organisation=organisation, code=code)
                figures = {field: row.values.get(field, before[field]) for field in CATALOG_FIGURES}
                if _differences(before, figures):
                    code_override_set(
                        organisation=organisation, user=user, code=code, figures=figures
                    )
                    changed += 1
                else:
                    unchanged += 1
            elif row.code in own:
                code = own[row.code]
                before = {field: getattr(code, field) for field in OWN_FIELDS}
                organisation_code_update(code=code, user=user, values=row.values)
                if _differences(before, {field: getattr(code, field) for field in OWN_FIELDS}):
                    changed += 1
                else:
                    unchanged += 1
            else:
                organisation_code_create(
                    organisation=organisation, user=user, code=row.code, values=row.values
                )
                added += 1
    if kept:
        notes.append(STARTER_KEPT)
    return CatalogImportResult(added=added, changed=changed, unchanged=unchanged, notes=notes)


def learned_reference_use(
    *, organisation: Organisation, user: User | None, code: Code, unit_cost: Decimal
) -> None:
    """Takes a learned cost per unit (planning.plans.selectors.learned_references) as the
    organisation's reference: an override of a starter code, or its own code's unit cost."""
    unit_cost = unit_cost.quantize(Decimal("0.01"))
    if code.organisation_id is None:
        figures = _override_figures(organisation=organisation, code=code)
        code_override_set(
            organisation=organisation,
            user=user,
            code=code,
            figures={**figures, "unit_cost": unit_cost},
        )
    elif code.organisation_id == organisation.pk:
        organisation_code_update(code=code, user=user, values={"unit_cost": unit_cost})
    else:
        raise ValidationError("No such code in your catalog.")


@transaction.atomic
def code_catalog_defaults_load() -> int:
    """Adds the starter catalog's codes that are missing (the same rows as migration 0003);
    codes already present keep their edited figures. Returns how many were added."""
    existing = set(
        Code.objects.filter(code__in=[row[0] for row in STARTER_CATALOG]).values_list(
            "code", flat=True
        )
    )
    missing = [
        Code(
            code=code,
            name=name,
            unit=unit,
            unit_cost=Decimal(unit_cost),
            service_life_years=service_life_years,
            keywords=keywords,
            is_default=True,
        )
        for code, name, unit, unit_cost, service_life_years, keywords in STARTER_CATALOG
        if code not in existing
    ]
    Code.objects.bulk_create(missing, ignore_conflicts=True)
    return len(missing)
