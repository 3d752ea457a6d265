"""Schemathesis against the live app, with a real key and a real plan: every check on,
including missing/invalid auth and negative data. Zero failures is the bar."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from apikeys.models import ApiKey
from apikeys.services import api_key_create
from planning.models import Plan, Suggestion
from planning.records.adoption import plan_adopt
from planning.suggestions.sync.run import suggestion_sync

pytestmark = pytest.mark.django_db(transaction=True)
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
# The list's `cursor` is valid only as this server issued it, with `limit` and the filters it
# was issued for, and `structure_node_id` only as a node of the plan: rules no schema can
# express, so a schema-valid request may rightly get 400 `validation.query` there (what
# schemathesis recommends for ST202). Every other status of that check stays as it was.
# The same holds for the `cursor` of the plan's history and of a version's actions, and for the
# events' `cursor` and `after` (an id among the key's events of the last 30 days), and for the
# portfolio's `organisation` (the slug of one of the key holder's organisations: given below).
CURSOR_OPERATIONS = (
    "GET /platform/plans",
    "GET /platform/plans/{planNumber}/nodes",
    "GET /platform/plans/{planNumber}/actions",
    "GET /platform/plans/{planNumber}/projects",
    "GET /platform/plans/{planNumber}/suggestions",
    "GET /platform/plans/{planNumber}/history",
    "GET /platform/plans/{planNumber}/versions",
    "GET /platform/plans/{planNumber}/versions/{versionId}/actions",
    "GET /platform/events",
    "GET /platform/webhooks",
    "GET /platform/webhooks/{webhookId}/deliveries",
)
WARNINGS_OFF = "warnings = false"
CONFIG = "".join(
    f"""
[[operations]]
include-name = "{name}"
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]
"""
    for name in CURSOR_OPERATIONS
)


def test_schemathesis_finds_no_failure(live_server, plan_one_key, user, settings, tmp_path):
    # Generous limits so the run explores instead of collecting 429s (throttling has its tests).
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "100000/minute",
        "api_auth_failure": "100000/minute",
        "api_auth_failure_address": "100000/minute",
    }
    plan = Plan.objects.get(number=1)  # the planNumber example, so real data is exercised
    # A key that may act too, so the acts are run, not only refused.
    _key, raw_key = api_key_create(
        user=user, name="contract acts", permission=ApiKey.Permission.READ_WRITE
    )
    # An adopted version of plan 1, whose id the version's actions are asked with, and one of
    # its suggestions, which the acts dismiss and restore (409 once it is already so).
    version = plan_adopt(plan=plan, name="Adopted for the contract")
    suggestion_sync(plan=plan)
    suggestion = Suggestion.objects.filter(plan=plan).order_by("pk").first()
    assert suggestion is not None
    action, doomed = plan.actions.order_by("pk")[:2]
    config = (
        CONFIG
        + f"""
[[operations]]
include-name = "GET /platform/plans/{{planNumber}}/versions/{{versionId}}/actions"
parameters = {{ versionId = "{version.pk}" }}

[[operations]]
include-name = "GET /platform/portfolio"
parameters = {{ organisation = "{plan.organisation.slug}" }}
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]
"""
        + "".join(
            f"""
[[operations]]
include-name = "POST /platform/plans/{{planNumber}}/suggestions/{{suggestionId}}/{act}"
parameters = {{ suggestionId = "{suggestion.pk}" }}
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]
{WARNINGS_OFF if act == "apply" else ""}
"""
            for act in ("dismiss", "restore", "apply")
        )
        # The action acts: bounds that move with today's year, a node or project that must be
        # the plan's, a code among the suggestion's: 400 `validation.failed` for schema-valid
        # bodies is their answer, as for the suggestion acts.
        + "".join(
            f"""
[[operations]]
include-name = "{name}"
parameters = {{ actionId = "{action_id}" }}
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]
{extra}
"""
            for name, action_id, extra in (
                # Random node ids, years outside today's bounds and a first completion that
                # makes every later one a 409: schemathesis warns of 404s and of "mostly
                # rejected" data, which for these acts is the right answer (the tests of
                # platform_api cover their successes).
                ("POST /platform/plans/{planNumber}/actions", action.pk, WARNINGS_OFF),
                ("PATCH /platform/plans/{planNumber}/actions/{actionId}", action.pk, ""),
                (
                    "POST /platform/plans/{planNumber}/actions/{actionId}/complete",
                    action.pk,
                    WARNINGS_OFF,
                ),
                # Its own action, which its first success deletes: a 404 from then on is right.
                ("DELETE /platform/plans/{planNumber}/actions/{actionId}", doomed.pk, WARNINGS_OFF),
            )
        )
    )
    # The webhook operations answer only a service account's read_write key (a person's key is
    # 403): they run with one of plan 1's organisation. A schema-valid URL may rightly be
    # refused (400: not https, or a host that does not resolve to public addresses), and a
    # test event 409 once the pending ceiling is reached. Their warnings are off: most random
    # URLs are refused by design (the SSRF guard) and random ids are 404 (the same answer as
    # another organisation's endpoint); their answers are checked as every operation's.
    organisation = plan.organisation
    organisation.api_access_enabled = True
    organisation.save(update_fields=["api_access_enabled"])
    _service, service_key = api_key_create(
        user=None,
        name="contract webhooks",
        organisation=organisation,
        permission=ApiKey.Permission.READ_WRITE,
    )
    config += f"""
[[operations]]
include-path-regex = "^/platform/webhooks"
headers = {{ Authorization = "Bearer {service_key}" }}
warnings = false
checks.positive_data_acceptance.expected-statuses = [
    "2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx",
]
"""
    (tmp_path / "schemathesis.toml").write_text(config)  # read from the working directory

    result = subprocess.run(
        [
            str(SCHEMATHESIS),
            "run",
            f"{live_server.url}/api/v1/schema/",
            "--header",
            f"Authorization: Bearer {raw_key}",
            "--checks",
            "all",
            "--workers",
            "1",
            "--max-examples",
            os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "60"),
            "--seed",
            "20261122",
            "--request-timeout",
            "20",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "No issues found" in result.stdout, result.stdout[-4000:]
    assert raw_key not in result.stdout  # schemathesis filters the header in its reports
