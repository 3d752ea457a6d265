"""The web import as a background job (planning.transfer.imports.jobs): kept upload, one import per
form, progress, a killed run leaves nothing, a run again makes exactly one plan."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from jobs.leases import lease_claim
from planning.models import Action, Plan, PlanImport, PlanImportFormat, PlanImportStatus
from planning.tasks import plan_imports_resume
from planning.transfer.imports import jobs
from planning.transfer.imports import workbook as workbook_module
from tests.conftest import run_queued_jobs
from tests.factories import PlanFactory, UserFactory
from tests.planning.workbooks import workbook_of

pytestmark = pytest.mark.usefixtures("starter_catalog")


def _plan_json(nodes: int = 3, actions_per_node: int = 1) -> bytes:
    document = {
        "name": "Job plan",
        "nodes": [{"ref": "S", "name": "Site", "kind": "site"}]
        + [
            {"ref": f"B{i}", "parent_ref": "S", "name": f"Building {i}", "kind": "building"}
            for i in range(nodes - 1)
        ],
        "actions": [
            {
                "node_ref": f"B{i}",
                "title": f"Check {i}.{a}",
                "kind": "inspection",
                "planned_year": 2030,
                "estimated_cost": "100",
            }
            for i in range(nodes - 1)
            for a in range(actions_per_node)
        ],
    }
    return json.dumps(document).encode()


def _post(client: Client, captured: Any, content: bytes, key: str = "form-1") -> Any:
    with captured(execute=True):
        return client.post(
            reverse("planning:plan_import"),
            {
                "import-plan_file": SimpleUploadedFile("plan.json", content),
                "import-idempotency_key": key,
            },
        )


def _report_every_10_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in ("plan_document", "write"):  # the checks, the writes
        monkeypatch.setattr(f"planning.transfer.imports.{module}.PROGRESS_STEP", 10)


def _upload(owner: Any, content: bytes) -> PlanImport:
    upload, _created = jobs.plan_import_submit(
        owner=owner,
        idempotency_key="k",
        file_format=PlanImportFormat.DOCUMENT,
        filename="plan.json",
        name="",
        content=content,
    )
    return upload


def test_upload_answers_at_once_and_keeps_the_file_for_the_job(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)

    response = _post(client, django_capture_on_commit_callbacks, _plan_json())

    upload = PlanImport.objects.get()
    assert response["Location"] == reverse("planning:plan_import_detail", args=[upload.pk])
    assert bytes(upload.content) == _plan_json() and upload.status == PlanImportStatus.QUEUED
    assert DBTaskResult.objects.ready().count() == 1
    assert not Plan.objects.exists()  # the worker has not run yet
    page = client.get(response["Location"]).content.decode()
    assert "Waiting for a worker" in page and '<progress id="import-bar"' in page


def test_the_upload_form_offers_the_organisations_latest_currency(
    client: Client, user: Any
) -> None:
    PlanFactory.create(organisation=user.personal_organisation, currency="SEK")
    client.force_login(user)

    page = client.get(reverse("planning:plan_list")).content.decode()

    assert 'name="import-currency" value="SEK"' in page


def test_a_file_without_a_currency_takes_the_forms_and_one_with_keeps_its_own(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    named = {**json.loads(_plan_json()), "name": "Named", "currency": "DKK"}

    for key, content in (("plain", _plan_json()), ("named", json.dumps(named).encode())):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                reverse("planning:plan_import"),
                {
                    "import-plan_file": SimpleUploadedFile("plan.json", content),
                    "import-currency": "nok",
                    "import-idempotency_key": key,
                },
            )
    run_queued_jobs()

    assert dict(Plan.objects.values_list("name", "currency")) == {
        "Job plan": "NOK",
        "Named": "DKK",
    }


def test_the_csv_pair_and_its_plan_file_are_kept_for_the_job(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("planning:plan_import"),
            {
                "import-nodes_csv": SimpleUploadedFile(
                    "nodes.csv", b"ref,name,kind\nS,Site,site\n"
                ),
                "import-actions_csv": SimpleUploadedFile(
                    "actions.csv", b"node_ref,title,kind,planned_year\n"
                ),
                "import-plan_csv": SimpleUploadedFile("plan.csv", b"name,Depot\ncurrency,CHF\n"),
                "import-currency": "NOK",
            },
        )
    upload = PlanImport.objects.get()
    assert (bytes(upload.plan_content), upload.currency) == (b"name,Depot\ncurrency,CHF\n", "NOK")
    run_queued_jobs()

    upload.refresh_from_db()
    assert upload.plan is not None
    assert (upload.plan.name, upload.plan.currency, bytes(upload.plan_content)) == (
        "Depot",
        "CHF",
        b"",
    )


@pytest.mark.parametrize("currency", ["E1R", "EURO", "€"])
def test_a_bad_currency_in_the_form_is_refused_with_the_plan_models_message(
    client: Client, user: Any, currency: str
) -> None:
    client.force_login(user)

    response = client.post(
        reverse("planning:plan_import"),
        {
            "import-plan_file": SimpleUploadedFile("plan.json", _plan_json()),
            "import-currency": currency,
        },
    )

    page = response.content.decode()
    assert response.status_code == 200
    message = (
        "Ensure this value has at most 3 characters (it has 4)."
        if len(currency) > 3
        else "Enter a 3-letter currency code such as EUR or USD."
    )
    assert message in page
    assert not PlanImport.objects.exists()


def test_the_same_form_sent_twice_is_one_import(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)

    first = _post(client, django_capture_on_commit_callbacks, _plan_json())
    second = _post(client, django_capture_on_commit_callbacks, _plan_json())
    run_queued_jobs()

    assert first["Location"] == second["Location"]
    assert PlanImport.objects.count() == 1 and Plan.objects.count() == 1


def test_another_users_import_is_not_found(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    location = _post(client, django_capture_on_commit_callbacks, _plan_json())["Location"]

    client.force_login(UserFactory.create())

    assert client.get(location).status_code == 404
    assert client.get(location + "progress/").status_code == 404


def test_progress_reports_rows_checked_then_written_and_the_job_ends_done(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(jobs, "REPORT_INTERVAL_SECONDS", 0)
    _report_every_10_rows(monkeypatch)
    upload = _upload(user, _plan_json(nodes=30, actions_per_node=2))  # 30 + 58 rows
    reports: list[dict[str, Any]] = []
    cache = caches["progress"]
    original_set = cache.set

    def recorded_set(key: str, value: dict[str, Any], **options: Any) -> None:
        reports.append(value)
        original_set(key, value, **options)

    monkeypatch.setattr(cache, "set", recorded_set)

    jobs.plan_import_run(import_id=str(upload.pk))

    stages = [report["status"] for report in reports]
    assert stages.index("checking") < stages.index("writing") < stages.index("syncing")
    checked = [r["checked"] for r in reports if r["status"] == "checking"]
    written = [r["written"] for r in reports if r["status"] == "writing"]
    assert checked == sorted(checked) and checked[-1] == 88
    assert written == sorted(written) and written[-1] == 88 and len(written) > 2
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.DONE and upload.plan is not None
    assert bytes(upload.content) == b""  # the file is not kept after the job
    # the first sync ran in the job: the components without a code are suggestions already
    assert upload.plan.suggestions.count() == 29


class _Killed(BaseException):
    """Stands for the worker being killed: not an Exception, nothing catches it."""


def test_a_run_killed_half_way_leaves_no_plan_and_the_run_again_makes_exactly_one(
    user: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    _report_every_10_rows(monkeypatch)
    upload = _upload(user, _plan_json(nodes=30, actions_per_node=2))

    def killed(self: Any, done: int, total: int) -> None:
        if done >= 40:
            raise _Killed

    with monkeypatch.context() as patch:
        patch.setattr(jobs._JobObserver, "written", killed)
        with pytest.raises(_Killed):
            jobs.plan_import_run(import_id=str(upload.pk))

    assert not Plan.objects.exists() and not Action.objects.exists()
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.CHECKING  # as a killed worker leaves it
    assert plan_imports_resume() == 0  # its lease runs: it might be alive
    PlanImport.objects.filter(pk=upload.pk).update(
        lease_expires_at=timezone.now() - timedelta(seconds=1)  # no renewal since
    )

    assert plan_imports_resume() == 1
    assert plan_imports_resume() == 0  # claimed once
    # the job queued with the take-over: run it as the worker would
    jobs.plan_import_run(import_id=str(upload.pk))
    jobs.plan_import_run(import_id=str(upload.pk))  # and a duplicate run changes nothing

    plan = Plan.objects.get()
    assert plan.nodes.count() == 30 and plan.actions.count() == 58
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.DONE and upload.plan == plan and upload.attempts == 2


def test_a_running_import_renews_its_lease_so_it_is_never_taken_for_dead(
    user: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.IMPORT_LEASE_SECONDS = 3
    clock = [timezone.now()]

    def now() -> Any:  # every look at the clock of jobs.leases is a second later
        clock[0] += timedelta(seconds=1)
        return clock[0]

    monkeypatch.setattr("jobs.leases.timezone", SimpleNamespace(now=now))
    _report_every_10_rows(monkeypatch)
    upload = _upload(user, _plan_json(nodes=30, actions_per_node=2))
    taken_over: list[int] = []
    report_written = jobs._JobObserver.written

    def written_then_resume(self: Any, done: int, total: int) -> None:
        report_written(self, done, total)
        taken_over.append(plan_imports_resume())  # seconds after the claim: it is renewed

    monkeypatch.setattr(jobs._JobObserver, "written", written_then_resume)

    jobs.plan_import_run(import_id=str(upload.pk))

    assert len(taken_over) > 3 and set(taken_over) == {0}
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.DONE and upload.lease_expires_at is None
    assert upload.started_at is not None
    assert clock[0] - upload.started_at > timedelta(seconds=3 * 3)  # three leases long


@pytest.mark.django_db(transaction=True)
def test_a_workbook_that_takes_longer_than_its_lease_to_read_is_never_run_twice(
    user: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """openpyxl's parse of a large workbook reports nothing for most of a minute: a heartbeat
    keeps the lease, so neither the progress poll nor the tick queues the import again."""
    settings.IMPORT_LEASE_SECONDS = 1
    workbook = workbook_of(
        {
            "Nodes": [["ref", "name", "kind"], ["S", "Site", "site"]],
            "Actions": [["node_ref", "title", "kind", "planned_year"]],
        }
    )
    upload, _created = jobs.plan_import_submit(
        owner=user,
        idempotency_key="slow",
        file_format=PlanImportFormat.DOCUMENT,
        filename="plan.xlsx",
        name="",
        content=workbook,
    )
    taken_over: list[int] = []
    parse = workbook_module.workbook_parse

    def slow_to_parse(*arguments: Any, **options: Any) -> Any:
        time.sleep(3.5)  # three and a half leases, renewing nothing itself
        taken_over.append(_resumed_despite_a_locked_table())
        return parse(*arguments, **options)

    monkeypatch.setattr(workbook_module, "workbook_parse", slow_to_parse)

    jobs.plan_import_run(import_id=str(upload.pk))

    upload.refresh_from_db()
    assert taken_over == [0]
    assert (upload.status, upload.attempts) == (PlanImportStatus.DONE, 1), upload.problems
    assert Plan.objects.count() == 1
    assert not DBTaskResult.objects.filter(task_path="planning.tasks.plan_import_job").exists()


def _resumed_despite_a_locked_table() -> int:
    """plan_imports_resume; SQLite's shared in-memory test database answers "table is locked"
    at once (no waiting) when the heartbeat's renewal is writing at that moment."""
    for _attempt in range(5):
        try:
            return plan_imports_resume()
        except OperationalError:
            time.sleep(0.05)
    return plan_imports_resume()


def test_a_second_run_that_writes_after_the_first_linked_its_plan_rolls_back(user: Any) -> None:
    upload = _upload(user, _plan_json())
    read_by_the_second_run = PlanImport.objects.get(pk=upload.pk)  # before the first ends
    jobs.plan_import_run(import_id=str(upload.pk))
    # as if the first run had lost its lease to the second before it linked its plan
    lease = lease_claim(PlanImport.objects.all(), pk=upload.pk, duration=timedelta(minutes=1))
    assert lease is not None

    with pytest.raises(jobs._AlreadyImported):
        jobs._plan_read_and_write(
            read_by_the_second_run, jobs._JobObserver(read_by_the_second_run, lease)
        )

    assert Plan.objects.count() == 1


def test_an_import_that_fails_after_renewing_its_lease_in_the_write_is_recorded_failed(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The last progress report renews the lease inside the write's transaction, which the
    # failure rolls back: the lease the run holds is then the one before that renewal.
    upload = _upload(user, _plan_json())

    def link_fails(self: Any, plan: Plan) -> None:
        raise RuntimeError("the link step broke")

    monkeypatch.setattr(jobs._JobObserver, "plan_written", link_fails)
    with pytest.raises(RuntimeError):
        jobs.plan_import_run(import_id=str(upload.pk))

    upload.refresh_from_db()
    assert (upload.status, upload.lease_expires_at) == (PlanImportStatus.FAILED, None)
    assert "failed on our side" in upload.problems[0] and not Plan.objects.exists()


def test_an_import_that_keeps_dying_fails_with_a_message(user: Any, settings: Any) -> None:
    upload = _upload(user, _plan_json())
    PlanImport.objects.filter(pk=upload.pk).update(attempts=settings.IMPORT_MAX_ATTEMPTS)

    jobs.plan_import_run(import_id=str(upload.pk))

    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.FAILED and not Plan.objects.exists()
    assert "stopped 3 times" in upload.problems[0]


def test_a_rejected_import_keeps_200_problems_and_its_page_says_how_many_more(
    client: Client, user: Any
) -> None:
    document = json.loads(_plan_json(nodes=2, actions_per_node=1_000))
    for action in document["actions"]:
        action["kind"] = "mend"
    upload = _upload(user, json.dumps(document).encode())

    jobs.plan_import_run(import_id=str(upload.pk))

    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.REJECTED
    assert (len(upload.problems), upload.problems_more) == (200, 800)
    assert upload.problems[0].startswith("action 1: kind: “mend” is not one of")
    client.force_login(user)
    page = client.get(reverse("planning:plan_import_detail", args=[upload.pk])).content.decode()
    assert "The file was not imported: 1000 problems" in page
    assert page.count("is not one of") == 200 and "and 800 more" in page


def test_polling_a_dead_import_runs_it_again(client: Client, user: Any, settings: Any) -> None:
    upload = _upload(user, _plan_json())
    PlanImport.objects.filter(pk=upload.pk).update(
        status=PlanImportStatus.CHECKING, lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    client.force_login(user)
    url = reverse("planning:plan_import_progress", args=[upload.pk])

    state = client.get(url).json()

    queued = DBTaskResult.objects.filter(task_path="planning.tasks.plan_import_job")
    assert [job.args_kwargs["kwargs"]["import_id"] for job in queued] == [str(upload.pk)]
    assert state == {
        "status": "checking",
        "label": "Checking rows",
        "rows_checked": 0,
        "rows_written": 0,
        "rows_total": 0,
        "percent": 0,
        "finished": False,
    }


def test_the_format_page_describes_every_column_and_offers_the_templates(client: Client) -> None:
    page = client.get(reverse("planning:plan_import_format")).content.decode()

    for column in ("ref", "parent_ref", "install_year", "node_ref", "estimated_cost", "status"):
        assert f"<code>{column}</code>" in page
    for name in ("plan.json", "nodes.csv", "actions.csv"):
        assert reverse("planning:plan_import_template", args=[name]) in page
    assert "the tree is at most 51 levels deep" in page


@pytest.mark.parametrize("name", ["plan.json", "nodes.csv", "actions.csv"])
def test_a_template_downloads_as_the_example_file(client: Client, name: str) -> None:
    response = client.get(reverse("planning:plan_import_template", args=[name]))

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="maintplan-{name}"'
    assert response.getvalue() == (settings.BASE_DIR / "docs" / "examples" / name).read_bytes()


def test_an_unknown_template_is_not_found(client: Client) -> None:
    url = reverse("planning:plan_import_template", args=["settings.py"])
    assert client.get(url).status_code == 404


@pytest.mark.usefixtures("requires_postgres")
def test_a_large_import_refreshes_postgresqls_statistics_before_its_first_sync(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import connection

    monkeypatch.setattr("planning.transfer.imports.write.ANALYZE_AFTER_ROWS", 50)
    upload = _upload(user, _plan_json(nodes=40, actions_per_node=2))  # 118 rows

    jobs.plan_import_run(import_id=str(upload.pk))

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reltuples FROM pg_class WHERE relname IN "
            "('planning_structurenode', 'planning_action') ORDER BY relname"
        )
        counts = dict(cursor.fetchall())
    assert counts == {"planning_action": 78, "planning_structurenode": 40}


def test_a_nul_in_the_uploaded_files_name_is_dropped(user: Any) -> None:
    upload, created = jobs.plan_import_submit(
        owner=user,
        idempotency_key="nul",
        file_format=PlanImportFormat.DOCUMENT,
        filename="plan\x00.json",
        name="",
        content=_plan_json(),
    )

    assert created and PlanImport.objects.get(pk=upload.pk).filename == "plan.json"


def _fill_the_queue(client: Client, captured: Any, count: int) -> None:
    for n in range(count):
        response = _post(client, captured, _plan_json(), key=f"queued-{n}")
        assert response.status_code == 302


def test_an_upload_beyond_the_accounts_queued_imports_is_refused_and_nothing_is_kept(
    client: Client, user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.IMPORTS_QUEUED_MAX = 2
    client.force_login(user)
    _fill_the_queue(client, django_capture_on_commit_callbacks, 2)

    response = _post(client, django_capture_on_commit_callbacks, _plan_json(), key="third")

    assert response.status_code == 429
    page = response.content.decode()
    assert "You already have 2 imports waiting or running" in page
    assert "This file was not kept: send it again once one of them has finished." in page
    assert PlanImport.objects.count() == 2
    assert DBTaskResult.objects.ready().count() == 2  # the third was not queued


def test_the_same_form_sent_again_at_the_limit_answers_with_its_import(
    client: Client, user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.IMPORTS_QUEUED_MAX = 2
    client.force_login(user)
    _fill_the_queue(client, django_capture_on_commit_callbacks, 2)

    again = _post(client, django_capture_on_commit_callbacks, _plan_json(), key="queued-1")
    new = _post(client, django_capture_on_commit_callbacks, _plan_json(), key="new")

    upload = PlanImport.objects.get(idempotency_key="queued-1")
    assert again["Location"] == reverse("planning:plan_import_detail", args=[upload.pk])
    assert new.status_code == 429
    assert PlanImport.objects.count() == 2 and DBTaskResult.objects.ready().count() == 2


def test_a_finished_import_frees_its_place_in_the_queue(
    client: Client, user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.IMPORTS_QUEUED_MAX = 2
    client.force_login(user)
    _fill_the_queue(client, django_capture_on_commit_callbacks, 2)
    refused = _post(client, django_capture_on_commit_callbacks, _plan_json(), key="early")
    assert refused.status_code == 429
    first = PlanImport.objects.get(idempotency_key="queued-0")
    jobs.plan_import_run(import_id=str(first.pk))
    assert PlanImport.objects.get(pk=first.pk).status == PlanImportStatus.DONE

    response = _post(client, django_capture_on_commit_callbacks, _plan_json(), key="third")

    assert response.status_code == 302
    assert PlanImport.objects.filter(status=PlanImportStatus.QUEUED).count() == 2


def test_another_accounts_full_queue_does_not_limit_this_one(
    client: Client, user: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.IMPORTS_QUEUED_MAX = 2
    other = UserFactory.create()
    client.force_login(other)
    _fill_the_queue(client, django_capture_on_commit_callbacks, 2)
    refused = _post(client, django_capture_on_commit_callbacks, _plan_json(), key="other-3")
    client.force_login(user)

    response = _post(client, django_capture_on_commit_callbacks, _plan_json())

    assert refused.status_code == 429 and response.status_code == 302
    assert PlanImport.objects.filter(owner=user).count() == 1


def test_the_service_refuses_an_import_beyond_the_limit(user: Any, settings: Any) -> None:
    settings.IMPORTS_QUEUED_MAX = 1
    _upload(user, _plan_json())

    with pytest.raises(jobs.ImportsQueueFull):
        jobs.plan_import_submit(
            owner=user,
            idempotency_key="second",
            file_format=PlanImportFormat.DOCUMENT,
            filename="plan.json",
            name="",
            content=_plan_json(),
        )
    assert PlanImport.objects.count() == 1
