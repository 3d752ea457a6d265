"""The limits of docs/subsystems/limits.md "Limits" have their documented defaults and are read from
the
environment."""

from __future__ import annotations

from tests.config.test_settings import run_django

PRINT_LIMITS = (
    "from django.conf import settings as s; "
    "print(s.PLAN_MAX_NODES, s.PLAN_MAX_ACTIONS, s.IMPORT_MAX_BYTES, s.API_MAX_BODY_BYTES, "
    "s.IMPORTS_QUEUED_MAX, s.WEBHOOK_TEST_EVENTS_PENDING_MAX)"
)
LIMIT_VARIABLES = (
    "PLAN_MAX_NODES",
    "PLAN_MAX_ACTIONS",
    "IMPORT_MAX_BYTES",
    "API_MAX_BODY_BYTES",
    "IMPORTS_QUEUED_MAX",
    "WEBHOOK_TEST_EVENTS_PENDING_MAX",
)


def test_limits_default_to_the_design():
    result = run_django(
        ["shell", "--no-imports", "-c", PRINT_LIMITS], {name: "" for name in LIMIT_VARIABLES}
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "50000",
        "250000",
        str(32 * 1024 * 1024),
        str(1024 * 1024),
        "2",
        "3",
    ]


def test_limits_are_read_from_the_environment():
    overrides = dict(zip(LIMIT_VARIABLES, ("7", "8", "9", "10", "11", "12"), strict=True))

    result = run_django(["shell", "--no-imports", "-c", PRINT_LIMITS], overrides)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["7", "8", "9", "10", "11", "12"]


def test_a_limit_that_is_not_a_number_stops_the_process():
    result = run_django(["check"], {"PLAN_MAX_NODES": "lots"})

    assert result.returncode != 0
    assert "PLAN_MAX_NODES must be an integer" in result.stderr


def test_a_queue_share_of_zero_stops_the_process():
    result = run_django(["check"], {"IMPORTS_QUEUED_MAX": "0"})

    assert result.returncode != 0
    assert "IMPORTS_QUEUED_MAX must be >= 1" in result.stderr
