"""`python -m scripts.smoke_production`: the steps, over HTTP only (see the package docstring)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from scripts.smoke_production.http import Browser, api_get, api_session_check
from scripts.smoke_production.processes import (
    RATE_LIMIT,
    SmokeFailure,
    Topology,
    check,
    load,
    say,
    wait_for,
)

PASSWORD = "smoke-test-password-9"  # noqa: S105 - a throwaway account of a throwaway database
EMAIL = "smoke@example.com"


def plan_document_write(topology: Topology, path: Path, nodes: int, actions: int) -> None:
    topology.manage(
        "shell",
        "--no-imports",
        "-c",
        "import json; from django.utils import timezone; from planning.models import Code; "
        "from planning.management.commands.generate_plan import synthetic_plan_document; "
        f"doc = synthetic_plan_document(nodes={nodes}, actions={actions}, seed=7, "
        "year=timezone.now().year, codes=list(Code.objects.order_by('code'))); "
        f"doc['name'] = 'Upload {nodes}'; "
        f"open({str(path)!r}, 'w').write(json.dumps(doc, default=str))",
    )


def web_import(browser: Browser, port: int, content: bytes, filename: str) -> tuple[str, float]:
    """Posts the import form; returns the import page's path and how long the POST took."""
    page = browser.get(port, "/plans/").text
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    key = re.search(r'name="import-idempotency_key" value="([^"]+)"', page)
    check(token is not None and key is not None, "the plan list has no import form")
    assert token is not None and key is not None
    started = time.monotonic()
    answer = browser.post_multipart(
        port,
        "/plans/import/",
        {"csrfmiddlewaretoken": token.group(1), "import-idempotency_key": key.group(1)},
        {"import-plan_file": (filename, content)},
    )
    took = time.monotonic() - started
    check(answer.status == 302, f"import POST answered {answer.status}: {answer.text[:300]}")
    location = answer.headers["Location"]
    return location if location.startswith("/") else "/" + location.split("/", 3)[3], took


def import_progress(browser: Browser, port: int, page: str) -> dict[str, Any]:
    answer = browser.get(port, page + "progress/")
    check(answer.status == 200, f"progress answered {answer.status}")
    return dict(answer.json())


def sql_value(topology: Topology, expression: str) -> str:
    return topology.manage("shell", "--no-imports", "-c", f"print({expression})").strip()


def main() -> int:
    for tool in ("initdb", "pg_ctl", "postgres", "redis-server"):
        if shutil.which(tool) is None:
            print(f"smoke: {tool} not found on PATH", file=sys.stderr)
            return 2
    workdir = Path(tempfile.mkdtemp(prefix="maintplan-smoke-"))
    workdir.chmod(0o755)
    topology = Topology(workdir)
    started = time.monotonic()
    try:
        topology.postgres_start()
        subprocess.run(
            [
                *topology.as_postgres,
                "createdb",
                "-h",
                "127.0.0.1",
                "-p",
                str(topology.pg_port),
                "-U",
                "postgres",
                "maintplan",
            ],
            check=True,
            capture_output=True,
        )
        topology.redis_start()
        topology.manage("migrate", "--noinput")
        topology.manage("collectstatic", "--noinput")
        topology.manage("check", "--deploy", "--fail-level", "WARNING")
        say("PostgreSQL, Redis, migrations, collectstatic and `check --deploy` ready")
        topology.start("A")
        topology.start("B")
        topology.start("worker")
        topology.start("webhooks")
        a, b = topology.web_ports["A"], topology.web_ports["B"]
        say(f"two gunicorn servers (A :{a}, B :{b}), a worker and the webhook dispatcher running")
        steps(topology, a, b)
    except SmokeFailure as failure:
        print(f"[smoke] FAILED: {failure}", file=sys.stderr)
        for log in sorted(workdir.glob("*.log")):
            tail = log.read_text(errors="replace").splitlines()[-15:]
            print(f"--- {log.name} (last lines)\n" + "\n".join(tail), file=sys.stderr)
        return 1
    finally:
        topology.stop_all()
        shutil.rmtree(workdir, ignore_errors=True)
    say(f"all steps passed in {time.monotonic() - started:.0f} s")
    return 0


def steps(topology: Topology, a: int, b: int) -> None:
    browser = Browser()
    # an account over the JSON API, API access and a key from the commands
    answer = browser.post_json(
        a, "/api/v1/auth/register/user", {"email": EMAIL, "password": PASSWORD, "name": "Smoke"}
    )
    check(answer.status == 201, f"register answered {answer.status}: {answer.text[:200]}")
    topology.manage("grant_api_access", EMAIL)
    key = topology.manage("issue_api_key", EMAIL, "--name", "smoke").strip().splitlines()[-1]
    number = topology.manage(
        "generate_plan", "--nodes", "2000", "--actions", "4000", "--owner", EMAIL
    ).splitlines()[-1]
    suggestions = f"/api/v1/platform/plans/{number}/suggestions"

    # 1. one rate limit across both servers
    statuses = [api_session_check((a, b)[n % 2], key).status for n in range(RATE_LIMIT + 1)]
    say(f"rate limit {RATE_LIMIT}/minute over A+B: statuses {dict(Counter(statuses))}")
    check(statuses[:RATE_LIMIT] == [200] * RATE_LIMIT, "a request within the limit was refused")
    check(statuses[RATE_LIMIT] == 429, "the request over the shared limit was not 429")
    key = topology.manage("issue_api_key", EMAIL, "--name", "smoke 2").strip().splitlines()[-1]

    # 2. a session made on A works on B
    answer = browser.post_json(a, "/api/v1/auth/login/user", {"email": EMAIL, "password": PASSWORD})
    check(answer.status == 200, f"login on A answered {answer.status}")
    on_b = browser.get(b, "/plans/")
    say(f"session from A on B: GET /plans/ -> {on_b.status}")
    check(on_b.status == 200 and "Your plans" in on_b.text, "the session of A is unknown to B")

    # 3. eight concurrent first lists of one plan, over both servers
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda n: api_get((a, b)[n % 2], suggestions, key), range(8)))
    bodies = {json.dumps(x.json()["data"], sort_keys=True) for x in answers if x.status == 200}
    duplicates = sql_value(
        topology,
        "__import__('planning.models', fromlist=['x']).Suggestion.objects.values('plan', "
        "'fingerprint').annotate(n=__import__('django.db.models', fromlist=['x']).Count('id'))"
        ".filter(n__gt=1).count()",
    )
    say(
        f"8 concurrent first lists: statuses {dict(Counter(x.status for x in answers))}, "
        f"{len(bodies)} distinct answer(s), {duplicates} duplicated fingerprint(s)"
    )
    check(all(x.status == 200 for x in answers) and len(bodies) == 1, "first lists differ")
    check(duplicates == "0", "a fingerprint has more than one row")

    # 4. a web import of a 2,000-node plan on A, listed on B
    small = topology.workdir / "small.json"
    plan_document_write(topology, small, 2000, 4000)
    page, took = web_import(browser, a, small.read_bytes(), "small.json")
    finished = wait_for(lambda: import_progress(browser, a, page)["finished"], 120, "the import")
    listed = "Upload 2000" in browser.get(b, "/plans/").text
    say(
        f"web import of 2,000 nodes + 4,000 actions: POST {took * 1000:.0f} ms, job done "
        f"{finished:.1f} s later ({6000 / finished:.0f} rows/s with the first sync), listed on "
        f"B: {listed}"
    )
    check(took < 2, "the import POST took 2 s or more")
    check(listed, "the imported plan is not listed on B")

    # 5. the worker killed in the middle of a 20,000-node import, then started again
    large = topology.workdir / "large.json"
    plan_document_write(topology, large, 20000, 100000)
    page, took = web_import(browser, a, large.read_bytes(), "large.json")
    until_writing = wait_for(
        lambda: import_progress(browser, a, page)["rows_written"] > 0, 300, "rows written"
    )
    at_kill = import_progress(browser, a, page)
    topology.kill("worker")
    topology.start("worker")
    rows = wait_for(lambda: import_progress(browser, a, page)["finished"], 600, "the import")
    counts = sql_value(
        topology,
        "[(p.nodes.count(), p.actions.count()) for p in "
        "__import__('planning.models', fromlist=['x']).Plan.objects.filter(name='Upload 20000')]",
    )
    say(
        f"20,000-node upload ({len(large.read_bytes()) >> 20} MiB): POST {took * 1000:.0f} ms, "
        f"120,000 rows checked in {until_writing:.1f} s; worker killed at "
        f"{at_kill['status']} ({at_kill['rows_written']} rows written), started again: import "
        f"finished {rows:.1f} s later (IMPORT_LEASE_SECONDS=15 before the run again); plans: "
        f"{counts}"
    )
    check(counts == "[(20000, 100000)]", "not exactly one complete plan")

    # 6. one app server killed during a 20 s load on both
    plan_page = f"/plans/{number}/"
    with load([a, b], browser, plan_page) as results:
        time.sleep(5)
        topology.kill("A")
        killed_at = time.monotonic()
        time.sleep(15)
    by_b = [status for _at, port, status in results if port == b]
    on_a_after = [status for at, port, status in results if port == a and at > killed_at + 0.5]
    say(
        f"server A killed under load: B answered {len(by_b)} requests "
        f"{dict(Counter(by_b))}; A after its death: {dict(Counter(on_a_after))}"
    )
    check(bool(by_b) and all(s == 200 for s in by_b), "B failed a request while A died")
    topology.start("A")

    # 7. Redis stopped, then started again
    topology.redis_stop()
    down = Browser().get(a, "/readyz")
    topology.redis_start()
    wait_for(lambda: Browser().get(a, "/readyz").status == 200, 30, "/readyz after Redis")
    say(f"Redis stopped: /readyz {down.status} {down.json()['checks']}; started again: 200")
    check(down.status == 503 and down.json()["checks"]["cache"] != "ok", "readyz missed Redis")

    # 8. PostgreSQL restarted during a load on both servers
    with load([a, b], browser, plan_page) as results:
        time.sleep(3)
        topology.postgres_stop()
        stopped_at = time.monotonic()
        time.sleep(1)
        while_down = api_get(a, suggestions, key)
        ready_down = Browser().get(b, "/readyz")
        topology.postgres_start()
        back_at = time.monotonic()
        time.sleep(6)
    before = [s for at, _port, s in results if at < stopped_at]
    during = [s for at, _port, s in results if stopped_at <= at < back_at]
    after = [s for at, _port, s in results if at > back_at + 1]
    say(
        f"PostgreSQL restart under load: before {dict(Counter(before))}, while down "
        f"{dict(Counter(during))}, after {dict(Counter(after))}; an API call while down: "
        f"{while_down.status} {while_down.json().get('messageKey')}; /readyz: "
        f"{ready_down.status} {ready_down.json()['checks']}"
    )
    check(while_down.status == 503, "an API call while the database was down was not 503")
    check(while_down.json()["messageKey"] == "server.unavailable", "not server.unavailable")
    check(ready_down.json()["checks"]["database"] != "ok", "readyz did not name the database")
    check(all(s in (200, 503) for s in during), "a request failed otherwise than 503 while down")
    check(
        bool(after) and all(s == 200 for s in after), "a request failed once the database was back"
    )


if __name__ == "__main__":
    sys.exit(main())
