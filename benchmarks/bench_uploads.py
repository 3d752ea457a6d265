"""Benchmark: photos uploaded to a component as a survey sends them (issue 42).

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_uploads.py [--photos 50]

Makes `--photos` JPEGs of 12 megapixels (4000 x 3000, about 5 MB each at the default quality,
each with an EXIF GPS position) in a child process, starts gunicorn (1 sync worker, production
settings, the file storage in a temporary data folder) and uploads them one after the other to a
component's page as a browser posts its form (multipart, the file streamed from disk). Prints
the total and per-photo time, and the worker's peak resident memory (VmHWM) after the first,
the tenth and the last photo: it must stay near one photo's worth, not grow with their number
(planning/plans/uploads.py decodes a JPEG's thumbnail at an eighth of its size or less and never
holds two photos at once).
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_exports import worker_peak_mb
from benchmarks.bench_pages import SESSION_SCRIPT
from benchmarks.harness import free_port, manage, server_environment, start_gunicorn

PHOTO_MAKER = """
import sys
from PIL import Image
folder, count, quality = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
size = (4000, 3000)
noise = Image.effect_noise(size, 40)
gradient = Image.linear_gradient("L").resize(size)
for number in range(count):
    flip = Image.Transpose.FLIP_LEFT_RIGHT if number % 2 else Image.Transpose.FLIP_TOP_BOTTOM
    image = Image.merge("RGB", (noise, gradient, noise.transpose(flip)))
    exif = Image.Exif()
    exif[0x0112] = 6
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2] = "N", (59.0, 54.0, float(number))
    image.save(f"{folder}/photo-{number:03d}.jpg", "JPEG", quality=quality, exif=exif)
"""

PLAN_SCRIPT = """
from accounts.models import User
from planning.plans.services.nodes import node_create
from planning.plans.services.plans import plan_create
user = User.objects.order_by("-pk").first()
plan = plan_create(owner=user, name="Survey benchmark")
roof = node_create(plan=plan, name="Roof", kind="component")
print(plan.number, roof.pk)
"""


def post_photo(port: int, path: str, photo: Path, cookies: str, csrf: str) -> int:
    """POSTs the photo as a form's file field, streamed from disk; returns the status."""
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
        f'{csrf}\r\n--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{photo.name}"\r\nContent-Type: image/jpeg\r\n\r\n'
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    connection.putrequest("POST", path)
    connection.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
    connection.putheader("Content-Length", str(len(head) + photo.stat().st_size + len(tail)))
    connection.putheader("Cookie", cookies)
    connection.putheader("Referer", f"http://127.0.0.1:{port}{path}")
    connection.endheaders()
    connection.send(head)
    with photo.open("rb") as content:
        while chunk := content.read(256 * 1024):
            connection.send(chunk)
    connection.send(tail)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--photos", type=int, default=50)
    parser.add_argument("--quality", type=int, default=84)
    args = parser.parse_args()

    data = Path(tempfile.mkdtemp(prefix="maintplan-bench-uploads-"))
    photos = data / "photos"
    photos.mkdir()
    subprocess.run(
        [sys.executable, "-c", PHOTO_MAKER, str(photos), str(args.photos), str(args.quality)],
        check=True,
    )
    files = sorted(photos.glob("*.jpg"))
    sizes = [path.stat().st_size / 1e6 for path in files]

    env = server_environment()
    env["MAINTPLAN_DATA_DIR"] = str(data)
    env.pop("STORAGE_S3_BUCKET", None)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")  # the static folder is in the data folder
    email = f"uploads-{time.time_ns()}@example.com"
    session_key = manage(env, "shell", "-v", "0", "-c", SESSION_SCRIPT.format(email=email))
    session_key = session_key.strip().splitlines()[-1]
    number, node_id = manage(env, "shell", "-v", "0", "-c", PLAN_SCRIPT).split()[-2:]

    port = free_port()
    server = start_gunicorn(env, port, data / "gunicorn.log", "--workers", "1", "--timeout", "120")
    try:
        page = f"/plans/{number}/nodes/{node_id}/"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", page, headers={"Cookie": f"sessionid={session_key}"})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"the component's page answered {response.status}")
        cookie = "; ".join(value for name, value in response.getheaders() if name == "Set-Cookie")
        csrf = next(part.split("=", 1)[1] for part in cookie.split(";") if "csrftoken=" in part)
        cookies = f"sessionid={session_key}; csrftoken={csrf}"
        times, peaks = [], {0: worker_peak_mb(server.pid)}  # 0: after the page only
        started = time.perf_counter()
        for path in files:
            began = time.perf_counter()
            status = post_photo(port, f"{page}files/", path, cookies, csrf)
            if status != 302:
                raise SystemExit(f"{path.name}: answered {status}; see {data / 'gunicorn.log'}")
            times.append(time.perf_counter() - began)
            if len(times) in (1, 10, len(files)):
                peaks[len(times)] = worker_peak_mb(server.pid)
        total = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)

    stored = len(list((data / "files").rglob("*.thumb.jpg")))
    print(f"photos: {len(files)} of {statistics.mean(sizes):.1f} MB on average (12 MP JPEG)")
    print(f"stored: {stored} photos with their thumbnails under {data / 'files'}")
    p50, slowest = statistics.median(times) * 1000, max(times) * 1000
    print(f"total: {total:.1f} s; per photo p50 {p50:.0f} ms, max {slowest:.0f} ms")
    print(
        "worker peak RSS (VmHWM) after photo "
        + ", ".join(f"{count}: {peak:.0f} MB" for count, peak in peaks.items())
    )
    print(f"data folder (delete when done): {data}")


if __name__ == "__main__":
    main()
