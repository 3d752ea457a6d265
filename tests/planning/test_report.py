"""The board report (docs/design.md "Board report"): its content against a recomputation from
the actions, the PDF's text read back with pdftotext, the job behind the Report tab (queue
share, kept reports, a failure), and `manage.py plan_report`."""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.figures.budget import NOMINAL, TODAY
from planning.figures.occurrences import occurrence_years
from planning.figures.prices import PriceIndex
from planning.models import (
    NodeKind,
    Plan,
    PlanReport,
    PlanReportStatus,
    PlanRole,
    Severity,
    Suggestion,
    SuggestionType,
)
from planning.report import BUILDING_ROWS, largest_occurrences, report_content, report_pdf
from planning.versions import plan_adopt
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
    ActionFactory.create(  # outside the ten years: in no figure
        node=boiler, title="Far away", planned_year=THIS_YEAR + 12, estimated_cost=Decimal("999")
    )
    return plan


def _expected_total(plan: Plan, *, first: int, last: int, prices: str) -> Decimal:
    """The plan's total of the years, recomputed from its actions by docs/design.md "Money"."""
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
    expected = _expected_total(plan, first=THIS_YEAR, last=THIS_YEAR + 9, prices=prices)
    assert content.budget.total == expected
    assert sum(row.total for row in content.building_rows) == expected
    assert content.budget.years == list(range(THIS_YEAR, THIS_YEAR + 10))
    if prices == NOMINAL:
        assert expected > _expected_total(plan, first=THIS_YEAR, last=THIS_YEAR + 9, prices=TODAY)


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
    assert len(content.building_rows) == BUILDING_ROWS
    assert content.other_buildings is not None
    assert content.other_buildings.name == "7 other buildings"  # 47 buildings with cost
    shown = sum(row.total for row in content.building_rows)
    assert shown + content.other_buildings.total == content.budget.total
    assert "Block 0" not in {row.name for row in content.building_rows}  # among the cheapest


def test_the_pdf_holds_the_name_the_total_the_ten_years_and_the_critical_suggestions(
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
    total = _expected_total(plan, first=THIS_YEAR, last=THIS_YEAR + 9, prices=TODAY)
    assert f"{total:,.2f} EUR" in text
    for year in range(THIS_YEAR, THIS_YEAR + 10):
        assert str(year) in text
    assert "Replacement cost on “Roof” deviates from the reference" in text
    assert "New roof" in text and "Far away" not in text


def test_the_pdf_lists_the_changes_since_the_last_adopted_version(
    plan: Plan, tmp_path: Path
) -> None:
    assert "The plan has not been adopted yet" in _pdf_text(report_pdf(plan=plan), tmp_path)
    plan_adopt(plan=plan, name="Adopted in spring", decided_on=timezone.localdate())
    plan.actions.filter(title="New roof").update(estimated_cost=Decimal("95000"))
    text = " ".join(_pdf_text(report_pdf(plan=plan), tmp_path).split())  # lines wrap
    assert "Compared with version 1 “Adopted in spring”" in text
    assert "0 actions added, 0 removed, 1 changed" in text
    assert "(+15,000.00 EUR)" in text and "95,000.00" in text


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

    monkeypatch.setattr("planning.report_jobs.report_pdf", broken)
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
