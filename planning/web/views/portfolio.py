"""The organisation's portfolio page and its downloads (docs/subsystems/portfolio.md "The
portfolio page"): every plan the organisation owns with its figures, filtered by name, sorted,
paged, with totals over every matching plan. Members only (organisation_member_required: 404 for
anyone else)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_http_methods

from organisations.access import organisation_context, organisation_member_required
from organisations.models import OrganisationMembership
from planning.figures.portfolio import SORT_DEFAULT, Portfolio
from planning.models import Plan
from planning.plans.portfolio import organisation_portfolio
from planning.transfer.exports.portfolio import portfolio_rows, portfolio_sheets
from planning.web.downloads import spreadsheet_download
from planning.web.forms.portfolio import PortfolioQueryForm

PLANS_PER_PAGE = 50
# The sortable columns, in the table's order: (sort name, header, descending first).
COLUMNS = (
    ("name", "Plan", False),
    ("cost", "Planned cost", True),
    ("debt", "Maintenance debt", True),
    ("fci", "FCI", True),
    ("funded", "Percent funded", False),
    ("critical", "Open critical suggestions", True),
    ("over_budget", "Years over budget", True),
)


def _portfolio(
    request: HttpRequest, membership: OrganisationMembership
) -> tuple[PortfolioQueryForm, Portfolio]:
    form = PortfolioQueryForm(request.GET or None)
    portfolio = organisation_portfolio(
        organisation=membership.organisation,
        plans=Plan.objects.all(),  # a member sees every plan of the organisation
        name=form.chosen_name(),
        sort=form.chosen_sort(),
        year=timezone.localdate().year,
    )
    return form, portfolio


@organisation_member_required()
@require_http_methods(["GET"])
def portfolio_page(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    form, portfolio = _portfolio(request, membership)
    name, sort = form.chosen_name(), form.chosen_sort()
    page = Paginator(portfolio.rows, PLANS_PER_PAGE).get_page(request.GET.get("page"))
    filters = {"q": name} if name else {}
    current = sort.lstrip("-")
    headers = []
    for column, label, descending_first in COLUMNS:
        if column == current:  # a second click turns the order round
            next_sort = column if sort.startswith("-") else f"-{column}"
            order = "descending" if sort.startswith("-") else "ascending"
        else:
            next_sort, order = (f"-{column}" if descending_first else column), ""
        headers.append(
            {
                "label": label,
                "column": column,
                "href": "?" + urlencode({**filters, "sort": next_sort}),
                "order": order,
            }
        )
    context = organisation_context(membership, "portfolio")
    context.update(
        {
            "form": form,
            "portfolio": portfolio,
            "page": page,
            "headers": headers,
            "page_query": urlencode(filters | ({"sort": sort} if sort != SORT_DEFAULT else {})),
            "download_query": urlencode({**filters, "sort": sort}),
            "name": name,
        }
    )
    return render(request, "planning/portfolio/portfolio.html", context)


@organisation_member_required()
@require_http_methods(["GET"])
def portfolio_download(
    request: HttpRequest, membership: OrganisationMembership, fmt: str
) -> HttpResponse:
    form, portfolio = _portfolio(request, membership)
    organisation = membership.organisation
    download: HttpResponse = spreadsheet_download(
        fmt=fmt,
        name=f"portfolio-{slugify(organisation.slug)}-{portfolio.year}",
        rows=lambda: portfolio_rows(portfolio),
        sheets=lambda: portfolio_sheets(
            portfolio=portfolio,
            organisation=organisation,
            made_on=timezone.localdate(),
            name=form.chosen_name(),
        ),
    )  # type: ignore[assignment]  # a StreamingHttpResponse is what the decorator passes on
    return download
