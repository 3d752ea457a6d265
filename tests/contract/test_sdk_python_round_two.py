"""The Python SDK's round two against a live server (docs/integrators.md section 17): a typed
iterator for every list, sync and async; a 429 retried after its Retry-After; ApiError with
the answer's headers and `retry_after`; a walk whose cursor expired (410) started again with no
row twice; the User-Agent the server saw; `poll(keep_last=True)`; and the built wheel installed
into a fresh virtual environment, offline."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import time
import venv
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from tests.contract import sdk_support
from tests.contract.conftest import SdkServer

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))

import maintplan  # noqa: E402 (the SDK is not installed into the project's venv)
from maintplan import NO_RETRY, ActFailed, ApiError, AsyncClient, Client, RetryPolicy  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


MODELS = {
    "plans": "PlanItem",
    "nodes": "Node",
    "actions": "Action",
    "projects": "Project",
    "history": "HistoryEntry",
    "versions": "Version",
    "version_actions": "VersionAction",
    "suggestions": "Suggestion",
    "events": "Event",
}


@pytest.fixture
def user_agents() -> Iterator[sdk_support.UserAgents]:
    yield from sdk_support.user_agents()


T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: in the whole suite a browser test's Playwright
    leaves an event loop running in this thread, where `asyncio.run` refuses to start."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _statuses(seen: list[int]) -> dict[str, Any]:
    """httpx arguments that record the status of every answer into `seen`."""
    return {"event_hooks": {"response": [lambda response: seen.append(response.status_code)]}}


def test_typed_iterators_for_every_list_sync_and_async(
    sdk_server: SdkServer, user_agents: sdk_support.UserAgents
) -> None:
    version = sdk_support.every_list_filled()
    client = Client(sdk_server.url, sdk_server.api_key)
    walks = {
        "plans": lambda c: c.plans(limit=1),
        "nodes": lambda c: c.nodes(1, limit=3),
        "actions": lambda c: c.actions(1, limit=2),
        "projects": lambda c: c.projects(1, limit=1),
        "history": lambda c: c.history(1, limit=5),
        "versions": lambda c: c.versions(1, limit=1),
        "version_actions": lambda c: c.version_actions(1, version, limit=2),
        "suggestions": lambda c: c.suggestions(1, limit=2),
        "events": lambda c: c.events(plan=1, limit=1),
    }
    rows = {name: list(walk(client)) for name, walk in walks.items()}
    # Every row of every list, once, as its generated model, equal to the unpaged answer.
    for name, spec in zip(walks, maintplan.LISTS, strict=True):
        typed = rows[name]
        assert typed, f"{name} is empty"
        model = type(spec.parse(typed[0].to_dict()))
        assert model.__name__ == MODELS[name] and all(type(row) is model for row in typed)
        ids = [row.to_dict()[spec.id_field] for row in typed]
        assert len(ids) == len(set(ids)), name
    assert [n.name for n in rows["nodes"]][:1] and len(rows["nodes"]) == 12  # 8 + 4 uncoded
    assert len(rows["actions"]) == len(rows["version_actions"]) == 5
    assert [p.name for p in rows["projects"]] == ["Roof 2030"]
    assert [v.name for v in rows["versions"]] == ["Adopted by the board"]
    assert len(rows["suggestions"]) == 5

    def row_id(spec: maintplan.ListSpec[Any], row: Any) -> str:
        return str(row.to_dict()[spec.id_field])

    async def walk_async() -> dict[str, list[str]]:
        async with AsyncClient(sdk_server.url, sdk_server.api_key) as aclient:
            return {
                name: [row_id(spec, row) async for row in walk(aclient)]
                for (name, walk), spec in zip(walks.items(), maintplan.LISTS, strict=True)
            }

    assert run_async(walk_async()) == {
        name: [row_id(spec, row) for row in rows[name]]
        for name, spec in zip(walks, maintplan.LISTS, strict=True)
    }
    assert set(user_agents.seen) == {f"maintplan-python/{maintplan.__version__}"}
    assert maintplan.__version__ == "1.1.0"


def test_a_429_is_retried_after_its_retry_after_and_the_error_keeps_the_headers(
    sdk_server: SdkServer, settings: Any
) -> None:
    sdk_support.key_throttle_set("2/s")
    seen: list[int] = []
    waits: list[float] = []
    client = Client(sdk_server.url, sdk_server.api_key, httpx_args=_statuses(seen))

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    client.sleep = sleep
    once = Client(sdk_server.url, sdk_server.api_key, retry=NO_RETRY)

    assert [p.number for p in client.plans()] == [1]
    client.get("/platform/plans/1")
    with pytest.raises(ApiError) as refused:  # the third request in the second: refused
        once.get("/platform/plans/1")
    error = refused.value
    assert (error.status, error.message_key) == (429, "throttle.rate_limited")
    assert error.retry_after is not None and 1 <= error.retry_after <= 2
    assert error.headers["Retry-After"] == str(int(error.retry_after))
    assert error.headers["RateLimit-Policy"].startswith('"key";q=2')
    assert error.trace_id

    # The retrying client waits out Retry-After and gets its answer.
    assert client.get("/platform/plans/1")["number"] == 1
    assert seen[-2:] == [429, 200]
    assert len(waits) == 1 and waits[0] >= 1
    # An act that meets a 429 is sent again with the same Idempotency-Key: done once.
    targets = [str(suggestion.id) for suggestion in client.suggestions(1, limit=10)][:3]
    posts: list[tuple[int, str]] = []
    acting = Client(
        sdk_server.url,
        sdk_server.api_key,
        httpx_args={
            "event_hooks": {
                "response": [
                    lambda r: (
                        posts.append((r.status_code, r.request.headers["Idempotency-Key"]))
                        if r.request.method == "POST"
                        else None
                    )
                ]
            }
        },
    )

    def spend_the_second() -> None:
        for _ in range(20):
            try:
                once.get("/platform/plans/1")
            except ApiError as error:
                if error.status == 429:
                    return

    # The second may turn between the last refused read and the act on a loaded machine: then
    # the act is not refused, and the next suggestion is tried (three at most).
    for target in targets:
        posts.clear()
        spend_the_second()
        acted = acting.dismiss(1, target, "accepted")
        assert not acted.replayed and acted.suggestion.status == "dismissed"
        if [status for status, _key in posts] == [429, 200]:
            break
    assert [status for status, _key in posts] == [429, 200]
    assert {key for _status, key in posts} == {acted.idempotency_key}


def test_a_walk_whose_cursor_expired_starts_again_and_yields_no_row_twice(
    sdk_server: SdkServer,
) -> None:
    seen: list[int] = []
    client = Client(sdk_server.url, sdk_server.api_key, httpx_args=_statuses(seen))
    every = [str(s.id) for s in client.suggestions(1)]
    walked = []
    for suggestion in client.suggestions(1, limit=2):
        walked.append(str(suggestion.id))
        if len(walked) == 1:
            sdk_support.walks_expire()  # the cursor of page 2 now answers 410
    assert walked == every and len(every) == 5
    assert 410 in seen  # it did meet the expired cursor

    async def expired_async() -> list[str]:
        async with AsyncClient(sdk_server.url, sdk_server.api_key) as aclient:
            rows = []
            async for suggestion in aclient.suggestions(1, limit=2):
                rows.append(str(suggestion.id))
                if len(rows) == 3:
                    sdk_support.walks_expire()
            return rows

    assert run_async(expired_async()) == every


def test_poll_keeps_the_last_data_on_304_when_asked(sdk_server: SdkServer) -> None:
    client = Client(sdk_server.url, sdk_server.api_key)
    first = client.poll("/platform/plans/1/nodes", {"limit": 2}, keep_last=True)
    assert len(first["nodes"]) == 2
    assert client.poll("/platform/plans/1/nodes", {"limit": 2}, keep_last=True) == first
    assert client.poll("/platform/plans/1/nodes", {"limit": 2}) is None
    with pytest.raises(httpx.TimeoutException):  # a per-request timeout, no retry left
        Client(sdk_server.url, sdk_server.api_key, retry=NO_RETRY).get(
            "/platform/plans/1", timeout=1e-6
        )


def test_the_built_wheel_installs_into_a_fresh_environment(tmp_path: Path) -> None:
    # As `make clients` builds it (offline: the venv's setuptools and wheel, no isolation), from
    # a copy (setuptools builds in the source tree).
    source = tmp_path / "source"
    shutil.copytree(
        ROOT / "clients" / "python",
        source,
        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".mypy_cache"),
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(tmp_path / "dist"),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=180,
    )
    (wheel,) = (tmp_path / "dist").glob("maintplan_sdk-1.1.0-py3-none-any.whl")
    fresh = tmp_path / "venv"
    venv.create(fresh, with_pip=False)
    python = fresh / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    # Its dependencies (httpx, attrs) from this venv, after the fresh one's own packages.
    site = next((fresh / "lib").glob("python3*/site-packages"))
    deps = next(p for p in sys.path if p.endswith("site-packages") and "httpx" in _names(p))
    (site / "zz_deps.pth").write_text(deps + "\n")
    shown = subprocess.run(
        [
            str(python),
            "-c",
            "import maintplan, importlib.metadata as m; "
            "print(maintplan.__file__, maintplan.USER_AGENT, m.requires('maintplan-sdk'))",
        ],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert shown.startswith(str(site / "maintplan" / "__init__.py"))
    assert "maintplan-python/1.1.0" in shown and "httpx" in shown


def _names(path: str) -> set[str]:
    folder = Path(path)
    return {child.name for child in folder.iterdir()} if folder.is_dir() else set()


def test_network_errors_are_retried_with_backoff_then_the_act_fails_with_its_key() -> None:
    waits: list[float] = []
    client = Client("http://127.0.0.1:9", "mpk_none", retry=RetryPolicy(max_attempts=3, base=0.2))
    client.sleep = waits.append  # nothing listens on port 9: every send is refused
    with pytest.raises(ActFailed) as failed:
        client.dismiss(1, "0b9f6c1e-4a55-4c43-9a0b-0a4a7f6a1e2d", "accepted", idempotency_key="k-1")
    assert failed.value.idempotency_key == "k-1"  # send it again later with this key
    assert len(waits) == 2  # three sends, backoff between: 0.1-0.2 s, then 0.2-0.4 s
    assert 0.1 <= waits[0] <= 0.2 and 0.2 <= waits[1] <= 0.4
