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

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "integrators.md").read_text()
BLOCKS = re.findall(r"```(sh|python)\n(.*?)```", GUIDE, flags=re.DOTALL)
SH_BLOCKS = [code for lang, code in BLOCKS if lang == "sh"]
PYTHON_BLOCKS = [code for lang, code in BLOCKS if lang == "python"]


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
    script = "set -euo pipefail\n" + SH_BLOCKS[0] + block
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


def test_guide_has_the_commands_this_test_expects():
    assert len(SH_BLOCKS) == 4
    assert len(PYTHON_BLOCKS) == 1


@pytest.mark.django_db(transaction=True)
def test_session_check_command(guide_env, user):
    env, raw_key = guide_env

    body = json.loads(run_shell_block(SH_BLOCKS[1], env, raw_key))

    assert body["success"] is True
    assert body["data"]["user"]["email"] == user.email
    assert body["data"]["api_key"]["name"] == "contract"


@pytest.mark.django_db(transaction=True)
def test_suggestion_list_command(guide_env):
    env, raw_key = guide_env

    body = json.loads(run_shell_block(SH_BLOCKS[2], env, raw_key))

    assert body["success"] is True
    assert body["data"]["plan_number"] == 1
    assert body["data"]["open_count"] == len(body["data"]["suggestions"]) > 0


@pytest.mark.django_db(transaction=True)
def test_trace_id_command_echoes_the_request_id(guide_env):
    env, raw_key = guide_env

    output = run_shell_block(SH_BLOCKS[3], env, raw_key)

    assert "X-Request-ID: erp-sync-2026-11-22-0001" in output
    assert '"traceId":"erp-sync-2026-11-22-0001"' in output.replace(" ", "")


@pytest.mark.django_db(transaction=True)
def test_python_example(guide_env):
    env, raw_key = guide_env

    result = subprocess.run(
        [sys.executable, "-c", PYTHON_BLOCKS[0]],
        env={**env, "MAINTPLAN_API_KEY": raw_key},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    assert re.search(r"^\d+ open suggestions$", result.stdout, flags=re.MULTILINE)
    assert "project_grouping" in result.stdout or "missing_code" in result.stdout


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
    }
    assert integrator_keys <= documented.keys()
