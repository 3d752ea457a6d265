"""Benchmark: survey mode on a building of 2,000 components, on a throttled connection.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_survey.py

Migrates the database of DATABASE_URL, collects the static files (debug off: hashed names),
creates a user with a session and a plan whose one building holds `--components` components
(default 2,000, in systems of 50), starts gunicorn (2 sync workers, production settings) and
measures:

- server: the time to the last byte of the component list's first page (30 rows) and of a
  full page (500 rows), from a client on loopback (p50 of `--requests` after a warm-up);
- in Debian's headless Chromium at 390 x 844 with the network throttled through the DevTools
  protocol (DevTools' "Fast 3G": 562.5 ms latency, 1.6 Mbit/s down, 750 kbit/s up), each run in
  a fresh browser context (empty cache, no service worker yet: every byte over the throttled
  line): the time from navigation to the first component's name on the page, and to the last
  page of the component list (p50 and max of `--runs`), with the bytes of the list's JSON.

Target (docs/subsystems/survey-mode.md "The component list"): first component <= 2 s.
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_pages import CHROMIUM, SESSION_SCRIPT
from benchmarks.harness import free_port, manage, percentile, server_environment, start_gunicorn

BUILDING_SCRIPT = """
from accounts.models import User
from planning.models import NodeKind, StructureNode
from planning.plans.services.plans import plan_create
from planning.tree.paths import child_fields
import uuid
owner = User.objects.get(email={email!r})
plan = plan_create(owner=owner, name="Survey benchmark")
building = StructureNode(plan=plan, name="Block A", kind=NodeKind.BUILDING)
building.path, building.building_id = child_fields(
    node_id=building.pk, kind=building.kind, parent_id=None, parent_path="", parent_building=None
)
building.save()
nodes = []
for s in range(({components} + 49) // 50):
    system = StructureNode(id=uuid.uuid4(), plan=plan, name=f"System {{s + 1}}",
                           kind=NodeKind.SYSTEM, parent=building)
    system.path, system.building_id = child_fields(
        node_id=system.pk, kind=system.kind, parent_id=building.pk,
        parent_path=building.path, parent_building=building.pk)
    nodes.append(system)
    for c in range(min(50, {components} - s * 50)):
        node = StructureNode(id=uuid.uuid4(), plan=plan, name=f"Component {{s + 1}}.{{c + 1}}",
                             kind=NodeKind.COMPONENT, parent=system,
                             condition_grade=c % 4 if c % 3 else None)
        node.path, node.building_id = child_fields(
            node_id=node.pk, kind=node.kind, parent_id=system.pk,
            parent_path=system.path, parent_building=building.pk)
        nodes.append(node)
StructureNode.objects.bulk_create(nodes, batch_size=1000)
print(plan.number, building.pk)
"""

# survey_mode.FIRST_PAGE rows ride in the page; static/js/survey.js asks for the rest in pages
# of 500, all at once.
FIRST_PAGE = 30
NEXT_PAGE = 500
# DevTools' "Fast 3G" preset.
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
    "uploadThroughput": 750 * 1024 / 8 * 0.9,
}


def fetch(port: int, path: str, session_key: str) -> tuple[int, float, int]:
    """(status, seconds to the last byte, bytes) of one GET with the session."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Cookie": f"sessionid={session_key}"})
    response = connection.getresponse()
    body = response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return response.status, elapsed, len(body)


def browser_runs(
    port: int, path: str, session_key: str, runs: int, components: int
) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        for _ in range(runs):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.add_cookies(
                [{"name": "sessionid", "value": session_key, "url": f"http://127.0.0.1:{port}"}]
            )
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", FAST_3G)
            pages: list[tuple[float, int, str]] = []
            expected = -(-(components - FIRST_PAGE) // NEXT_PAGE)  # the pages after the first
            started = time.perf_counter()

            def seen(response: Any, started: float = started, pages: list[Any] = pages) -> None:
                if "/components/" in response.url:
                    body = response.body()
                    encoding = response.headers.get("content-encoding", "none")
                    pages.append((time.perf_counter() - started, len(body), encoding))

            page.on("response", seen)
            page.goto(f"http://127.0.0.1:{port}{path}", wait_until="commit")
            page.wait_for_selector("#survey-name:not(:empty)", timeout=60_000)
            first = time.perf_counter() - started
            deadline = time.monotonic() + 120
            while len(pages) < expected and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            results.append(
                {
                    "first": first,
                    "all": max(t for t, _b, _l in pages),
                    "bytes": sum(b for _t, b, _l in pages),
                    "requests": len(pages),
                    "encoding": ",".join(sorted({e for _t, _b, e in pages})),
                    "total": page.locator("#survey-position").inner_text(),
                }
            )
            context.close()
        browser.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--components", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    arguments = parser.parse_args()
    env = server_environment()
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    email = f"survey-{time.time_ns()}@example.com"
    session_key = manage(env, "shell", "-v", "0", "-c", SESSION_SCRIPT.format(email=email))
    session_key = session_key.strip()
    script = BUILDING_SCRIPT.format(email=email, components=arguments.components)
    number, building = manage(env, "shell", "-v", "0", "-c", script).split()
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"bench-survey-{port}.log"
    server = start_gunicorn(env, port, log, "--workers", "2", "--timeout", "300")
    try:
        base = f"/plans/{number}/survey/{building}/"
        for label, query in (
            ("first page (30)", "?offset=0&limit=30"),
            ("page of 500", "?offset=30&limit=500"),
        ):
            path = f"{base}components/{query}"
            status, _elapsed, size = fetch(port, path, session_key)
            assert status == 200, status
            times = [fetch(port, path, session_key)[1] for _ in range(arguments.requests)]
            print(
                f"server, component list {label}: p50 {percentile(times, 0.5) * 1000:.0f} ms, "
                f"p90 {percentile(times, 0.9) * 1000:.0f} ms, {size / 1024:.1f} kB"
            )
        runs = browser_runs(port, base, session_key, arguments.runs, arguments.components)
        firsts = [run["first"] for run in runs]
        alls = [run["all"] for run in runs]
        print(
            f"Chromium 390 px, Fast 3G, empty cache, {arguments.components} components "
            f"({runs[0]['total']}): first component p50 {percentile(firsts, 0.5):.2f} s, "
            f"max {max(firsts):.2f} s; whole list p50 {percentile(alls, 0.5):.2f} s "
            f"({runs[0]['requests']} requests after the page, {runs[0]['bytes'] / 1024:.0f} kB "
            f"of JSON, sent {runs[0]['encoding']})"
        )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
