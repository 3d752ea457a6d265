from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.utils import timezone

from apikeys.keys import key_hash, key_is_well_formed
from apikeys.models import ApiKey


def run(*args: str) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


def test_grant_api_access_sets_the_flag(user: Any) -> None:
    stdout, _ = run("grant_api_access", user.email.upper())
    user.refresh_from_db()
    assert user.api_access_enabled is True
    assert f"API access enabled for {user.email}" in stdout


def test_grant_api_access_revoke_clears_the_flag(user: Any) -> None:
    user.api_access_enabled = True
    user.save(update_fields=["api_access_enabled"])
    run("grant_api_access", user.email, "--revoke")
    user.refresh_from_db()
    assert user.api_access_enabled is False


def test_issue_api_key_prints_only_the_raw_key(user: Any) -> None:
    stdout, _ = run("issue_api_key", user.email, "--name", "Nightly export")
    raw = stdout.strip()
    assert stdout == raw + "\n"
    assert key_is_well_formed(raw)
    api_key = ApiKey.objects.get(owner=user)
    assert api_key.name == "Nightly export"
    assert api_key.key_hash == key_hash(raw)
    assert api_key.expires_at is None


def test_issue_api_key_with_expiry(user: Any) -> None:
    run("issue_api_key", user.email, "--name", "Trial", "--expires-days", "7")
    expires_at = ApiKey.objects.get(owner=user).expires_at
    assert expires_at is not None
    assert abs(expires_at - (timezone.now() + timedelta(days=7))) < timedelta(minutes=1)


def test_issue_api_key_warns_on_stderr_when_access_is_not_granted(user: Any) -> None:
    stdout, stderr = run("issue_api_key", user.email, "--name", "x")
    assert "API access is not enabled" in stderr
    assert "API access" not in stdout


def test_issue_api_key_for_unknown_email_creates_no_key(db: Any) -> None:
    with pytest.raises(CommandError, match="No account has the email address"):
        run("issue_api_key", "nobody@example.com", "--name", "x")
    assert not ApiKey.objects.exists()


def test_issue_api_key_rejects_zero_expiry_days(user: Any) -> None:
    with pytest.raises(CommandError, match="--expires-days"):
        run("issue_api_key", user.email, "--name", "x", "--expires-days", "0")
    assert not ApiKey.objects.exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["grant_api_access", "nobody@example.com"],
        ["issue_api_key", "nobody@example.com", "--name", "x"],
    ],
)
def test_unknown_email_exits_1_with_message_on_stderr(
    db: Any, capsys: Any, argv: list[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        ManagementUtility(["manage.py", *argv]).execute()
    captured = capsys.readouterr()
    assert exit_info.value.code == 1
    assert captured.out == ""
    # (no database query here: on exit a command closes the connections, PostgreSQL's included)
    assert "No account has the email address 'nobody@example.com'" in captured.err
