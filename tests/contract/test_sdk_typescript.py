"""The TypeScript SDK (clients/typescript): its JSDoc types check with `tsc --strict` against
the committed schema types, and its `node --test` suite passes against a live server (every
page, a 304 poll, one dismissal sent twice with one idempotency key, event replay, a real
webhook delivery verified; docs/subsystems/schema-and-sdks.md "SDKs"). Needs Node.js (Debian's
nodejs) and, for the type check, tests/typescript installed (`make test` does it with npm);
skipped without."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.contract.conftest import SdkServer
from tests.webhooks.conftest import run_worker
from webhooks.events import endpoint_test_event_send

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
TSC = ROOT / "tests" / "typescript" / "node_modules" / ".bin" / "tsc"


@pytest.fixture
def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.skip("needs Node.js (Debian's nodejs package)")
    return path


def test_the_wrapper_typechecks_strictly_against_the_schema_types(node: str) -> None:
    if not TSC.exists():
        pytest.skip("needs tests/typescript installed (make test does it with npm)")
    checked = subprocess.run(
        [str(TSC), "-p", "tsconfig.json"],
        cwd=PACKAGE,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.django_db(transaction=True)
def test_node_tests_pass_against_a_live_server(
    node: str, sdk_server: SdkServer, tmp_path: Path
) -> None:
    endpoint_test_event_send(endpoint=sdk_server.endpoint)
    run_worker()
    (delivery,) = sdk_server.receiver.received
    (tmp_path / "delivery.json").write_text(
        json.dumps({"body": delivery.body.decode(), "headers": delivery.headers})
    )

    result = subprocess.run(
        [node, "--test", "test/"],
        cwd=PACKAGE,
        env={
            "PATH": os.environ["PATH"],
            "MAINTPLAN_URL": sdk_server.url,
            "MAINTPLAN_API_KEY": sdk_server.api_key,
            "MAINTPLAN_WEBHOOK_SECRET": sdk_server.secret,
            "MAINTPLAN_DELIVERY": str(tmp_path / "delivery.json"),
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "# pass 2" in result.stdout and "# skipped 0" in result.stdout, result.stdout
