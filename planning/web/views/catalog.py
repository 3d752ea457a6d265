"""The organisation's catalog pages, for its owners and admins (docs/subsystems/code-catalog.md):
the effective catalog (starter codes with the organisation's figures, and its own codes),
searched and paged, and the currency of its figures; a code's page (override a starter code's
figures, or edit or delete an own code); a CSV import; and the reference values learned from
the organisation's completed work."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from organisations.access import organisation_context, organisation_member_required
from organisations.forms import OrganisationValueForm
from organisations.models import OrganisationMembership
from organisations.services import organisation_value_per_m2_set
from planning.catalog import services as catalog_services
from planning.catalog.currency import catalog_currency
from planning.catalog.starter import STARTER_CURRENCY
from planning.models import CatalogChange, CodeOverride
from planning.plans import selectors
from planning.transfer.imports.problems import ImportRejected
from planning.web.forms.catalog import (
    CatalogCurrencyForm,
    CatalogUploadForm,
    CodeOverrideForm,
    CodeSearchForm,
    OwnCodeForm,
)
from planning.web.forms.fields import form_errors_apply, form_submit

CODES_PER_PAGE = 50
CHANGES_SHOWN = 10
UPLOAD_MAX_BYTES = 2 * 1024 * 1024


def _catalog_render(
    request: HttpRequest,
    membership: OrganisationMembership,
    *,
    add_form: OwnCodeForm | None = None,
    upload_form: CatalogUploadForm | None = None,
    currency_form: CatalogCurrencyForm | None = None,
    value_form: OrganisationValueForm | None = None,
    problems: list[Any] | None = None,
    problems_more: int = 0,
    status: int = 200,
) -> HttpResponse:
    organisation = membership.organisation
    currency = catalog_currency(organisation_id=organisation.pk)
    search = CodeSearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    codes = selectors.code_search(organisation_id=organisation.pk, query=query, limit=None)
    page = Paginator(codes, CODES_PER_PAGE).get_page(request.GET.get("page"))
    context = organisation_context(membership, "catalog")
    context.update(
        {
            "search_form": search,
            "query": query,
            "query_string": urlencode({"q": query}) if query else "",
            "page": page,
            "currency": currency,
            "starter_currency": STARTER_CURRENCY,
            "currency_form": currency_form
            or CatalogCurrencyForm(prefix="currency", initial={"currency": currency}),
            "value_form": value_form or _value_form(membership, currency),
            "add_form": add_form or _own_code_form(currency, prefix="add"),
            "upload_form": upload_form
            or CatalogUploadForm(prefix="upload", initial={"currency": currency}),
            "problems": problems or [],
            "problems_more": problems_more,
            "learned_count": len(selectors.learned_references(organisation_id=organisation.pk)),
            "changes": CatalogChange.objects.filter(organisation=organisation)
            .select_related("by")
            .order_by("-id")[:CHANGES_SHOWN],
        }
    )
    return render(request, "planning/catalog/catalog.html", context, status=status)


@organisation_member_required(manage=True)
@require_http_methods(["GET", "POST"])
def catalog_page(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    """The catalog; its POST adds an own code."""
    if request.method != "POST":
        return _catalog_render(request, membership)
    form = _own_code_form(
        catalog_currency(organisation_id=membership.organisation_id), request.POST, prefix="add"
    )
    code = form_submit(
        form,
        lambda data: catalog_services.organisation_code_create(
            organisation=membership.organisation,
            user=request.user,  # type: ignore[arg-type]
            code=data["code"],
            values={k: v for k, v in data.items() if k != "code"},
        ),
    )
    if code is None:
        return _catalog_render(request, membership, add_form=form, status=400)
    messages.success(request, f"Code {code.code} “{code.name}” added to your catalog.")
    return redirect("catalog:catalog", slug=membership.organisation.slug)


def _own_code_form(currency: str, *args: Any, **kwargs: Any) -> OwnCodeForm:
    form = OwnCodeForm(*args, **kwargs)
    form.fields["unit_cost"].label = f"Unit cost ({currency})"
    return form


@organisation_member_required(manage=True)
@require_POST
def catalog_currency_change(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    """Sets the currency of the organisation's own figures; its plans re-derive."""
    form = CatalogCurrencyForm(request.POST, prefix="currency")
    catalog = form_submit(
        form,
        lambda data: catalog_services.catalog_currency_set(
            organisation=membership.organisation,
            user=request.user,  # type: ignore[arg-type]
            currency=data["currency"],
        ),
    )
    if catalog is None:
        return _catalog_render(request, membership, currency_form=form, status=400)
    messages.success(
        request,
        f"Your figures are now in {catalog.currency}: plans in {catalog.currency} compare "
        "their costs with them.",
    )
    return redirect("catalog:catalog", slug=membership.organisation.slug)


def _value_form(
    membership: OrganisationMembership, currency: str, data: Any = None
) -> OrganisationValueForm:
    form = OrganisationValueForm(data, instance=membership.organisation, prefix="value")
    form.fields["value_per_m2"].label = f"Building value per m² ({currency})"
    return form


@organisation_member_required(manage=True)
@require_POST
def catalog_value_per_m2(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    """Sets the organisation's building value per m2, in its catalog's currency: the facility
    condition index of a building without its own replacement value divides by its area times
    it (docs/subsystems/portfolio.md "Facility condition index")."""
    organisation = membership.organisation
    currency = catalog_currency(organisation_id=organisation.pk)
    form = _value_form(membership, currency, request.POST)
    saved = form_submit(
        form,
        lambda data: organisation_value_per_m2_set(
            organisation=organisation, value_per_m2=data["value_per_m2"]
        ),
    )
    if saved is None:
        organisation.refresh_from_db(fields=["value_per_m2"])
        return _catalog_render(request, membership, value_form=form, status=400)
    value = saved.value_per_m2
    messages.success(
        request,
        f"Building value per m² set to {value} {currency}."
        if value is not None
        else "Building value per m² cleared: only buildings with their own replacement value "
        "have a condition index.",
    )
    return redirect("catalog:catalog", slug=organisation.slug)


@organisation_member_required(manage=True)
@require_POST
def catalog_upload(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    form = CatalogUploadForm(request.POST, request.FILES, prefix="upload")
    if not form.is_valid():
        return _catalog_render(request, membership, upload_form=form, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > UPLOAD_MAX_BYTES:
        form.add_error("file", "The file is larger than 2 MB; a catalog is far smaller.")
        return _catalog_render(request, membership, upload_form=form, status=400)
    try:
        result = catalog_services.catalog_import(
            organisation=membership.organisation,
            user=request.user,  # type: ignore[arg-type]
            content=upload.read(),
            source=upload.name or "catalog.csv",
            currency=form.cleaned_data["currency"] or None,
        )
    except ImportRejected as rejected:
        form.add_error(None, str(rejected).splitlines()[0])
        return _catalog_render(
            request,
            membership,
            upload_form=form,
            problems=rejected.problems,
            problems_more=rejected.more,
            status=400,
        )
    except ValidationError as error:
        form_errors_apply(form, error)
        return _catalog_render(request, membership, upload_form=form, status=400)
    messages.success(request, f"Catalog imported: {result.describe()}.")
    return redirect("catalog:catalog", slug=membership.organisation.slug)


def _code_of(membership: OrganisationMembership, code_id: Any) -> Any:
    code = selectors.code_effective(organisation_id=membership.organisation_id, code_id=code_id)
    if code is None:
        raise Http404("No such code")
    return code


@organisation_member_required(manage=True)
@require_http_methods(["GET", "POST"])
def catalog_code(
    request: HttpRequest, membership: OrganisationMembership, code_id: Any
) -> HttpResponse:
    """A starter code's page holds the organisation's override; an own code's its edit form."""
    organisation = membership.organisation
    code = _code_of(membership, code_id)
    own = code.organisation_id is not None
    override = CodeOverride.objects.filter(organisation=organisation, code=code).first()
    form: OwnCodeForm | CodeOverrideForm
    currency = catalog_currency(organisation_id=organisation.pk)
    if own:
        form = _own_code_form(currency, request.POST or None, instance=code, prefix="code")
        form.fields["code"].disabled = True
    else:
        form = CodeOverrideForm(request.POST or None, instance=override, prefix="override")
        form.fields["unit_cost"].label = f"Your unit cost ({currency})"
    if request.method == "POST":
        user = request.user
        saved: object
        if own:
            saved = form_submit(
                form,
                lambda data: catalog_services.organisation_code_update(
                    code=code,
                    user=user,  # type: ignore[arg-type]
                    values={k: v for k, v in data.items() if k != "code"},
                ),
            )
        else:
            saved = form_submit(
                form,
                lambda data: (
                    catalog_services.code_override_set(
                        organisation=organisation,
                        user=user,  # type: ignore[arg-type]
                        code=code,
                        figures=data,
                    )
                    or True
                ),
            )
        if saved is not None:
            messages.success(request, f"Code {code.code} saved.")
            return redirect("catalog:catalog", slug=organisation.slug)
    context = organisation_context(membership, "catalog")
    context.update(
        {
            "code": code,
            "own": own,
            "override": override,
            "form": form,
            "starter_currency": STARTER_CURRENCY,
        }
    )
    status = 400 if request.method == "POST" else 200
    return render(request, "planning/catalog/code.html", context, status=status)


@organisation_member_required(manage=True)
@require_POST
def catalog_code_reset(
    request: HttpRequest, membership: OrganisationMembership, code_id: Any
) -> HttpResponse:
    """Back to the starter figures (the override removed), or an own code deleted."""
    code = _code_of(membership, code_id)
    try:
        if code.organisation_id is None:
            catalog_services.code_override_set(
                organisation=membership.organisation,
                user=request.user,  # type: ignore[arg-type]
                code=code,
                figures={},
            )
            messages.success(request, f"Code {code.code} is back to the starter figures.")
        else:
            catalog_services.organisation_code_delete(code=code, user=request.user)  # type: ignore[arg-type]
            messages.success(request, f"Code {code.code} deleted.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("catalog:code", slug=membership.organisation.slug, code_id=code.pk)
    return redirect("catalog:catalog", slug=membership.organisation.slug)


@organisation_member_required(manage=True)
@require_http_methods(["GET"])
def catalog_learned(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    learned = selectors.learned_references(organisation_id=membership.organisation_id)
    context = organisation_context(membership, "catalog")
    context.update(
        {
            "learned": learned,
            "currency": catalog_currency(organisation_id=membership.organisation_id),
            "min_completions": selectors.LEARNED_MIN_COMPLETIONS,
        }
    )
    return render(request, "planning/catalog/learned.html", context)


@organisation_member_required(manage=True)
@require_POST
def catalog_learned_use(
    request: HttpRequest, membership: OrganisationMembership, code_id: Any
) -> HttpResponse:
    """Takes the learned median as the organisation's reference, worked out again now (never
    a figure the page sent)."""
    organisation = membership.organisation
    code = _code_of(membership, code_id)
    found = selectors.learned_references(organisation_id=organisation.pk, code_id=code.pk)
    if not found:
        messages.error(request, f"Code {code.code} has no learned reference any more.")
    else:
        catalog_services.learned_reference_use(
            organisation=organisation,
            user=request.user,  # type: ignore[arg-type]
            code=code,
            unit_cost=found[0].median,
        )
        currency = catalog_currency(organisation_id=organisation.pk)
        messages.success(
            request,
            f"Code {code.code}: your reference is now {found[0].median} {currency} "
            f"per {code.unit or 'unit'}.",
        )
    return redirect("catalog:learned", slug=organisation.slug)
