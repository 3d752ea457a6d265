from __future__ import annotations

import datetime
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections

from planning.management.commands.generate_plan import synthetic_plan_document
from planning.management.commands.import_plan import Command as ImportPlanCommand
from planning.models import NodeKind, Plan, PlanRole, Suggestion
from planning.plans.selectors import plan_access_get
from tests.factories import CodeFactory, UserFactory
from tests.planning.conftest import db_counts

pytestmark = pytest.mark.django_db

PLAN = {
    "name": "Command plan",
    "nodes": [
        {"ref": "S1", "name": "Site", "kind": "site"},
        {"ref": "B1", "parent_ref": "S1", "name": "Block", "kind": "building"},
    ],
    "actions": [{"node_ref": "B1", "title": "Paint", "kind": "repair", "planned_year": 2030}],
}
BAD_PLAN = {
    "name": "Bad plan",
    "nodes": [{"ref": "S1", "name": "Site", "kind": "moon"}],
    "actions": [{"node_ref": "S9", "title": "Paint", "kind": "repair", "planned_year": 2030}],
}


def _write(tmp_path: Path, filename: str, content: str) -> str:
    path = tmp_path / filename
    path.write_text(content, encoding="utf-8")
    return str(path)


def _run(*args: str) -> tuple[str, str]:
    stdout, stderr = StringIO(), StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


def test_import_plan_prints_the_new_plans_number_on_the_last_line(
    user: Any, tmp_path: Path
) -> None:
    path = _write(tmp_path, "plan.json", json.dumps(PLAN))

    stdout, stderr = _run("import_plan", path, "--owner", user.email)

    plan = Plan.objects.get()
    assert stdout.splitlines()[-1] == str(plan.number)
    assert stderr == ""
    assert plan.name == "Command plan"
    assert (plan.nodes.count(), plan.actions.count()) == (2, 1)
    assert plan.organisation == user.personal_organisation


class _Terminal(StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("command", ["import_plan", "generate_plan"])
def test_commands_draw_a_progress_bar_on_a_terminal_only(
    command: str, user: Any, tmp_path: Path
) -> None:
    path = _write(tmp_path, "plan.json", json.dumps(PLAN))
    args = (
        [path, "--owner", user.email]
        if command == "import_plan"
        else ["--nodes", "2", "--actions", "1", "--owner", user.email]
    )
    terminal, pipe = _Terminal(), StringIO()

    call_command(command, *args, stdout=StringIO(), stderr=terminal)
    call_command(command, *args, stdout=StringIO(), stderr=pipe)

    assert "Checking: 100%|##########| 3/3" in terminal.getvalue()
    assert "Writing: 100%|##########| 3/3" in terminal.getvalue()
    assert pipe.getvalue() == ""


def test_import_plan_takes_the_name_option(user: Any, tmp_path: Path) -> None:
    path = _write(tmp_path, "plan.json", json.dumps(PLAN))

    _run("import_plan", path, "--owner", user.email.upper(), "--name", "Renamed")

    assert Plan.objects.get().name == "Renamed"


def test_import_plan_imports_a_csv_pair(user: Any, tmp_path: Path) -> None:
    nodes = _write(tmp_path, "nodes.csv", "ref,parent_ref,name,kind\nS1,,Site,site\n")
    actions = _write(
        tmp_path, "actions.csv", "node_ref,title,kind,planned_year\nS1,Walk,inspection,2027\n"
    )

    stdout, _stderr = _run(
        "import_plan", nodes, "--actions-csv", actions, "--owner", user.email, "--name", "CSV"
    )

    plan = Plan.objects.get()
    assert stdout.splitlines()[-1] == str(plan.number)
    assert (plan.name, plan.nodes.count(), plan.actions.count()) == ("CSV", 1, 1)


def test_import_plan_takes_the_currency_option_for_a_file_without_one(
    user: Any, tmp_path: Path
) -> None:
    path = _write(tmp_path, "plan.json", json.dumps(PLAN))

    _run("import_plan", path, "--owner", user.email, "--currency", "sek")

    assert Plan.objects.get().currency == "SEK"


def test_import_plan_reads_a_csv_pairs_plan_file(user: Any, tmp_path: Path) -> None:
    nodes = _write(tmp_path, "nodes.csv", "ref,name,kind\nS1,Site,site\n")
    actions = _write(tmp_path, "actions.csv", "node_ref,title,kind,planned_year\n")
    plan_file = _write(tmp_path, "plan.csv", "name,Depot\ncurrency,CHF\n")

    _run(
        "import_plan",
        nodes,
        "--actions-csv",
        actions,
        "--plan-csv",
        plan_file,
        "--owner",
        user.email,
        "--currency",
        "NOK",
    )

    assert Plan.objects.values_list("name", "currency").get() == ("Depot", "CHF")


def test_import_plan_refuses_a_bad_currency_option(user: Any, tmp_path: Path) -> None:
    path = _write(tmp_path, "plan.json", json.dumps(PLAN))
    stderr = StringIO()

    with pytest.raises(CommandError):
        call_command("import_plan", path, "--owner", user.email, "--currency", "E1", stderr=stderr)

    assert "currency: Enter a 3-letter currency code such as EUR or USD." in stderr.getvalue()
    assert not Plan.objects.exists()


def test_import_plan_lists_every_problem_on_stderr_and_writes_nothing(
    user: Any, tmp_path: Path
) -> None:
    path = _write(tmp_path, "bad.json", json.dumps(BAD_PLAN))
    stdout, stderr = StringIO(), StringIO()
    before = db_counts()

    with pytest.raises(CommandError) as error:
        call_command("import_plan", path, "--owner", user.email, stdout=stdout, stderr=stderr)

    assert error.value.returncode == 1
    assert "2 problems" in str(error.value)
    assert stderr.getvalue().splitlines() == [
        'node 1 (ref "S1"): kind: “moon” is not one of: site, building, system, component.',
        'action 1: node_ref: no node with ref "S9"',
    ]
    assert stdout.getvalue() == ""
    assert db_counts() == before


def test_import_plan_exits_1_with_the_problems_on_stderr(
    user: Any, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    # run_from_argv closes the database connections when done, which the test still needs.
    monkeypatch.setattr(connections, "close_all", lambda: None)
    path = _write(tmp_path, "bad.json", json.dumps(BAD_PLAN))

    with pytest.raises(SystemExit) as exit_info:
        # --skip-checks: the project-wide system checks are not what this test is about.
        argv = ["manage.py", "import_plan", path, "--owner", user.email, "--skip-checks"]
        ImportPlanCommand().run_from_argv(argv)

    captured = capsys.readouterr()
    assert exit_info.value.code == 1
    assert 'action 1: node_ref: no node with ref "S9"' in captured.err
    assert "nothing was imported" in captured.err
    assert captured.out == ""


def test_import_plan_refuses_an_unknown_owner(tmp_path: Path) -> None:
    path = _write(tmp_path, "plan.json", json.dumps(PLAN))
    before = db_counts()

    with pytest.raises(CommandError, match=r"No account has the email address 'nobody@x\.org'"):
        _run("import_plan", path, "--owner", "nobody@x.org")

    assert db_counts() == before


def test_import_plan_refuses_an_unreadable_file(user: Any, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")

    with pytest.raises(CommandError, match=r"Cannot read .*missing\.json"):
        _run("import_plan", missing, "--owner", user.email)


def test_import_plan_names_a_csv_plan_after_its_file_without_a_name(
    user: Any, tmp_path: Path
) -> None:
    """CSV has no place for the plan's name: the nodes file's name is taken, and a file named
    only for its table gives "Imported plan" and the day."""
    estate = _write(tmp_path, "Harbour estate.csv", "ref,name,kind\nS1,Site,site\n")
    nodes = _write(tmp_path, "nodes.csv", "ref,name,kind\nS1,Site,site\n")
    actions = _write(tmp_path, "actions.csv", "node_ref,title,kind,planned_year\n")

    _run("import_plan", estate, "--actions-csv", actions, "--owner", user.email)
    _run("import_plan", nodes, "--actions-csv", actions, "--owner", user.email)

    names = list(Plan.objects.order_by("number").values_list("name", flat=True))
    assert names == ["Harbour estate", f"Imported plan {datetime.date.today().isoformat()}"]


def test_import_plan_needs_the_actions_file_for_csv(user: Any, tmp_path: Path) -> None:
    nodes = _write(tmp_path, "nodes.csv", "ref,name,kind\nS1,Site,site\n")

    with pytest.raises(CommandError, match="--actions-csv"):
        _run("import_plan", nodes, "--owner", user.email, "--name", "x")


def test_generate_plan_creates_the_requested_counts(user: Any) -> None:
    CodeFactory.create_batch(3)

    stdout, _stderr = _run(
        "generate_plan", "--nodes", "60", "--actions", "150", "--owner", user.email
    )

    plan = Plan.objects.get()
    assert stdout.splitlines()[-1] == str(plan.number)
    assert plan.nodes.count() == 60
    assert plan.actions.count() == 150
    assert plan.nodes.filter(parent__isnull=True).exclude(kind=NodeKind.SITE).count() == 0
    assert plan.nodes.filter(kind=NodeKind.COMPONENT, code__isnull=False).exists()
    assert plan_access_get(user=user, number=plan.number).role == PlanRole.OWNER


@pytest.mark.parametrize("command", ["import_plan", "generate_plan"])
def test_the_import_commands_run_the_plans_first_sync_as_the_import_job_does(
    command: str, user: Any, tmp_path: Path
) -> None:
    """Like the web import, so the plan's first list reads its suggestions."""
    CodeFactory.create_batch(3)
    if command == "import_plan":
        uncoded = {"ref": "C1", "parent_ref": "B1", "name": "Boiler", "kind": "component"}
        document = {**PLAN, "nodes": [*PLAN["nodes"], uncoded]}
        arguments = [_write(tmp_path, "plan.json", json.dumps(document)), "--owner", user.email]
    else:
        arguments = ["--nodes", "60", "--actions", "150", "--owner", user.email]

    stdout, _stderr = _run(command, *arguments)

    plan = Plan.objects.get()
    assert plan.last_synced_at is not None
    opened = Suggestion.objects.filter(plan=plan, status="open").count()
    assert opened > 0
    assert f", {opened} suggestions" in stdout


def test_generate_plan_takes_name_and_handles_a_one_node_plan(user: Any) -> None:
    _run("generate_plan", "--nodes", "1", "--actions", "2", "--owner", user.email, "--name", "Tiny")

    plan = Plan.objects.get()
    assert (plan.name, plan.nodes.count(), plan.actions.count()) == ("Tiny", 1, 2)


def test_generate_plan_is_the_same_for_the_same_seed() -> None:
    codes = CodeFactory.create_batch(4)
    arguments: dict[str, Any] = {"nodes": 40, "actions": 80, "year": 2026, "codes": codes}

    first = synthetic_plan_document(seed=7, **arguments)

    assert synthetic_plan_document(seed=7, **arguments) == first
    assert synthetic_plan_document(seed=8, **arguments) != first


@pytest.mark.parametrize(
    ("nodes", "actions", "message"),
    [
        ("4", "2", "A plan can hold at most 3 nodes; this one would have 4."),
        ("2", "6", "A plan can hold at most 5 actions; this one would have 6."),
    ],
)
def test_generate_plan_beyond_the_limits_exits_with_the_limit_and_writes_nothing(
    user: Any, settings: Any, nodes: str, actions: str, message: str
) -> None:
    settings.PLAN_MAX_NODES, settings.PLAN_MAX_ACTIONS = 3, 5
    before = db_counts()

    with pytest.raises(CommandError) as raised:
        _run("generate_plan", "--nodes", nodes, "--actions", actions, "--owner", user.email)

    assert str(raised.value) == (
        f"{message} The limits are the PLAN_MAX_NODES and PLAN_MAX_ACTIONS settings."
    )
    assert db_counts() == before


def test_generate_plan_refuses_an_unknown_owner() -> None:
    with pytest.raises(CommandError, match="No account"):
        _run("generate_plan", "--nodes", "5", "--actions", "5", "--owner", "nobody@x.org")


def test_import_and_generate_go_into_the_organisation_named_by_org(
    user: Any, tmp_path: Any
) -> None:
    from organisations.services import member_add, organisation_create

    co_op = organisation_create(name="Harbour Co-op", owner=UserFactory.create())
    member_add(organisation=co_op, user=user, role="planner")
    viewer = UserFactory.create()
    member_add(organisation=co_op, user=viewer, role="viewer")

    stdout, _ = _run(
        "generate_plan",
        "--nodes",
        "5",
        "--actions",
        "3",
        "--owner",
        user.email,
        "--org",
        co_op.slug,
    )

    plan = Plan.objects.get(number=int(stdout.splitlines()[-1]))
    assert plan.organisation == co_op
    with pytest.raises(CommandError, match="cannot add plans to harbour-co-op"):
        _run(
            "generate_plan",
            "--nodes",
            "5",
            "--actions",
            "3",
            "--owner",
            viewer.email,
            "--org",
            co_op.slug,
        )
