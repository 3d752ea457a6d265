"""Runs every command of docs/integrators.md exactly as written, against the live app."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from api.errors import ERROR_CATALOG
from api.openapi import AUTH_ERRORS
from apikeys.models import ApiKey
from apikeys.services import api_key_create
from planning.models import Action, Plan
from planning.records.adoption import plan_adopt
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import StructureNodeFactory
from webhooks.models import WebhookEndpoint, WebhookEvent

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "integrators.md").read_text()
BLOCKS = re.findall(r"```(sh|python)\n(.*?)```", GUIDE, flags=re.DOTALL)
SH_BLOCKS = [code for lang, code in BLOCKS if lang == "sh"]
PYTHON_BLOCKS = [code for lang, code in BLOCKS if lang == "python"]
(
    SETUP,
    SESSION_CHECK,
    LIST,
    FILTERS,
    CONDITIONAL,
    GZIP,
    TRACE_ID,
    WEBHOOKS_API,
    FUNDING,
    RECORD,
    EVENTS,
    PORTFOLIO,
    ACTIONS,
) = SH_BLOCKS
# The last two blocks, the webhook signature checks, run in tests/webhooks/test_integrator_guide.py.
(PYTHON_LIST, PYTHON_PAGES, PYTHON_STANDARD_WEBHOOKS, PYTHON_WEBHOOK_SIGNATURE) = PYTHON_BLOCKS


@pytest.fixture
def guide_env(live_server, plan_one_key):
    """A server with plan 1 and a key; returns (environment, raw key)."""
    if shutil.which("curl") is None:
        pytest.fail("the guide's commands need curl (CI installs it)")
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}
    env["MAINTPLAN_URL"] = live_server.url
    return env, plan_one_key


def run_shell_block(block: str, env: dict[str, str], raw_key: str) -> str:
    """The setup block (export + read the key from the terminal), then `block`, in one shell."""
    script = "set -euo pipefail\n" + SETUP + block
    result = subprocess.run(
        ["bash", "-c", script],
        input=raw_key + "\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def big_plan_one(guide_env):
    """Plan 1 with 150 more uncoded components: 150 more missing-code suggestions, so the list
    has two pages of 100 and a body well over 1 KB."""
    StructureNodeFactory.create_batch(150, plan=Plan.objects.get(number=1))
    return guide_env


def run_python_block(block: str, env: dict[str, str], raw_key: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", block],
        env={**env, "MAINTPLAN_API_KEY": raw_key},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_guide_has_the_commands_this_test_expects():
    assert "/suggestions" in LIST and "--data-urlencode" in FILTERS
    assert "If-None-Match" in CONDITIONAL and "--compressed" in GZIP
    assert "X-Request-ID" in TRACE_ID and "next_cursor" in PYTHON_PAGES


@pytest.mark.django_db(transaction=True)
def test_session_check_command(guide_env, user):
    env, raw_key = guide_env

    body = json.loads(run_shell_block(SESSION_CHECK, env, raw_key))

    assert body["success"] is True
    assert body["data"]["user"]["email"] == user.email
    assert body["data"]["api_key"]["name"] == "contract"


@pytest.mark.django_db(transaction=True)
def test_suggestion_list_command(guide_env):
    env, raw_key = guide_env

    body = json.loads(run_shell_block(LIST, env, raw_key))

    assert body["success"] is True
    assert body["data"]["plan_number"] == 1
    assert body["data"]["open_count"] == len(body["data"]["suggestions"]) > 0


@pytest.mark.django_db(transaction=True)
def test_record_commands_read_the_history_and_a_versions_actions(guide_env):
    env, raw_key = guide_env
    plan = Plan.objects.get(number=1)
    plan_adopt(plan=plan, name="Adopted by the board")

    output = run_shell_block(RECORD, env, raw_key).lstrip()  # the prompt line's newline
    first, end = json.JSONDecoder().raw_decode(output)  # curl adds no newline between them
    second, _ = json.JSONDecoder().raw_decode(output[end:].lstrip())

    assert first["data"]["entries"][0]["operation"] == "import"
    actions = second["data"]["actions"]
    assert len(actions) == plan.actions.count() > 0


@pytest.mark.django_db(transaction=True)
def test_funding_command_reads_the_plans_fund(guide_env):
    from decimal import Decimal

    from planning.models import Fund

    env, raw_key = guide_env
    Fund.objects.create(
        plan=Plan.objects.get(number=1),
        opening_balance=Decimal("1000.00"),
        start_year=2026,
        contribution=Decimal("250.00"),
        horizon_years=10,
    )

    body = json.loads(run_shell_block(FUNDING, env, raw_key))

    fund = body["data"]["fund"]
    assert fund["settings"]["contribution"] == "250.00"
    assert [row["year"] for row in fund["figures"]["years"]] == list(range(2026, 2036))
    assert fund["figures"]["goals"][0]["goal"] == "baseline"


@pytest.mark.django_db(transaction=True)
def test_events_command_replays_after_the_last_event(guide_env):
    env, raw_key = guide_env
    suggestion_sync(plan=Plan.objects.get(number=1))
    assert WebhookEvent.objects.filter(plan__number=1).exists()

    body = json.loads(run_shell_block(EVENTS, env, raw_key).lstrip())

    assert body["success"] is True
    assert body["data"] == {"events": [], "next_cursor": None}  # nothing after the last one


@pytest.mark.django_db(transaction=True)
def test_portfolio_command_lists_the_organisations_plans(guide_env):
    env, raw_key = guide_env
    plan = Plan.objects.get(number=1)

    body = json.loads(
        run_shell_block(
            PORTFOLIO, {**env, "MAINTPLAN_ORGANISATION": plan.organisation.slug}, raw_key
        )
    )

    assert body["success"] is True
    assert [row["number"] for row in body["data"]["plans"]] == [1]
    assert body["data"]["totals"][0]["plans"] == 1


@pytest.mark.django_db(transaction=True)
def test_action_commands_create_change_and_list_the_event(guide_env, user):
    env, _read_key = guide_env
    _api_key, raw_key = api_key_create(user=user, name="acts", permission="read_write")

    body = json.loads(run_shell_block(ACTIONS, env, raw_key).lstrip())

    [event] = body["data"]["events"]
    [change] = event["data"]["changes"]
    assert change["fields"] == {"estimated_cost": {"before": "0.00", "after": "480.00"}}
    action = Action.objects.get(pk=change["id"])
    assert (action.title, action.plan.number) == ("Service the boiler", 1)


@pytest.mark.django_db(transaction=True)
def test_trace_id_command_echoes_the_request_id(guide_env):
    env, raw_key = guide_env

    output = run_shell_block(TRACE_ID, env, raw_key)

    assert "X-Request-ID: erp-sync-2026-11-22-0001" in output
    assert '"traceId":"erp-sync-2026-11-22-0001"' in output.replace(" ", "")


@pytest.mark.django_db(transaction=True)
def test_python_example(guide_env):
    env, raw_key = guide_env

    output = run_python_block(PYTHON_LIST, env, raw_key)

    assert re.search(r"^\d+ open suggestions$", output, flags=re.MULTILINE)
    assert "project_grouping" in output or "missing_code" in output


@pytest.mark.django_db(transaction=True)
def test_filter_command_gets_a_filtered_first_page(big_plan_one):
    env, raw_key = big_plan_one

    data = json.loads(run_shell_block(FILTERS, env, raw_key))["data"]

    assert len(data["suggestions"]) == 100
    assert {s["suggestion_type"] for s in data["suggestions"]} == {"missing_code"}
    assert {s["severity"] for s in data["suggestions"]} <= {"warning", "info"}
    assert data["open_count"] > 100
    assert data["next_cursor"]


@pytest.mark.django_db(transaction=True)
def test_paging_loop_reads_every_page(big_plan_one):
    env, raw_key = big_plan_one

    output = run_python_block(PYTHON_PAGES, env, raw_key)

    match = re.search(r"^(\d+) of (\d+) suggestions in (\d+) pages$", output, flags=re.MULTILINE)
    assert match, output
    read, open_count, pages = map(int, match.groups())
    assert read == open_count > 150
    assert pages == 2


@pytest.mark.django_db(transaction=True)
def test_conditional_request_command_gets_a_304(guide_env):
    env, raw_key = guide_env

    output = run_shell_block(CONDITIONAL, env, raw_key)

    assert output.strip() == "304"


@pytest.mark.django_db(transaction=True)
def test_compressed_command_gets_gzip(big_plan_one):
    env, raw_key = big_plan_one

    output = run_shell_block(GZIP, env, raw_key)

    assert re.search(r"^Content-Encoding: gzip\r?$", output, flags=re.MULTILINE | re.IGNORECASE)


@pytest.mark.django_db(transaction=True)
def test_webhooks_api_commands_add_an_endpoint_test_it_and_list_its_delivery(guide_env, settings):
    """Section 12's block with a service account's read_write key and a receiver on loopback
    (a server started with WEBHOOK_ALLOW_PRIVATE_TARGETS, as the guide says)."""
    env, _person_key = guide_env
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    organisation = Plan.objects.get(number=1).organisation
    organisation.api_access_enabled = True
    organisation.save(update_fields=["api_access_enabled"])
    _key, service_key = api_key_create(
        user=None, name="ERP", organisation=organisation, permission=ApiKey.Permission.READ_WRITE
    )
    env = {**env, "RECEIVER_URL": "http://127.0.0.1:9/maintplan"}

    output = run_shell_block(WEBHOOKS_API, env, service_key)

    endpoint = WebhookEndpoint.objects.get(organisation=organisation)
    assert "Secret (store it now): whsec_" in output
    assert endpoint.url == "http://127.0.0.1:9/maintplan" and endpoint.description == "ERP"
    deliveries = json.loads(output[output.rindex('{"success"') :])["data"]["deliveries"]
    assert [row["event_type"] for row in deliveries] == ["webhook.test"]


def test_error_table_matches_the_error_catalog():
    rows = re.findall(r"^\| (\d{3}) \| `([a-z_.]+)` \|", GUIDE, flags=re.MULTILINE)
    documented = {key: int(status) for status, key in rows}

    for key, status in documented.items():
        assert ERROR_CATALOG[key][0] == status, key
    integrator_keys = {key for keys in AUTH_ERRORS.values() for key in keys} | {
        "validation.plan_number",
        "validation.malformed_json",
        "validation.body_not_object",
        "plans.not_found",
        "routing.not_found",
        "validation.unsupported_media_type",
        "validation.query",
        "routing.not_acceptable",
        "request.too_large",
    }
    assert integrator_keys <= documented.keys()
