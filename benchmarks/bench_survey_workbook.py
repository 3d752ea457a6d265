"""Benchmark: the survey report's workbook of a building of 2,000 components with 4 photos each.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_survey_workbook.py

Migrates the database of DATABASE_URL, stores the files in a temporary data folder, creates a
plan whose one building holds `--components` components (default 2,000, in systems of 50), each
with `--photos` photos (default 4) whose thumbnails are 320 x 240 JPEGs (quality 80, as
uploads make them) of noise of `--sigma` (default 10: about 18 KB, as a photo's; 40 is a worst
case of about 37 KB), then, in a fresh process as a worker would (production
settings), builds the report and writes its workbook (planning.reports.survey_workbook) into a
temporary file: the time, the workbook's size and its images, and the process's memory: VmRSS
before (Django, openpyxl and Pillow loaded) and its peak (VmHWM) after.

What it shows (docs/subsystems/surveys-and-files.md "Survey report"): the workbook holds no
image's bytes in memory, so the peak grows with the components' cells, not with the photos.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import manage, server_environment

BUILDING_SCRIPT = """
import io, json, random, uuid
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image
from accounts.models import User
from planning.models import Attachment, AttachmentKind, NodeKind, StructureNode
from planning.plans.services.plans import plan_create
from planning.tree.paths import child_fields
owner = User.objects.create_user(email="survey-bench@example.com", password=None, name="Bench")
plan = plan_create(owner=owner, name="Survey workbook benchmark")
building = StructureNode(plan=plan, name="Block A", kind=NodeKind.BUILDING)
building.path, building.building_id = child_fields(
    node_id=building.pk, kind=building.kind, parent_id=None, parent_path="", parent_building=None
)
building.save()
random.seed(1)
thumbnails = []
for n in range(16):  # a few different thumbnails, each stored once per photo below
    image = Image.effect_noise((320, 240), {sigma} + n / 4).convert("RGB")
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80)
    thumbnails.append(out.getvalue())
nodes, photos = [], []
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
                             condition_grade=c % 4, condition_consequence=(c // 4) % 4)
        node.path, node.building_id = child_fields(
            node_id=node.pk, kind=node.kind, parent_id=system.pk,
            parent_path=system.path, parent_building=building.pk)
        nodes.append(node)
        for p in range({photos}):
            pk = uuid.uuid4()
            name = f"attachments/{{plan.pk}}/{{pk}}.thumb.jpg"
            data = thumbnails[len(photos) % len(thumbnails)]
            default_storage.save(name, ContentFile(data))
            photos.append(Attachment(id=pk, plan=plan, node=node, kind=AttachmentKind.IMAGE,
                                     file=name, thumbnail=name, original_name="p.jpg",
                                     content_type="image/jpeg", size=len(data)))
StructureNode.objects.bulk_create(nodes, batch_size=1000)
Attachment.objects.bulk_create(photos, batch_size=1000)
print(json.dumps({{"building": str(building.pk),
                   "thumbnail_bytes": sum(map(len, thumbnails)) // len(thumbnails)}}))
"""

MEASURE_SCRIPT = """
import datetime, json, tempfile, time, zipfile
from pathlib import Path
from planning.models import StructureNode
from planning.reports.survey import survey_report
from planning.reports.survey_workbook import survey_report_workbook
import openpyxl, PIL.Image  # loaded before the baseline: a worker has them

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024

building = StructureNode.objects.select_related("plan").get(pk={building!r})
before = status("VmRSS")
started = time.perf_counter()
report = survey_report(building=building, made_on=datetime.date.today())
with tempfile.TemporaryFile() as out:
    survey_report_workbook(report, out)
    elapsed = time.perf_counter() - started
    size = out.tell()
    out.seek(0)
    with zipfile.ZipFile(out) as book:
        images = sum(1 for name in book.namelist() if name.startswith("xl/media/"))
print(json.dumps({{"seconds": elapsed, "bytes": size, "images": images,
                   "rss_before_mb": before, "peak_mb": status("VmHWM")}}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--components", type=int, default=2000)
    parser.add_argument("--photos", type=int, default=4)
    parser.add_argument("--sigma", type=float, default=10)
    args = parser.parse_args()
    env = server_environment()
    with tempfile.TemporaryDirectory() as data:
        env["MAINTPLAN_DATA_DIR"] = data
        manage(env, "migrate", "--noinput", "-v", "0")
        made = json.loads(
            manage(
                env,
                "shell",
                "-v",
                "0",
                "-c",
                BUILDING_SCRIPT.format(
                    components=args.components, photos=args.photos, sigma=args.sigma
                ),
            )
        )
        runs = [
            json.loads(manage(env, "shell", "-v", "0", "-c", MEASURE_SCRIPT.format(**made)).strip())
            for _ in range(2)
        ]
    print(
        f"{args.components} components x {args.photos} photos "
        f"(thumbnails of {made['thumbnail_bytes'] / 1024:.0f} KB)"
    )
    for run in runs:
        print(
            f"  workbook {run['bytes'] / 1e6:.1f} MB, {run['images']} images, "
            f"{run['seconds']:.1f} s; worker RSS {run['rss_before_mb']:.0f} MB before, "
            f"peak {run['peak_mb']:.0f} MB (+{run['peak_mb'] - run['rss_before_mb']:.0f} MB)"
        )


if __name__ == "__main__":
    main()
