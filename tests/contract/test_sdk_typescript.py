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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.contract import sdk_support
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


@pytest.fixture
def control() -> Iterator[str]:
    yield from sdk_support.control_server()


@pytest.fixture
def user_agents() -> Iterator[sdk_support.UserAgents]:
    yield from sdk_support.user_agents()


@pytest.mark.django_db(transaction=True)
def test_node_tests_pass_against_a_live_server(
    node: str,
    sdk_server: SdkServer,
    tmp_path: Path,
    control: str,
    user_agents: sdk_support.UserAgents,
    settings: Any,
) -> None:
    settings.MAINTPLAN_THROTTLE_RATES = dict(settings.MAINTPLAN_THROTTLE_RATES)  # restored after
    version = sdk_support.every_list_filled()
    endpoint_test_event_send(endpoint=sdk_server.endpoint)
    run_worker()
    # The test event's delivery (the plan data events of the filled lists are delivered too).
    (delivery,) = [
        received
        for received in sdk_server.receiver.received
        if json.loads(received.body)["type"] == "webhook.test"
    ]
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
            "MAINTPLAN_VERSION_ID": version,
            "MAINTPLAN_CONTROL": control,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    # every page and acts, webhooks, every list, the 410 restart, the 429 retry
    assert "# pass 5" in result.stdout and "# skipped 0" in result.stdout, result.stdout
    assert set(user_agents.seen) == {"maintplan-typescript/1.1.0"}


def test_the_npm_tarball_installs_offline_and_imports(node: str, tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("needs npm (Debian's npm package)")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "npm_config_cache": str(tmp_path / "cache"),
    }
    packed = subprocess.run(
        [npm, "pack", "--pack-destination", str(tmp_path)],
        cwd=PACKAGE,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    tarball = tmp_path / "maintplan-1.1.0.tgz"
    assert packed.stdout.strip().endswith(tarball.name), packed.stdout
    listed = subprocess.run(
        ["tar", "-tzf", str(tarball)], capture_output=True, text=True, check=True, timeout=30
    ).stdout.split()
    assert sorted(listed) == [
        f"package/{name}"
        for name in (
            "CHANGELOG.md",
            "README.md",
            "maintplan.d.ts",
            "maintplan.js",
            "package.json",
            "schema.d.ts",
        )
    ]
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    subprocess.run(
        [npm, "install", "--offline", "--no-audit", "--no-fund", str(tarball)],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    imported = subprocess.run(
        [node, "-e", 'import("maintplan").then((m) => console.log(m.USER_AGENT, typeof m.Client))'],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert imported.stdout.strip() == "maintplan-typescript/1.1.0 function"
