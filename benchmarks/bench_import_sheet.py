"""Benchmark: a one-sheet workbook of 100,000 rows through the mapping page and the import job
(docs/subsystems/import-mapping.md).

    .venv/bin/python benchmarks/bench_import_sheet.py [--rows 100000] [--keep DIR]

Writes the sheet with openpyxl (Site, Building, Part, Component, Title, Kind, Year, Cost,
Interval, Status, in Swedish; every text a shared string, as Excel writes them: 100,000 of
the titles are distinct), then, each step
in a fresh process on its own database (SQLite, production settings; DATABASE_URL when it names
PostgreSQL):
- the upload as the plan list keeps it (plan_import_submit, status mapping);
- the mapping page's GET, as a browser asks for it (django.test.Client): guesses and preview of
  the first 20 rows; "time to the preview" is this request;
- the confirmation (plan_import_mapped), then the worker's job (plan_import_run: the two passes
  over the sheet, the checks, the write, the first sync) with its peak RSS (VmHWM).

Targets (issue 39): the preview <= 5 s, the plan end to end <= 60 s, the worker <= 400 MB.
The CPU time of each step is printed beside its wall time, and the load average at the end: on
a shared machine the wall time is the CPU time stretched by the other processes.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEADER = ["Fastighet", "Byggnad", "Byggdel", "Komponent", "Åtgärd", "Typ", "År", "Kostnad"]
HEADER += ["Intervall", "Status"]
KINDS = ["Utbyte", "Reparation", "Besiktning"]


def _row(n: int) -> list[object]:
    component = n // 5  # five actions a component: 20,000 components of 100,000 rows
    part, building = component // 5, component // 40
    return [
        f"Fastighet {building // 20}",
        f"Hus {building}",
        f"Byggdel {part}",
        f"Komponent {component}",
        f"Åtgärd {n % 5} på komponent {component}",
        KINDS[n % 3],
        2027 + n % 30,
        1000 + (n * 37) % 250_000,
        [None, 10, 25][n % 3],
        "Planerad",
    ]


def sheet_write(path: Path, rows: int) -> None:
    """The sheet as Excel writes it: numbers as numbers, every text a shared string (openpyxl's
    write-only mode would write inline strings, which no spreadsheet program does)."""
    from xml.sax.saxutils import escape

    from tests.planning.workbook_shapes import DECLARATION, MAIN, workbook

    strings: dict[str, int] = {}

    def sheet(out: IO[bytes]) -> None:
        out.write(DECLARATION + f'<worksheet xmlns="{MAIN}"><sheetData>'.encode())
        for number in range(1, rows + 2):
            values = HEADER if number == 1 else _row(number - 2)
            cells = []
            for column, value in enumerate(values):
                reference = f"{chr(ord('A') + column)}{number}"
                if isinstance(value, int):
                    cells.append(f'<c r="{reference}"><v>{value}</v></c>')
                elif value is not None:
                    index = strings.setdefault(str(value), len(strings))
                    cells.append(f'<c r="{reference}" t="s"><v>{index}</v></c>')
            out.write(f'<row r="{number}">{"".join(cells)}</row>'.encode())
        out.write(b"</sheetData></worksheet>")

    def shared(out: IO[bytes]) -> None:
        out.write(DECLARATION + f'<sst xmlns="{MAIN}">'.encode())
        for text in strings:  # written after the sheet, which filled it
            out.write(f"<si><t>{escape(text)}</t></si>".encode())
        out.write(b"</sst>")

    workbook({"Underhållsplan": sheet}, strings=shared, path=path)


SUBMIT = """
from accounts.models import User
from organisations.models import OrganisationMembership
from planning.models import PlanImportFormat, PlanImportStatus
from planning.transfer.imports.jobs import plan_import_submit
user = User.objects.create_user(email="sheet@example.com", password=None, name="Sheet")
organisation = OrganisationMembership.objects.get(user=user).organisation
upload, _created = plan_import_submit(
    owner=user, organisation=organisation, idempotency_key="sheet",
    file_format=PlanImportFormat.SHEET, filename="{name}", name="",
    content=open("{path}", "rb").read(), status=PlanImportStatus.MAPPING,
)
print(upload.pk)
"""

PREVIEW = """
import json, sys, time
import django
django.setup()
from django.test import Client
from django.urls import reverse
from planning.models import PlanImport
from planning.transfer.imports.sheet.mappings import plan_import_mapped
upload = PlanImport.objects.select_related("owner").get(pk=sys.argv[1])
from django.conf import settings
from django.test import override_settings
# Production settings name the collected static files' manifest, which a checkout has not built.
storages = {**settings.STORAGES, "staticfiles": {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
override_settings(STORAGES=storages).enable()
from django.test.utils import setup_test_environment
setup_test_environment()  # the response's context: the mapping the page chose
client = Client(HTTP_HOST="localhost")
client.force_login(upload.owner)
started, cpu = time.perf_counter(), time.process_time()
response = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]), secure=True)
elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
assert response.status_code == 200, response.status_code
form = response.context["form"]
columns = [form[f"column_{i}"].value() for i in range(len(form.headers))]
preview = response.context["preview"]
plan_import_mapped(upload=upload, user=upload.owner, headers=form.headers, columns=columns,
                   currency="SEK", name="Bench sheet")
with open("/proc/self/status") as status:
    hwm_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print(json.dumps({"seconds": elapsed, "cpu": cpu, "columns": columns, "rows": len(preview.rows),
                  "problems": preview.problems[:3], "peak_mb": hwm_kb / 1024}))
"""

JOB = """
import json, sys, time
import django
django.setup()
from planning.models import PlanImport
from planning.transfer.imports.jobs import plan_import_run
import resource
started, cpu = time.perf_counter(), time.process_time()
plan_import_run(import_id=sys.argv[1])
elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
upload = PlanImport.objects.select_related("plan").get(pk=sys.argv[1])
with open("/proc/self/status") as status:
    hwm_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
plan = upload.plan
print(json.dumps({
    "seconds": elapsed, "cpu": cpu, "status": upload.status, "problems": upload.problems[:3],
    "peak_mb": hwm_kb / 1024, "actions": plan.actions.count() if plan else 0,
    "nodes": plan.nodes.count() if plan else 0,
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, help="a folder to keep the sheet and database in")
    arguments = parser.parse_args()
    folder = arguments.keep or Path(tempfile.mkdtemp(prefix="bench-sheet-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "Underhållsplan.xlsx"
    started = time.perf_counter()
    sheet_write(path, arguments.rows)
    print(
        f"sheet: {arguments.rows:,} rows, {path.stat().st_size / 1e6:.1f} MB, written in "
        f"{time.perf_counter() - started:.1f} s"
    )
    database = os.environ.get("DATABASE_URL", "")
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database
        if database.startswith("postgres")
        else f"sqlite:///{folder / 'db.sqlite3'}",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_ALLOWED_HOSTS": "localhost",
        "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "SITE_URL": "https://maintplan.example",
        "PYTHONPATH": str(ROOT),
    }

    def child(*command: str) -> str:
        done = subprocess.run(
            [sys.executable, *command],
            capture_output=True,
            text=True,
            check=False,
            cwd=ROOT,
            env=environment,
        )
        if done.returncode:
            raise SystemExit(done.stderr[-3000:])
        lines = done.stdout.strip().splitlines()
        return lines[-1] if lines else ""

    child("manage.py", "migrate", "-v", "0")
    began = time.perf_counter()
    submit = SUBMIT.format(name=path.name, path=path)
    import_id = child("manage.py", "shell", "-v", "0", "-c", submit)
    preview = json.loads(child("-c", PREVIEW, import_id))
    job = json.loads(child("-c", JOB, import_id))
    end_to_end = time.perf_counter() - began
    print(
        f"preview: {preview['seconds']:.2f} s, {preview['cpu']:.2f} s CPU (the mapping page's "
        f"GET; {preview['rows']} rows "
        f"shown, peak {preview['peak_mb']:.0f} MB); columns {preview['columns']}"
    )
    print(
        f"job: {job['seconds']:.1f} s, {job['cpu']:.1f} s CPU, {job['status']}, "
        f"{job['nodes']:,} nodes, "
        f"{job['actions']:,} actions, worker peak {job['peak_mb']:.0f} MB {job['problems']}"
    )
    print(
        f"end to end (upload kept, mapping page, confirmation, job; with process starts): "
        f"{end_to_end:.1f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
