"""Schemathesis against the live app, with a real key and a real plan: every check on,
including missing/invalid auth and negative data. Zero failures is the bar."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db(transaction=True)
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def test_schemathesis_finds_no_failure(live_server, plan_one_key, settings, tmp_path):
    # Generous limits so the run explores instead of collecting 429s (throttling has its tests).
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "100000/minute",
    }
    raw_key = plan_one_key  # plan #1 is the planNumber example, so real data is exercised

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
    assert "No issues found" in result.stdout
    assert raw_key not in result.stdout  # schemathesis filters the header in its reports
