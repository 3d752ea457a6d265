"""A walk of the suggestion list needs nothing but its cursor and the database
(docs/adr/0018-walks-keep-their-order.md): served by gunicorn with two workers that each
answer one request and are replaced (so no page meets the process that answered the page
before), with no Redis, the plan changing between pages and the whole server restarted in the
middle of the walk, every page is 200 and every suggestion that stayed open comes exactly once.

End to end, with its own SQLite database file in a temporary data folder (the walk's design
does not depend on the database; tests/platform_api/test_paging_guarantee.py runs the same
guarantee in-process on both databases)."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.harness import ROOT, free_port, start_gunicorn

# Between two pages: a component gains a live action (its missing code rises from info to
# warning: the row moves ahead in the order), another loses its actions (it drops, or its
# other suggestions resolve), one loses its code (new suggestions), one is deleted.
CHANGE = """
import random
from planning.models import Action, ActionKind, NodeKind, Plan, StructureNode
from tests.factories import ActionFactory
rng = random.Random({seed})
plan = Plan.objects.get(number={number})
components = list(StructureNode.objects.filter(plan=plan, kind=NodeKind.COMPONENT).order_by("id"))
bare = [node for node in components if not Action.objects.filter(node=node).exists()]
if bare:
    node = rng.choice(bare)
    ActionFactory.create(node=node, kind=ActionKind.INSPECTION)
Action.objects.filter(node=rng.choice(components)).delete()
StructureNode.objects.filter(pk=rng.choice(components).pk).update(code=None)
StructureNode.objects.filter(pk=rng.choice(components).pk).delete()
"""


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    data = tmp_path_factory.mktemp("walk-data")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        MAINTPLAN_DATA_DIR=str(data),
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),  # the same across the restart, as in a deploy
        PYTHONPATH=str(ROOT),
    )
    _manage(env, "migrate", "--noinput", "-v", "0")
    email = "walker@example.com"
    _manage(
        env,
        "shell",
        "-c",
        "from accounts.models import User\n"
        "from apikeys.services import api_access_set\n"
        f"user = User.objects.create_user(email={email!r}, password=None, name='Walker')\n"
        "api_access_set(user=user, enabled=True)\n",
    )
    raw_key = _manage(env, "issue_api_key", email, "--name", "walker").strip()
    _manage(env, "generate_plan", "--nodes", "80", "--actions", "100", "--owner", email)
    yield {"env": env, "key": raw_key, "data": data}


def _start(env: dict[str, str], port: int, log: Path) -> Any:
    # Two workers, each replaced after every request: no page meets the process of the last.
    return start_gunicorn(env, port, log, "--workers", "2", "--max-requests", "1")


def _get(port: int, key: str, path: str) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {key}"})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_walk_holds_across_processes_and_a_restart_without_a_shared_cache(
    served: dict[str, Any],
) -> None:
    env, key = served["env"], served["key"]
    port = free_port()
    log = served["data"] / "gunicorn.log"
    server = _start(env, port, log)
    path = "/api/v1/platform/plans/1/suggestions"
    try:
        status, whole = _get(port, key, path)
        assert status == 200
        stayed = _open(whole)
        assert len(stayed) > 40

        seen: list[str] = []
        status, body = _get(port, key, f"{path}?limit=12")
        pages = 1
        while True:
            assert status == 200, body
            seen += [s["id"] for s in body["data"]["suggestions"]]
            cursor = body["data"]["next_cursor"]
            if cursor is None:
                break
            _manage(env, "shell", "-c", CHANGE.format(seed=pages, number=1))
            if pages == 2:  # a deploy: the server stops and starts again
                server.terminate()
                server.wait(timeout=30)
                server = _start(env, port, log)
            # What is open after each change (one change, one sync: a suggestion cannot leave
            # and come back unseen); a row in every one of these stayed for the whole walk.
            status, whole = _get(port, key, path)
            stayed &= _open(whole)
            status, body = _get(port, key, f"{path}?limit=12&cursor={cursor}")
            pages += 1
    finally:
        server.terminate()
        server.wait(timeout=30)

    assert pages > 3
    assert len(seen) == len(set(seen)), "a suggestion came twice"
    assert stayed <= set(seen), "a suggestion that stayed open was skipped"


def _open(answer: dict[str, Any]) -> set[str]:
    return {s["id"] for s in answer["data"]["suggestions"]}
