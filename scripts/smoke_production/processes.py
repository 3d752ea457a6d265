"""The processes of the smoke test: a throwaway PostgreSQL and Redis, the app servers and the
worker, and a load that runs while the test kills and restarts them."""

from __future__ import annotations

import http.client
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from scripts.smoke_production.http import Browser

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
RATE_LIMIT = 30


class SmokeFailure(AssertionError):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SmokeFailure(message)


def say(message: str) -> None:
    print(f"[smoke] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Topology:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.pg_port, self.redis_port = free_port(), free_port()
        self.web_ports = {"A": free_port(), "B": free_port()}
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.redis: subprocess.Popen[bytes] | None = None
        self.env = {
            **os.environ,
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": "smoke-" + uuid.uuid4().hex + uuid.uuid4().hex,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_BEHIND_TLS_PROXY": "true",
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/maintplan",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            # Debug off refuses the console backend (core.mail). The production backend, SMTP,
            # to a loopback port nobody listens on: no step sends mail (no password reset, no
            # key that expires within 7 days, no webhook), and one that did would fail loudly
            # in the log instead of vanishing into a per-process memory outbox.
            "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(free_port()),
            "API_KEY_THROTTLE_RATE": f"{RATE_LIMIT}/minute",
            "IMPORT_LEASE_SECONDS": "15",
            "MAINTPLAN_DATA_DIR": str(workdir / "data"),
            "LOG_LEVEL": "WARNING",
            "WEB_CONCURRENCY": "2",
            "GUNICORN_THREADS": "4",
        }

    # PostgreSQL
    def postgres_start(self) -> None:
        data = self.workdir / "pg"
        if not data.exists():
            data.mkdir()
            if self.as_postgres:
                shutil.chown(self.workdir, "postgres")
                shutil.chown(data, "postgres")
            subprocess.run(
                [
                    *self.as_postgres,
                    "initdb",
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--locale=C.UTF-8",
                ],
                check=True,
                capture_output=True,
            )
        subprocess.run(
            [
                *self.as_postgres,
                "pg_ctl",
                "-D",
                str(data),
                "-l",
                str(self.workdir / "pg.log"),
                "-w",
                "-t",
                "60",
                "-o",
                f"-p {self.pg_port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c max_connections=200",
                "start",
            ],
            check=True,
            capture_output=True,
        )

    def postgres_stop(self) -> None:
        subprocess.run(
            [
                *self.as_postgres,
                "pg_ctl",
                "-D",
                str(self.workdir / "pg"),
                "-m",
                "fast",
                "-w",
                "stop",
            ],
            check=False,
            capture_output=True,
        )

    # Redis
    def redis_start(self) -> None:
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: port_open(self.redis_port), 10, "Redis to listen")

    def redis_stop(self) -> None:
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(10)
            self.redis = None

    # the app
    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SmokeFailure(f"manage.py {' '.join(args)} failed:\n{done.stderr}")
        return done.stdout

    def start(self, name: str) -> None:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        if name == "worker":  # the Procfile's worker line
            command = [
                "sh",
                "-c",
                f"{shlex.quote(PYTHON)} manage.py resume_jobs && "
                f"exec {shlex.quote(PYTHON)} manage.py db_worker --interval 0.2",
            ]
        elif name == "webhooks":  # the Procfile's webhooks line: the delivery dispatcher
            command = [PYTHON, "manage.py", "deliver_webhooks", "--interval", "0.2"]
        else:
            command = [
                PYTHON,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--config",
                "config/gunicorn.py",
                "--bind",
                f"127.0.0.1:{self.web_ports[name]}",
                "--control-socket",
                str(self.workdir / f"{name}.ctl"),
            ]
        self.processes[name] = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True
        )
        if name in self.web_ports:
            port = self.web_ports[name]
            wait_for(lambda: Browser().get(port, "/healthz").status == 200, 30, f"server {name}")

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)

    def stop_all(self) -> None:
        for name in list(self.processes):
            with suppress(ProcessLookupError):
                self.kill(name)
        self.redis_stop()
        self.postgres_stop()


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> float:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        try:
            if condition():
                return time.monotonic() - started
        except OSError:
            pass
        time.sleep(0.1)
    raise SmokeFailure(f"timed out after {seconds} s waiting for {what}")


@contextmanager
def load(ports: list[int], browser: Browser, path: str) -> Iterator[list[tuple[float, int, int]]]:
    """Signed-in page loads of `path` on `ports` in turn, from 6 threads, until the block ends
    (the API's rate limit is set low for step 1, so the load is the web app's); yields the list
    of (time sent, port, status) it fills (status 0: no whole answer)."""
    results: list[tuple[float, int, int]] = []
    stop = threading.Event()

    def run(offset: int) -> None:
        turn = offset
        while not stop.is_set():
            port = ports[turn % len(ports)]
            turn += 1
            sent = time.monotonic()
            try:
                status = browser.get(port, path, timeout=10).status
            except (OSError, http.client.HTTPException):
                status = 0  # no whole answer: refused, reset, or cut off mid-body by a kill
            results.append((sent, port, status))

    threads = [threading.Thread(target=run, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    try:
        yield results
    finally:
        stop.set()
        for thread in threads:
            thread.join(30)
