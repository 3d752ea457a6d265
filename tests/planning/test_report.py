"""The board report (docs/subsystems/board-report.md "Board report"): its content against a
recomputation from the actions, the PDF's text read back with pdftotext, the job behind the Report
tab (queue
share, kept reports, a failure), and `manage.py plan_report`."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.figures.occurrences import occurrence_years
from planning.figures.prices import NOMINAL, TODAY, Markup, PriceIndex, figure_wording
from planning.figures.totals import plan_horizon
from planning.models import (
    ActionStatus,
    NodeKind,
    Plan,
    PlanReport,
    PlanReportStatus,
    PlanRole,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionType,
)
from planning.plans.services.actions import action_mark_done
from planning.plans.services.nodes import node_move
from planning.plans.services.plans import plan_money_update
from planning.records.adoption import plan_adopt
from planning.records.comparison import ActionDifference, ActionState
from planning.reports.budget_tables import BUILDING_ROWS
from planning.reports.changes import change_wording
from planning.reports.content import report_content
from planning.reports.largest import largest_occurrences
from planning.reports.pdf import report_pdf
from tests.conftest import run_queued_jobs
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

THIS_YEAR = timezone.localdate().year


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (Debian poppler-utils) is needed: .ci/run installs it")
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(name="Harbour Housing Co-op", price_base_year=THIS_YEAR)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    east = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="East house")
    west = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="West house")
    roof = StructureNodeFactory.create(plan=plan, parent=east, name="Roof")
    boiler = StructureNodeFactory.create(plan=plan, parent=west, name="Boiler")
    ActionFactory.create(
        node=roof, title="New roof", planned_year=THIS_YEAR + 1, estimated_cost=Decimal("80000")
    )
    ActionFactory.create(
        node=boiler,
        title="Service boiler",
        planned_year=THIS_YEAR,
        interval_years=2,
        estimated_cost=Decimal("1200.50"),
    )
    ActionFactory.create(  # after the ten years: it makes the plan's horizon 13 years
        node=boiler, title="Far away", planned_year=THIS_YEAR + 12, estimated_cost=Decimal("999")
    )
    return plan


def _expected_total(plan: Plan, *, first: int, last: int, prices: str) -> Decimal:
    """The plan's total of the years, recomputed from its actions by
    docs/subsystems/money.md "Money"."""
    index = PriceIndex.of(plan)
    total = Decimal(0)
    for action in plan.actions.filter(status="planned"):
        for year in occurrence_years(
            planned_year=action.planned_year,
            interval_years=action.interval_years,
            first=first,
            last=last,
        ):
            cost = action.estimated_cost
            total += index.nominal(cost, year) if prices == NOMINAL else cost
    return total


@pytest.mark.parametrize("prices", [TODAY, NOMINAL])
def test_the_report_totals_equal_a_recomputation_from_the_actions(plan: Plan, prices: str) -> None:
    plan.index_rate_percent = Decimal("3")
    plan.vat_percent = Decimal("24")
    plan.save()
    content = report_content(plan=plan, prices=prices)
    last = THIS_YEAR + 12  # "Far away": the plan's horizon reaches it
    expected = _expected_total(plan, first=THIS_YEAR, last=last, prices=prices)
    assert content.budget.years == list(range(THIS_YEAR, last + 1))
    assert content.budget.total == expected
    ten = _expected_total(plan, first=THIS_YEAR, last=THIS_YEAR + 9, prices=prices)
    assert content.ten_years_total == ten
    assert content.key_figures.plan.ten_year_cost == _expected_total(
        plan, first=THIS_YEAR, last=THIS_YEAR + 9, prices=TODAY
    )
    if prices == NOMINAL:
        assert expected > _expected_total(plan, first=THIS_YEAR, last=last, prices=TODAY)


def test_the_largest_occurrences_count_a_recurring_action_once_per_occurrence(plan: Plan) -> None:
    found = largest_occurrences(plan=plan, year_from=THIS_YEAR, year_to=THIS_YEAR + 4, prices=TODAY)
    assert [(o.title, o.year, o.cost) for o in found] == [
        ("New roof", THIS_YEAR + 1, Decimal("80000.00")),
        ("Service boiler", THIS_YEAR, Decimal("1200.50")),
        ("Service boiler", THIS_YEAR + 2, Decimal("1200.50")),
        ("Service boiler", THIS_YEAR + 4, Decimal("1200.50")),
    ]
    assert [o.building for o in found] == ["East house", "West house", "West house", "West house"]
    assert found[1].recurring and not found[0].recurring
    two = largest_occurrences(
        plan=plan, year_from=THIS_YEAR, year_to=THIS_YEAR + 4, prices=TODAY, limit=2
    )
    assert [(o.title, o.year) for o in two] == [
        ("New roof", THIS_YEAR + 1),
        ("Service boiler", THIS_YEAR),
    ]


def test_nominal_occurrences_grow_with_their_year(plan: Plan) -> None:
    plan.index_rate_percent = Decimal("10")
    plan.save()
    boiler = [
        o
        for o in largest_occurrences(
            plan=plan, year_from=THIS_YEAR, year_to=THIS_YEAR + 4, prices=NOMINAL
        )
        if o.title == "Service boiler"
    ]
    index = PriceIndex.of(plan)
    assert [o.cost for o in boiler] == [
        index.nominal(Decimal("1200.50"), year)
        for year in (THIS_YEAR + 4, THIS_YEAR + 2, THIS_YEAR)
    ]


def test_many_buildings_show_the_costliest_and_sum_the_rest(plan: Plan) -> None:
    for number in range(BUILDING_ROWS + 5):
        building = StructureNodeFactory.create(
            plan=plan, kind=NodeKind.BUILDING, name=f"Block {number}"
        )
        ActionFactory.create(
            node=building, planned_year=THIS_YEAR, estimated_cost=Decimal(100 + number)
        )
    content = report_content(plan=plan)
    [buildings, total] = content.pages[0].buildings  # no sites: one group, then the total
    shown = [row for row in buildings if row.role == "building"]
    [others] = [row for row in buildings if row.role == "others"]
    assert len(shown) == BUILDING_ROWS
    assert others.label == "7 other buildings"  # 47 buildings with cost
    assert sum((row.total or Decimal(0) for row in buildings), Decimal(0)) == content.budget.total
    assert total[0].total == content.budget.total
    assert "Block 0" not in {row.label for row in shown}  # among the cheapest
    assert content.buildings_summed


def test_the_pdf_holds_the_name_the_totals_the_years_and_the_critical_suggestions(
    plan: Plan, tmp_path: Path
) -> None:
    roof = plan.nodes.get(name="Roof")
    Suggestion.objects.create(
        plan=plan,
        suggestion_type=SuggestionType.DEVIATION,
        severity=Severity.CRITICAL,
        title="Replacement cost on “Roof” deviates from the reference",
        body="Far above the reference.",
        structure_node=roof,
        fingerprint="test",
    )
    pdf = report_pdf(plan=plan)
    assert pdf.startswith(b"%PDF-")
    text = _pdf_text(pdf, tmp_path)
    assert "Harbour Housing Co-op" in text
    for last in (THIS_YEAR + 12, THIS_YEAR + 9):  # the horizon's total, the first ten years'
        total = _expected_total(plan, first=THIS_YEAR, last=last, prices=TODAY)
        assert f"{total:,.2f} EUR" in text
    for year in range(THIS_YEAR, THIS_YEAR + 13):
        assert str(year) in text
    assert "Replacement cost on “Roof” deviates from the reference" in text
    assert "New roof" in text and "Far away" not in text  # not among the next five years


def test_the_pdf_lists_the_changes_since_the_last_adopted_version(
    plan: Plan, tmp_path: Path
) -> None:
    assert "The plan has not been adopted yet" in _pdf_text(report_pdf(plan=plan), tmp_path)
    plan_adopt(plan=plan, name="Adopted in spring", decided_on=timezone.localdate())
    plan.actions.filter(title="New roof").update(estimated_cost=Decimal("95000"))
    text = " ".join(_pdf_text(report_pdf(plan=plan), tmp_path).split())  # lines wrap
    assert "Compared with version 1 “Adopted in spring”" in text
    assert "0 actions added, 0 removed, 1 changed" in text
    assert "(+15,000.00 EUR)" in text
    assert "estimated cost 80,000.00 → 95,000.00" in text


def test_the_horizon_runs_to_the_last_planned_year_at_least_ten_at_most_thirty_years(
    plan: Plan,
) -> None:
    empty = PlanFactory.create()
    assert plan_horizon(plan=empty, year=THIS_YEAR) == (THIS_YEAR, THIS_YEAR + 9)
    assert plan_horizon(plan=plan, year=THIS_YEAR) == (THIS_YEAR, THIS_YEAR + 12)
    node = plan.nodes.get(name="Roof")
    ActionFactory.create(node=node, planned_year=THIS_YEAR + 25, status=ActionStatus.DONE)
    ActionFactory.create(node=node, planned_year=THIS_YEAR + 26, status=ActionStatus.CANCELLED)
    assert plan_horizon(plan=plan, year=THIS_YEAR) == (THIS_YEAR, THIS_YEAR + 12)
    ActionFactory.create(node=node, planned_year=THIS_YEAR + 19)
    assert plan_horizon(plan=plan, year=THIS_YEAR) == (THIS_YEAR, THIS_YEAR + 19)
    ActionFactory.create(node=node, planned_year=THIS_YEAR + 40)
    assert plan_horizon(plan=plan, year=THIS_YEAR) == (THIS_YEAR, THIS_YEAR + 29)


def test_the_budget_tables_are_cut_into_pages_of_ten_years(plan: Plan) -> None:
    node = plan.nodes.get(name="Roof")
    ActionFactory.create(node=node, planned_year=THIS_YEAR + 24, estimated_cost=Decimal("7"))
    ActionFactory.create(node=node, planned_year=THIS_YEAR + 35)  # after the 30 years
    content = report_content(plan=plan)
    assert (content.year_from, content.year_to) == (THIS_YEAR, THIS_YEAR + 29)
    assert [page.years for page in content.pages] == [
        list(range(THIS_YEAR, THIS_YEAR + 10)),
        list(range(THIS_YEAR + 10, THIS_YEAR + 20)),
        list(range(THIS_YEAR + 20, THIS_YEAR + 30)),
    ]
    assert [page.whole for page in content.pages] == [False, False, True]
    assert content.later_actions == 1
    for page in content.pages:
        [total] = page.buildings[-1]
        assert total.span_total == sum(total.cells, Decimal(0))
        assert [row.label for row in page.kinds] == ["Inspection", "Repair", "Replacement", "Total"]
        assert page.kinds[-1].cells == total.cells  # the kinds add up to the same years
    assert content.pages[-1].buildings[-1][0].total == content.budget.total


def test_buildings_are_grouped_by_their_nearest_site_with_subtotals(plan: Plan) -> None:
    north = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="North site")
    annex = StructureNodeFactory.create(
        plan=plan, parent=north, kind=NodeKind.SITE, name="North annex"
    )
    for name, site, cost in (("Gate house", north, "300"), ("Shed", annex, "40")):
        building = StructureNodeFactory.create(
            plan=plan, parent=site, kind=NodeKind.BUILDING, name=name
        )
        ActionFactory.create(node=building, planned_year=THIS_YEAR, estimated_cost=Decimal(cost))
    ActionFactory.create(node=north, planned_year=THIS_YEAR, estimated_cost=Decimal("5"))
    content = report_content(plan=plan)
    groups = [[(row.role, row.label) for row in group] for group in content.pages[0].buildings]
    assert groups == [
        [("site", "North annex"), ("building", "Shed"), ("subtotal", "Total North annex")],
        [("site", "North site"), ("building", "Gate house"), ("subtotal", "Total North site")],
        [
            ("site", "Buildings without a site"),
            ("building", "East house"),
            ("building", "West house"),
            ("subtotal", "Total without a site"),
        ],
        [("outside", "(no building)")],  # the action on the site itself
        [("total", "Total")],
    ]
    first = content.pages[0].buildings
    assert first[1][-1].cells[0] == Decimal("300.00")
    without_site = [row for row in first[2] if row.role == "building"]
    assert first[2][-1].cells == [
        sum(cells, Decimal(0)) for cells in zip(*(row.cells for row in without_site), strict=True)
    ]
    assert first[-1][0].cells == content.budget.year_totals[:10]
    shown = [row for group in first[:-1] for row in group if row.role not in ("site", "subtotal")]
    assert sum((row.total or Decimal(0) for row in shown), Decimal(0)) == content.budget.total


def test_the_condition_summary_counts_components_per_grade_and_the_cost_on_grades_2_and_3(
    plan: Plan,
) -> None:
    roof, boiler = plan.nodes.get(name="Roof"), plan.nodes.get(name="Boiler")
    StructureNode.objects.filter(pk=roof.pk).update(condition_grade=3)
    StructureNode.objects.filter(pk=boiler.pk).update(condition_grade=1)
    StructureNodeFactory.create(plan=plan, parent=roof.parent, name="Gutter", condition_grade=2)
    content = report_content(plan=plan)
    assert [(row.label, row.components, row.cost) for row in content.condition] == [
        ("3: severe symptoms", 1, Decimal("80000.00")),
        ("2: moderate symptoms", 1, Decimal("0.00")),
        ("1: minor symptoms", 1, Decimal("1200.50") * 5),  # every other year of the ten
        ("0: no symptoms", 0, Decimal("0.00")),
        ("not graded", 0, Decimal("0.00")),
    ]
    assert (content.poor_components, content.poor_condition_cost) == (2, Decimal("80000.00"))


def test_each_change_since_the_version_says_what_changed(plan: Plan) -> None:
    roof, boiler = plan.nodes.get(name="Roof"), plan.nodes.get(name="Boiler")
    chimney = ActionFactory.create(
        node=roof, title="Sweep chimney", planned_year=THIS_YEAR + 2, estimated_cost=Decimal(300)
    )
    gone = ActionFactory.create(
        node=roof, title="Gone", planned_year=THIS_YEAR + 3, estimated_cost=Decimal(70)
    )
    plan_adopt(plan=plan, name="Adopted", decided_on=timezone.localdate())
    today = timezone.localdate()
    action_mark_done(action=plan.actions.get(title="New roof"), completed_on=today)
    action_mark_done(action=plan.actions.get(title="Service boiler"), completed_on=today)
    plan.actions.filter(pk=chimney.pk).update(
        planned_year=THIS_YEAR + 4, estimated_cost=Decimal(450), node=boiler
    )
    gone.delete()
    ActionFactory.create(
        node=roof, title="Solar panels", planned_year=THIS_YEAR + 1, estimated_cost=Decimal(9000)
    )
    content = report_content(plan=plan)
    said = {change.title: (change.kind, change.what) for change in content.changes}
    assert said == {
        "New roof": ("changed", ["status planned → done"]),
        "Service boiler": ("changed", [f"done {today.isoformat()}, next {today.year + 2}"]),
        "Sweep chimney": (
            "changed",
            [
                f"year {THIS_YEAR + 2} → {THIS_YEAR + 4}",
                "estimated cost 300.00 → 450.00",
                "moved from Roof to Boiler",
            ],
        ),
        "Gone": ("removed", [f"removed (was {THIS_YEAR + 3}, 70.00)"]),
        "Solar panels": ("added", [f"added: {THIS_YEAR + 1}, 9,000.00"]),
    }
    # The most planned money moved first: the roof's 80,000 left the plan when it was done.
    assert [change.title for change in content.changes][:2] == ["New roof", "Solar panels"]
    assert {change.building for change in content.changes} == {"East house", "West house"}


def _pages(pdf: bytes, tmp_path: Path) -> list[str]:
    """The PDF's pages as pdftotext reads them (reading order), whitespace made single spaces."""
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return [" ".join(page.replace("\xa0", " ").split()) for page in text.split("\f")[:-1]]


MARKUPS = (("Overhead", 10), ("Contingency", 5), ("Design fee", 8), ("VAT", 25))


@pytest.fixture
def twenty_years(plan: Plan) -> Plan:
    """The plan over twenty years, a site, four markups and an index, adopted, then one action
    done."""
    plan_money_update(
        plan=plan,
        price_base_year=THIS_YEAR,
        index_rate_percent=Decimal("3"),
        annual_budget=None,
        markups=[Markup(name, Decimal(value)) for name, value in MARKUPS],
    )
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="North site")
    node_move(node=plan.nodes.get(name="East house"), parent=site)
    ActionFactory.create(
        node=plan.nodes.get(name="Roof"),
        title="Last of the plan",
        planned_year=THIS_YEAR + 19,
        estimated_cost=Decimal("12345.67"),
    )
    plan_adopt(plan=plan, name="Adopted", decided_on=timezone.localdate())
    action_mark_done(action=plan.actions.get(title="New roof"))
    return plan


EN_DASH = "\u2013"


def _has_year_with_separator(text: str, years: range) -> bool:
    return any(
        re.search(rf"(?<![\d,]){year // 1000},{year % 1000:03d}(?![\d.,])", text) for year in years
    )


def test_the_pdf_in_todays_prices_claims_no_markup_and_covers_every_year(
    twenty_years: Plan, tmp_path: Path
) -> None:
    pages = _pages(report_pdf(plan=twenty_years, prices=TODAY), tmp_path)
    cover, assumptions, rest = pages[0], pages[1], pages[2:]
    last = THIS_YEAR + 19
    assert f"Years covered {THIS_YEAR}{EN_DASH}{last} (20 years)" in cover
    assert "Prices EUR, today's prices" in cover
    assert assumptions.startswith("Assumptions")
    assert "Today's prices: the estimated costs as entered. No index and no markup" in assumptions
    assert "3 % a year from" in assumptions and "not applied in this report" in assumptions
    for number, (name, value) in enumerate(MARKUPS, start=1):
        assert re.search(rf"{number}\. {name} {value} ?%", assumptions)  # spaced as printed
    for page in [cover, *rest]:  # no other page claims an index or a markup
        assert "indexed" not in page
        assert not [name for name, _ in MARKUPS if name.lower() in page.lower()]
    budget = [page for page in rest if page.startswith("Budget per building and year")]
    assert len(budget) == 2
    second, whole = f"{THIS_YEAR + 10}{EN_DASH}{last}", f"{THIS_YEAR}{EN_DASH}{last}"
    assert f"EUR, {second}, today's prices" in budget[1]
    assert f"{last} {second} {whole}" in budget[1]  # its last year, then both totals
    assert "12,345.67" in budget[1]
    for words in ("North site", "East house", "Total North site", "Buildings without a site"):
        assert words in budget[0]
    assert f"Total without a site 1,200.50 {EN_DASH} 1,200.50" in budget[0]  # a dash: nothing
    text = " ".join(pages)
    assert "Changed New roof East house status planned → done" in text
    assert "80,000.00" in text  # thousands separated
    assert not _has_year_with_separator(text, range(THIS_YEAR - 1, last + 1))


def test_the_pdf_in_nominal_prices_names_the_index_and_every_markup(
    twenty_years: Plan, tmp_path: Path
) -> None:
    pages = _pages(report_pdf(plan=twenty_years, prices=NOMINAL), tmp_path)
    cover, assumptions = pages[0], pages[1]
    index = PriceIndex.of(twenty_years)
    described = (
        f"{THIS_YEAR} prices indexed 3 % a year, overhead 10 %, contingency 5 %, design fee 8 %, "
        "VAT 25 %"
    )
    assert index.describe().replace("\xa0", " ") == described
    assert f"Prices EUR, nominal: {described}" in cover
    ten = figure_wording(
        year_from=THIS_YEAR, year_to=THIS_YEAR + 9, prices=NOMINAL, index=index
    ).replace("\xa0", " ")
    assert ten in cover
    assert f"Nominal: {described}." in assumptions
    for number, (name, value) in enumerate(MARKUPS, start=1):
        assert re.search(rf"{number}\. {name} {value} ?%", assumptions)  # spaced as printed
    assert "not applied" not in assumptions
    budget = [page for page in pages if page.startswith("Budget per building and year")]
    assert f"EUR, {ten}" in budget[0]


def _reports_url(plan: Plan) -> str:
    return reverse("planning:plan_reports", kwargs={"number": plan.number})


@pytest.fixture
def ask(client: Client, user: Any, plan: Plan, django_capture_on_commit_callbacks: Any) -> Any:
    """POSTs the Report tab's form as `user`, its job queued as the commit would queue it."""
    client.force_login(user)

    def post(prices: str = TODAY, **extra: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(_reports_url(plan), {"prices": prices}, **extra)

    return post


def test_a_viewer_asks_for_a_report_and_downloads_it_once_the_job_ran(
    client: Client, user: Any, plan: Plan, tmp_path: Path, ask: Any
) -> None:
    response = ask(NOMINAL)
    assert response.status_code == 302
    report = PlanReport.objects.get(plan=plan)
    assert (report.status, report.requested_by, report.prices) == ("queued", user, NOMINAL)
    page = client.get(_reports_url(plan)).content.decode()
    assert "Waiting for a worker" in page and "data-progress-url" in page

    assert run_queued_jobs() >= 1
    report.refresh_from_db()
    assert report.status == PlanReportStatus.DONE and report.size == len(bytes(report.pdf))
    progress = client.get(
        reverse(
            "planning:plan_report_progress", kwargs={"number": plan.number, "report_id": report.pk}
        )
    ).json()
    assert progress == {"status": "done", "label": "Ready", "percent": 100, "finished": True}
    download = client.get(
        reverse(
            "planning:plan_report_download", kwargs={"number": plan.number, "report_id": report.pk}
        )
    )
    assert download["Content-Type"] == "application/pdf"
    assert f'filename="plan-{plan.number}-board-report-' in download["Content-Disposition"]
    assert "nominal prices" in _pdf_text(download.content, tmp_path)


def test_someone_outside_the_plan_gets_no_report(client: Client, plan: Plan, ask: Any) -> None:
    ask()
    run_queued_jobs()
    report = PlanReport.objects.get(plan=plan)
    client.force_login(UserFactory.create())
    assert client.post(_reports_url(plan), {"prices": TODAY}).status_code == 404
    url = reverse(
        "planning:plan_report_download", kwargs={"number": plan.number, "report_id": report.pk}
    )
    assert client.get(url).status_code == 404
    assert PlanReport.objects.count() == 1


def test_an_account_has_at_most_its_share_of_reports_waiting(
    plan: Plan, settings: Any, ask: Any
) -> None:
    settings.REPORTS_QUEUED_MAX = 2
    for _ in range(2):
        ask()
    response = ask(follow=True)
    assert "You already have 2 reports waiting or being made" in response.content.decode()
    assert PlanReport.objects.count() == 2
    run_queued_jobs()
    assert ask().status_code == 302
    assert PlanReport.objects.count() == 3


def test_a_plan_keeps_its_newest_reports(plan: Plan, settings: Any, ask: Any) -> None:
    settings.REPORTS_KEPT_PER_PLAN = 2
    for _ in range(3):
        ask()
        run_queued_jobs()
    kept = PlanReport.objects.filter(plan=plan).order_by("created_at")
    assert kept.count() == 2 and all(r.status == PlanReportStatus.DONE for r in kept)


def test_a_report_that_fails_says_so_and_keeps_no_pdf(
    client: Client, plan: Plan, monkeypatch: pytest.MonkeyPatch, ask: Any
) -> None:
    def broken(**_: Any) -> bytes:
        raise RuntimeError("the printer is on fire")

    monkeypatch.setattr("planning.reports.jobs.report_pdf", broken)
    ask()
    with pytest.raises(RuntimeError):
        run_queued_jobs()
    report = PlanReport.objects.get(plan=plan)
    assert report.status == PlanReportStatus.FAILED and bytes(report.pdf) == b""
    page = client.get(_reports_url(plan)).content.decode()
    assert "Not made: an error on our side" in page


def test_a_bad_prices_choice_is_refused_beside_its_field(plan: Plan, ask: Any) -> None:
    response = ask("cheap")
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not PlanReport.objects.exists()


def test_the_command_writes_the_report(plan: Plan, tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "board.pdf"
    call_command("plan_report", str(plan.number), str(out), "--prices", "nominal")
    assert "Harbour Housing Co-op" in _pdf_text(out.read_bytes(), tmp_path)
    assert f"Wrote {out}:" in capsys.readouterr().out


def test_the_command_names_a_missing_plan(tmp_path: Path) -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match=r"There is no plan #9999\."):
        call_command("plan_report", "9999", str(tmp_path / "x.pdf"))


def _state(**changes: Any) -> ActionState:
    fields: dict[str, Any] = {
        "action_id": "a1",
        "title": "Service",
        "node_id": "n1",
        "building_id": "b1",
        "planned_year": 2030,
        "cost_cents": 150_000,
        "interval_years": 3,
        "status": "planned",
    }
    return ActionState(**{**fields, **changes})


def test_a_change_row_says_done_and_building_when_no_other_field_says_it() -> None:
    # Marked done a whole interval early: the next year is the one it had; no field changed.
    done = ActionDifference("changed", _state(), _state(), [], completed_on=date(2026, 3, 4))
    # Its component moved under another building: only the building changed.
    moved = ActionDifference("changed", _state(), _state(building_id="b2"), ["building_id"])
    # A status a version stored that the app no longer knows is said as stored.
    unknown = ActionDifference("changed", _state(status="postponed"), _state(), ["status"])

    assert change_wording(done, {}) == ["done 2026-03-04, next 2030"]
    assert change_wording(moved, {}, {"b1": "North", "b2": "South"}) == ["building North → South"]
    assert change_wording(unknown, {}) == ["status postponed → planned"]


def test_the_funding_page_shows_the_funds_table_and_lowest_balance(
    plan: Plan, tmp_path: Path
) -> None:
    from planning.figures.funding import fund_figures
    from planning.models import Fund

    assert report_content(plan=plan).funding is None  # no fund, no page
    fund = Fund.objects.create(
        plan=plan,
        opening_balance=Decimal("5000.00"),
        start_year=THIS_YEAR,
        contribution=Decimal("1234.56"),
        horizon_years=10,
    )
    content = report_content(plan=plan)
    expected = fund_figures(fund=fund)
    assert content.funding is not None
    assert content.funding.years == expected.years
    assert content.funding_lowest is not None
    assert content.funding_lowest.year == expected.summary.lowest_year
    text = _pdf_text(report_pdf(plan=plan), tmp_path)
    lowest = Decimal(expected.summary.lowest_cents) / 100
    assert f"Lowest balance: {lowest:,.2f} EUR at the end of {expected.summary.lowest_year}" in (
        " ".join(text.split())
    )
    assert "1,234.56" in text


def test_the_pdf_shows_each_buildings_fci_with_its_band(plan: Plan, tmp_path: Path) -> None:
    east = plan.nodes.get(name="East house")
    east.replacement_value = Decimal("400000")
    east.gross_floor_area_m2 = Decimal("200")
    east.save()
    roof = plan.nodes.get(name="Roof")
    roof.condition_grade = 3  # its new roof (80,000) is the need: 20 %
    roof.save()
    content = report_content(plan=plan)
    assert [(b.name, b.fci_percent, b.band) for b in content.fci_buildings] == [
        ("East house", Decimal("20.00"), "poor"),
        ("West house", None, None),
    ]
    text = _pdf_text(report_pdf(plan=plan), tmp_path)
    assert "Facility condition index" in text
    assert re.search(r"East house\s+80,000\.00\s+400,000\.00\s+20\.00 %\s+poor", text)
    assert "20.00 % (poor)" in text  # the plan's, area-weighted over its one building
